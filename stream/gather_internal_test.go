package stream

import (
	"testing"
	"time"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/internal/testkit/vktest"
)

// TestGather: three rings' frames gathered on the device's queue wait, unsubmitted, until Flush,
// which submits them in one call; each slot is then in flight on the call's one fence, released
// once that fence signals, and the fence is reused by the next Flush once every slot has settled.
// A ring that waits for a gathered slot (Drain) flushes first instead of waiting forever. Collect
// asks for the shared fence's state once a round (Gather.Poll).
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
		released := 0
		for _, r := range rings {
			s, err := r.Next()
			if err != nil {
				t.Fatal(err)
			}
			s.Retire(func() { released++ })
			if err := r.Submit(s, vk.NullSemaphore, vk.NullSemaphore); err != nil {
				t.Fatal(err)
			}
		}
		if g.Pending() != 3 {
			t.Fatalf("round %d: %d gathered", round, g.Pending())
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
		if g.Pending() != 0 {
			t.Fatalf("round %d: %d still gathered after the flush", round, g.Pending())
		}
		if round < 2 {
			// The flush's one fence is asked once a round (Poll) for all its slots, not once a slot:
			// each vkGetFenceStatus takes NVIDIA's device-wide lock.
			q := g.queries
			for range 2 {
				for _, r := range rings {
					r.Collect()
				}
			}
			if n := g.queries - q; n > 1 {
				t.Fatalf("round %d: %d fence queries for 3 slots on one fence in one round, want at most 1", round, n)
			}
			for end := time.Now().Add(10 * time.Second); released < 3 && time.Now().Before(end); {
				time.Sleep(100 * time.Microsecond) // lavapipe's work on a loaded machine
				g.Poll()
				for _, r := range rings {
					r.Collect()
				}
			}
			if released != 3 {
				t.Fatalf("round %d: %d of 3 frames released by Collect, with Poll between", round, released)
			}
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
}
