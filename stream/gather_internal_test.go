package stream

import (
	le "encoding/binary"
	"errors"
	"sync"
	"testing"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/internal/testkit/vktest"
	"github.com/ycbcrkit/ycbcrkit/internal/vkx"
)

// TestGather: three rings' frames gathered on the device's queue wait, unsubmitted, until Flush,
// which submits them in one call; each slot is then in flight on the call's one fence, released
// once that fence signals, and the fence is reused by the next Flush once every slot has settled.
// A ring that waits for a gathered slot (Drain) flushes first instead of waiting forever. What waits
// for a submission to reach the queue (Slot.AfterSubmit: a decoder's picture handed back) runs at
// the Flush, not before; without a gather, at the submission; never submitted, when the slot is
// taken again.
func TestGather(t *testing.T) {
	dev := vktest.Open(t)
	g := NewGather(dev, nil)
	var rings []*Ring
	for range 3 {
		r, err := NewRing(dev, 2)
		if err != nil {
			t.Fatal(err)
		}
		r.SetGather(g)
		rings = append(rings, r)
	}
	t.Cleanup(func() {
		for _, r := range rings {
			r.Close()
		}
		g.Destroy()
	})
	for round := range 3 {
		released, queued := 0, 0
		for _, r := range rings {
			s, err := r.Next()
			if err != nil {
				t.Fatal(err)
			}
			s.Retire(func() { released++ })
			s.AfterSubmit(func() { queued++ })
			if err := r.Submit(s, vk.NullSemaphore, vk.NullSemaphore); err != nil {
				t.Fatal(err)
			}
		}
		if g.Pending() != 3 || queued != 0 {
			t.Fatalf("round %d: %d gathered, %d handed back before the flush", round, g.Pending(), queued)
		}
		for _, r := range rings {
			if !r.last.pending || r.last.gathered != g {
				t.Fatalf("round %d: a gathered slot not held for the flush", round)
			}
		}
		if round == 2 { // Drain flushes what waits
			if err := rings[1].Drain(); err != nil {
				t.Fatal(err)
			}
		} else if err := g.Flush(); err != nil {
			t.Fatal(err)
		}
		if g.Pending() != 0 || queued != 3 {
			t.Fatalf("round %d: %d still gathered after the flush, %d of 3 handed back", round, g.Pending(), queued)
		}
		for _, r := range rings {
			if r.last.shared == nil && r.last.pending {
				t.Fatalf("round %d: a flushed slot without the shared fence", round)
			}
			if err := r.Drain(); err != nil {
				t.Fatal(err)
			}
		}
		if released != 3 {
			t.Fatalf("round %d: %d of 3 frames released after every fence", round, released)
		}
	}
	if len(g.all) != 1 {
		t.Errorf("%d fences made for three flushes one after the other, want 1 reused", len(g.all))
	}
	r, err := NewRing(dev, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for _, submit := range []bool{true, false} {
		queued := 0
		s, err := r.Next()
		if err != nil {
			t.Fatal(err)
		}
		s.AfterSubmit(func() { queued++ })
		if submit {
			if queued != 0 {
				t.Fatal("handed back before the submission")
			}
			if err := r.Submit(s, vk.NullSemaphore, vk.NullSemaphore); err != nil {
				t.Fatal(err)
			}
		} else if _, err := r.Next(); err != nil { // the unsubmitted slot taken again
			t.Fatal(err)
		}
		if queued != 1 {
			t.Errorf("submitted %v: handed back %d times, want once", submit, queued)
		}
	}
	if err := r.Submit(r.slots[0], vk.NullSemaphore, vk.NullSemaphore); err != nil {
		t.Fatal(err)
	}
}

// TestGatherPlaces: three rings of places 2, 1 and 0 each fill one word of a buffer with their
// number (1, 2, 3) after the writes submitted before them (a barrier): after the Flush the word
// holds the number of the ring submitted last, which must be the one of the highest place (1),
// whether the rings submitted in order (0 first: unsorted, 3 would be last) or from goroutines of
// their own at once.
func TestGatherPlaces(t *testing.T) {
	dev := vktest.Open(t)
	buf, err := dev.NewBuffer(4, vk.BufferUsageTransferDstBit, vk.MemoryPropertyHostVisibleBit|vk.MemoryPropertyHostCoherentBit)
	if err != nil {
		t.Fatal(err)
	}
	g := NewGather(dev, nil)
	var rings []*Ring
	for i := range 3 {
		r, err := NewRing(dev, 2)
		if err != nil {
			t.Fatal(err)
		}
		r.SetGather(g)
		r.SetGatherPlace(2 - i)
		rings = append(rings, r)
	}
	t.Cleanup(func() {
		for _, r := range rings {
			r.Close()
		}
		g.Destroy()
		buf.Destroy()
	})
	submit := func(i int) error {
		r := rings[i]
		s, err := r.Next()
		if err != nil {
			return err
		}
		vkx.CmdMemoryBarrier(s.CB, vk.PipelineStageTransferBit, vk.AccessTransferWriteBit, vk.PipelineStageTransferBit, vk.AccessTransferWriteBit)
		vk.CmdFillBuffer(s.CB, buf.Handle, 0, 4, uint32(i+1))
		vkx.CmdMemoryBarrier(s.CB, vk.PipelineStageTransferBit, vk.AccessTransferWriteBit, vk.PipelineStageHostBit, vk.AccessHostReadBit)
		return r.Submit(s, vk.NullSemaphore, vk.NullSemaphore)
	}
	for _, together := range []bool{false, true} {
		errs := make([]error, len(rings))
		var wg sync.WaitGroup
		for i := range rings {
			if !together {
				errs[i] = submit(i)
				continue
			}
			wg.Add(1)
			go func() { defer wg.Done(); errs[i] = submit(i) }()
		}
		wg.Wait()
		if err := errors.Join(errs...); err != nil {
			t.Fatal(err)
		}
		if err := g.Flush(); err != nil {
			t.Fatal(err)
		}
		for _, r := range rings {
			if err := r.Drain(); err != nil {
				t.Fatal(err)
			}
		}
		if got := le.LittleEndian.Uint32(buf.Bytes()); got != 1 {
			t.Errorf("submitted together %v: ring %d's fill came last, want ring 1's (the highest place)", together, got)
		}
	}
}
