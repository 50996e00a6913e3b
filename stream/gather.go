package stream

import (
	"fmt"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/gpu"
	"github.com/ycbcrkit/ycbcrkit/internal/vkx"
)

// Gather collects the submissions of several rings on one queue and submits them together in one
// vkQueueSubmit (Flush), in the order they were made: a wall's display step converts a picture for
// each of many streams, and one call with a batch per frame costs the driver one submission's
// overhead instead of one per stream. The batches keep their own semaphores; one fence, shared by
// the slots of a Flush, signals when all are done (a vkQueueSubmit fence covers every batch of the
// call: Vulkan spec, "Fences"), so a slot of a gathered submission is free once the whole step's
// work is: the rings need as many slots as before, their streams' GPU work being one step long.
type Gather struct {
	dev     *gpu.Device
	queue   vk.Queue
	batches []vkx.Batch
	slots   []*Slot
	free    []*sharedFence // reset, ready for a Flush
	all     []*sharedFence
	round   int // Poll's count: a fence seen unsignalled is asked again in the next round
	queries int // vkGetFenceStatus calls (tests)
}

// sharedFence is one Flush's fence and the count of slots that have not yet settled on it.
type sharedFence struct {
	fence vk.Fence
	refs  int
	g     *Gather
	done  bool // seen signalled
	asked int  // the round it was last seen unsignalled in (+1: 0 means never)
}

// signalled says whether the fence has signalled, asking the driver at most once a round for all
// the slots that share it: a wall's step looks at each stream's slots, and on NVIDIA's driver each
// vkGetFenceStatus takes the device-wide lock that the decoding threads contend for
// (docs/performance.md, "Live walls").
func (f *sharedFence) signalled(dev *gpu.Device) bool {
	if f.done || f.asked == f.g.round+1 {
		return f.done
	}
	f.g.queries++
	// Through Check: a lost device reports no fence as signalled (deviceFences.signalled).
	if vkx.Check(vk.GetFenceStatus(dev.Device, f.fence), "vkGetFenceStatus") == nil {
		f.done = true
	} else {
		f.asked = f.g.round + 1
	}
	return f.done
}

// release drops one slot's hold; the last one resets the fence for the next Flush.
func (f *sharedFence) release(dev *gpu.Device) error {
	if f.refs--; f.refs > 0 {
		return nil
	}
	if err := vkx.Check(vk.ResetFences(dev.Device, 1, []vk.Fence{f.fence}), "vkResetFences"); err != nil {
		return err
	}
	f.done, f.asked = false, 0
	f.g.free = append(f.g.free, f)
	return nil
}

// Poll begins a round: the shared fences' states are asked again (once each) by the next looks at
// the slots (Ring.Collect, Ring.Ready). Flush begins one too.
func (g *Gather) Poll() { g.round++ }

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

// add takes s's batches, their command buffers already ended.
func (g *Gather) add(r *Ring, s *Slot, batches []vkx.Batch) {
	g.batches = append(g.batches, batches...)
	g.slots = append(g.slots, s)
	s.gathered = g
	r.submitted(s)
}

// Pending is how many submissions wait for Flush.
func (g *Gather) Pending() int { return len(g.slots) }

// Flush submits what was gathered in one vkQueueSubmit (split into calls of at most
// VKX_MAX_BATCHES batches).
func (g *Gather) Flush() error {
	if len(g.slots) == 0 {
		return nil
	}
	f, err := g.fence()
	if err != nil {
		return err
	}
	g.Poll()
	batches, slots := g.batches, g.slots
	g.batches, g.slots = g.batches[:0], g.slots[:0]
	for _, s := range slots {
		s.gathered, s.shared = nil, f
	}
	f.refs = len(slots)
	const most = 256 // VKX_MAX_BATCHES
	for len(batches) > 0 {
		n := min(len(batches), most)
		fence := vk.NullFence
		if n == len(batches) {
			fence = f.fence // the last call's fence covers the earlier calls' work too
		}
		if err := vkx.QueueSubmitBatches(g.queue, batches[:n], fence); err != nil {
			return fmt.Errorf("stream: gathered submission of %d frames: %w", len(slots), err)
		}
		batches = batches[n:]
	}
	return nil
}

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
