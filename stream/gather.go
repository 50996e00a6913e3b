package stream

import (
	"cmp"
	"fmt"
	"slices"
	"sync"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/gpu"
	"github.com/ycbcrkit/ycbcrkit/internal/vkx"
)

// Gather collects the submissions of several rings on one queue and submits them together in one
// vkQueueSubmit (Flush), by the rings' places (SetGatherPlace) and, within a place, in the order
// they were made: a wall's display step converts a picture for each of many streams, and one call
// with a batch per frame costs the driver one submission's overhead instead of one per stream. The
// batches keep their own semaphores; one fence, shared by the slots of a Flush, signals when all
// are done (a vkQueueSubmit fence covers every batch of the call: Vulkan spec, "Fences"), so a slot
// of a gathered submission is free once the whole step's work is: the rings need as many slots as
// before, their streams' GPU work being one step long. Rings may submit into it and settle their
// slots from goroutines of their own (a wall's workers, each recording its streams).
type Gather struct {
	dev   *gpu.Device
	queue vk.Queue
	mu    sync.Mutex // guards what follows: rings on several goroutines
	got   []gathered
	// batches is Flush's list, kept for the next.
	batches []vkx.Batch
	// queued is Flush's slots, whose AfterSubmit work runs once they are on the queue; kept for the
	// next.
	queued []*Slot
	free   []*sharedFence // reset, ready for a Flush
	all    []*sharedFence
}

// gathered is one slot's submission waiting for Flush.
type gathered struct {
	place   int
	slot    *Slot
	batches []vkx.Batch
}

// sharedFence is one Flush's fence and the count of slots that have not yet settled on it.
type sharedFence struct {
	fence vk.Fence
	refs  int
	g     *Gather
}

// release drops one slot's hold; the last one resets the fence for the next Flush.
func (f *sharedFence) release(dev *gpu.Device) error {
	g := f.g
	g.mu.Lock()
	defer g.mu.Unlock()
	if f.refs--; f.refs > 0 {
		return nil
	}
	if err := vkx.Check(vk.ResetFences(dev.Device, 1, []vk.Fence{f.fence}), "vkResetFences"); err != nil {
		return err
	}
	g.free = append(g.free, f)
	return nil
}

// NewGather makes a gather of submissions to q (nil: the device's queue). Rings join it with
// SetGather; Destroy it after closing them.
func NewGather(dev *gpu.Device, q vk.Queue) *Gather {
	if q == nil {
		q = dev.Queue
	}
	return &Gather{dev: dev, queue: q}
}

// SetGather makes the ring's submissions to g's queue wait in g until its Flush (nil: each is
// submitted at once, as by default). What waits for a slot of a gathered submission (Next, Wait,
// Drain) flushes g first.
func (r *Ring) SetGather(g *Gather) { r.gather = g }

// SetGatherPlace sets where the ring's gathered submissions go in a Flush: after those of rings of
// lower places, whatever the order the rings submitted in (a wall's tiles recorded side by side are
// submitted in tile order). Rings of one place keep the order of their submissions; 0 by default.
func (r *Ring) SetGatherPlace(place int) { r.place = place }

// add takes s's batches, their command buffers already ended.
func (g *Gather) add(r *Ring, s *Slot, batches []vkx.Batch) {
	g.mu.Lock()
	g.got = append(g.got, gathered{place: r.place, slot: s, batches: batches})
	s.gathered = g
	g.mu.Unlock()
	r.submitted(s)
}

// Pending is how many submissions wait for Flush.
func (g *Gather) Pending() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return len(g.got)
}

// Flush submits what was gathered in one vkQueueSubmit (split into calls of at most
// VKX_MAX_BATCHES batches), by the rings' places.
func (g *Gather) Flush() error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if len(g.got) == 0 {
		return nil
	}
	f, err := g.fence()
	if err != nil {
		return err
	}
	got := g.got
	slices.SortStableFunc(got, func(a, b gathered) int { return cmp.Compare(a.place, b.place) })
	batches, slots := g.batches[:0], g.queued[:0]
	for i, x := range got {
		batches = append(batches, x.batches...)
		slots = append(slots, x.slot)
		x.slot.gathered, x.slot.shared = nil, f
		got[i] = gathered{}
	}
	g.got, g.batches, g.queued = got[:0], batches[:0], slots[:0]
	f.refs = len(got)
	const most = 256 // VKX_MAX_BATCHES
	for len(batches) > 0 {
		n := min(len(batches), most)
		fence := vk.NullFence
		if n == len(batches) {
			fence = f.fence // the last call's fence covers the earlier calls' work too
		}
		if err := vkx.QueueSubmitBatches(g.queue, batches[:n], fence); err != nil {
			return fmt.Errorf("stream: gathered submission of %d frames: %w", len(got), err)
		}
		batches = batches[n:]
	}
	for i, s := range slots {
		s.onQueue()
		slots[i] = nil
	}
	return nil
}

// fence is a reset fence for a Flush, under g.mu.
func (g *Gather) fence() (*sharedFence, error) {
	if n := len(g.free); n > 0 {
		f := g.free[n-1]
		g.free = g.free[:n-1]
		return f, nil
	}
	fe, err := g.dev.NewFence(false)
	if err != nil {
		return nil, fmt.Errorf("stream: gather: %w", err)
	}
	f := &sharedFence{fence: fe, g: g}
	g.all = append(g.all, f)
	return f, nil
}

// Destroy frees the gather's fences, once the rings that used it are closed (their submissions
// done).
func (g *Gather) Destroy() {
	for _, f := range g.all {
		vk.DestroyFence(g.dev.Device, f.fence, nil)
	}
	g.all, g.free = nil, nil
}
