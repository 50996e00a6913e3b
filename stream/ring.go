package stream

import (
	"fmt"
	"sync"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/gpu"
	"github.com/ycbcrkit/ycbcrkit/internal/vkx"
)

// Slot is one frame in flight: its command buffer, the fence its submission signals, a semaphore
// for a swapchain's acquire, and what to release once that fence has signalled.
type Slot struct {
	Index   int
	CB      vk.CommandBuffer
	Fence   vk.Fence
	Acquire vk.Semaphore
	// Pre, once Ring.Pre made it, is a second command buffer submitted ahead of CB as a batch of
	// its own (Ring.SubmitSplit).
	Pre vk.CommandBuffer

	preBegun bool     // Pre is recording this frame's commands
	pending  bool     // submitted, and its fence not yet waited for
	retired  []func() // run once Fence has signalled, in order
	// gathered: its batches wait in a Gather for its Flush; shared, after that Flush, is the fence
	// its submission signals instead of Fence.
	gathered *Gather
	shared   *sharedFence
}

// fence is the fence s's submission signals.
func (s *Slot) fence() vk.Fence {
	if s.shared != nil {
		return s.shared.fence
	}
	return s.Fence
}

// Retire hands f to s: f runs once the GPU has finished s's current (or, before it is submitted,
// next) submission. Decoded frames, imports and anything else that submission reads are released
// so, never by waiting for the whole device.
func (s *Slot) Retire(f func()) { s.retired = append(s.retired, f) }

func (s *Slot) release() {
	fs := s.retired
	s.retired = nil
	for _, f := range fs {
		f()
	}
}

// fences is how a Ring learns that a slot's submission is done: the device's fences, or a test's.
type fences interface {
	wait(*Slot) error // waits for the slot's fence without a time limit
	signalled(*Slot) bool
	reset(*Slot) error
}

type deviceFences struct{ dev *gpu.Device }

func (d deviceFences) wait(s *Slot) error {
	if g := s.gathered; g != nil { // recorded, not yet submitted
		if err := g.Flush(); err != nil {
			return err
		}
	}
	if err := vkx.Check(vk.WaitForFences(d.dev.Device, 1, []vk.Fence{s.fence()}, vk.True, ^uint64(0)), "vkWaitForFences"); err != nil {
		return err
	}
	if f := s.shared; f != nil {
		f.done = true // the other slots on it need not ask
	}
	return nil
}

// signalled needs no external synchronization (vkGetFenceStatus), so Collect may run beside a
// decoder goroutine that creates objects.
// Through Check: a lost device (or one a test makes look lost, vkx.InjectFault) reports no fence
// as signalled, so the next wait on it returns the loss.
func (d deviceFences) signalled(s *Slot) bool {
	if s.gathered != nil {
		return false
	}
	if f := s.shared; f != nil {
		return f.signalled(d.dev)
	}
	return vkx.Check(vk.GetFenceStatus(d.dev.Device, s.Fence), "vkGetFenceStatus") == nil
}

func (d deviceFences) reset(s *Slot) error {
	if f := s.shared; f != nil { // the shared fence is reset once every slot it covers is done
		s.shared = nil
		return f.release(d.dev)
	}
	return vkx.Check(vk.ResetFences(d.dev.Device, 1, []vk.Fence{s.Fence}), "vkResetFences")
}

// Ring is the ring of slots a stream of pictures goes through, and the lifetimes of what they use:
// each object is retired on the fence of the last submission that may read it (as Granite's
// vulkan/device.hpp does per frame), so the library waits for the GPU only in Close.
type Ring struct {
	dev    *gpu.Device
	opts   RingOptions
	queue  vk.Queue // opts.Queue, or the device's
	fences fences
	gather *Gather // SetGather
	slots  []*Slot
	next   int
	last   *Slot // the slot submitted most recently
	// Timer, if set, also times each slot's Pre batch (gpu.GPUTimer.StartPre): the stream's Timer,
	// so that a frame's GPU time counts the copy or conversion of a hardware-decoded picture.
	Timer *gpu.GPUTimer
}

// RingOptions tune NewRingWith. The zero value is the toolkit's own device: submissions from the
// calling goroutine, and Close may wait for the whole device.
type RingOptions struct {
	// QueueLock, if set, is held around each vkQueueSubmit: for an engine's queue that other
	// goroutines submit to under that lock (Vulkan requires external synchronization of a queue).
	QueueLock sync.Locker
	// Borrowed says the device belongs to an engine (gpu.Wrap): Close then waits on the ring's own
	// fences, never with vkDeviceWaitIdle, whose host synchronization covers every queue of the
	// device (Vulkan spec, vkDeviceWaitIdle: "Host access to all VkQueue objects created from
	// device must be externally synchronized"), which the engine may be using.
	Borrowed bool
	// Queue is the queue the ring submits to, one of the device's Queues (gpu.Options.Queues); nil
	// is the device's Queue. Streams on different queues run side by side on the GPU; whatever one
	// reads of another's writes needs its own synchronization (a wall waits for every stream's
	// fences before it reads the canvas back).
	Queue vk.Queue
}

// NewRing makes n slots on dev (n ≥ 1).
func NewRing(dev *gpu.Device, n int) (*Ring, error) { return NewRingWith(dev, n, RingOptions{}) }

// NewRingWith makes n slots on dev (n ≥ 1), tuned by opts.
func NewRingWith(dev *gpu.Device, n int, opts RingOptions) (*Ring, error) {
	if n < 1 {
		return nil, fmt.Errorf("stream: a ring of %d slots", n)
	}
	r := &Ring{dev: dev, opts: opts, queue: opts.Queue, fences: deviceFences{dev}}
	if r.queue == nil {
		r.queue = dev.Queue
	}
	for i := 0; i < n; i++ {
		s := &Slot{Index: i}
		r.slots = append(r.slots, s)
		var err error
		if s.CB, err = dev.NewCommandBuffer(); err == nil {
			if s.Fence, err = dev.NewFence(false); err == nil {
				s.Acquire, err = dev.NewSemaphore()
			}
		}
		if err != nil {
			r.Close()
			return nil, fmt.Errorf("stream: slot %d: %w", i, err)
		}
	}
	return r, nil
}

// SetQueue moves the ring to q (nil: the device's Queue) for its next submissions, once every
// submission made so far is done (Drain): submissions on two queues are not ordered.
func (r *Ring) SetQueue(q vk.Queue) error {
	if q == nil {
		q = r.dev.Queue
	}
	if q == r.queue {
		return nil
	}
	if err := r.Drain(); err != nil {
		return err
	}
	r.queue = q
	return nil
}

// Len is the number of slots.
func (r *Ring) Len() int { return len(r.slots) }

// Slot is slot i.
func (r *Ring) Slot(i int) *Slot { return r.slots[i] }

// Ready says Next would not wait: the next slot's previous submission, if any, is done. A loop that
// serves many streams (a wall of videos) skips a stream whose slot is still busy instead of
// stalling the others behind it.
func (r *Ring) Ready() bool {
	s := r.slots[r.next]
	return !s.pending || r.fences.signalled(s)
}

// Peek is the slot Next returns next (a swapchain acquires with its Acquire semaphore first).
func (r *Ring) Peek() *Slot { return r.slots[r.next] }

// settle waits for s's submission, if any, and releases what was retired on it.
func (r *Ring) settle(s *Slot) error {
	if s.pending {
		if err := r.fences.wait(s); err != nil {
			return fmt.Errorf("stream: %w", err)
		}
		if err := r.fences.reset(s); err != nil {
			return fmt.Errorf("stream: %w", err)
		}
		s.pending = false
	}
	s.release()
	return nil
}

// Wait waits for s's previous submission, out of turn, and releases what it held: for a benchmark
// that rotates over sets of images of its own.
func (r *Ring) Wait(s *Slot) error { return r.settle(s) }

// WaitPeek waits until the next slot's previous submission is done (its Acquire semaphore is then
// free to be signalled again) and releases what it held.
func (r *Ring) WaitPeek() error { return r.settle(r.slots[r.next]) }

// Next takes the next slot once its previous submission is done, releases what that submission
// held, and begins recording its command buffer.
func (r *Ring) Next() (*Slot, error) {
	s, err := r.take()
	if err != nil {
		return nil, err
	}
	if s.CB != nil {
		if err := gpu.Begin(s.CB); err != nil {
			return nil, fmt.Errorf("stream: %w", err)
		}
	}
	return s, nil
}

// take takes the next slot once its previous submission is done, releasing what that held, without
// beginning its command buffer (Stream.Replay submits command buffers of its own on it).
func (r *Ring) take() (*Slot, error) {
	s := r.slots[r.next]
	r.next = (r.next + 1) % len(r.slots)
	if err := r.settle(s); err != nil {
		return nil, err
	}
	s.preBegun = false
	return s, nil
}

// Submit ends s's command buffer and submits it, waiting on wait (at colour output: a swapchain's
// acquire) and signalling signal (either may be null) and s's fence. It and SubmitSplit are the
// ring's two ways to submit: this one for a frame's binary semaphores (the per-frame path),
// SubmitSplit for timeline semaphores, other wait stages and a Pre batch.
func (r *Ring) Submit(s *Slot, wait, signal vk.Semaphore) error {
	return r.submitOne(s, wait, vk.PipelineStageFlags(vk.PipelineStageColorAttachmentOutputBit), signal)
}

// submitOne ends s's command buffer and submits it alone with at most one binary semaphore each way
// (one C call, no VkTimelineSemaphoreSubmitInfo, which a device without timeline semaphores
// rejects: VUID-VkSubmitInfo-pNext-pNext).
func (r *Ring) submitOne(s *Slot, wait vk.Semaphore, stage vk.PipelineStageFlags, signal vk.Semaphore) error {
	if err := vkx.Check(vk.EndCommandBuffer(s.CB), "vkEndCommandBuffer"); err != nil {
		return fmt.Errorf("stream: %w", err)
	}
	if g := r.gather; g != nil && g.queue == r.queue {
		var waits, signals []vkx.SubmitSemaphore
		if wait != vk.NullSemaphore {
			waits = []vkx.SubmitSemaphore{{Semaphore: wait, Stage: stage}}
		}
		if signal != vk.NullSemaphore {
			signals = []vkx.SubmitSemaphore{{Semaphore: signal}}
		}
		g.add(r, s, []vkx.Batch{{CB: s.CB, Waits: waits, Signals: signals}})
		return nil
	}
	if l := r.opts.QueueLock; l != nil {
		l.Lock()
		defer l.Unlock()
	}
	// Through vkx: vulkan-go's vkQueueSubmit wrapper may free its arguments mid-call.
	if err := vkx.QueueSubmit(r.queue, s.CB, wait, stage, signal, s.Fence); err != nil {
		return fmt.Errorf("stream: %w", err)
	}
	r.submitted(s)
	return nil
}

// Pre begins and returns s's second command buffer (made on first use): what is recorded there is
// submitted ahead of s's own command buffer by SubmitSplit, as a batch whose semaphores are
// signalled as soon as that batch is done. A decoded frame's copy goes there, so that the decoder,
// waiting on the frame's semaphore to decode the next picture from it, waits for the copy and not
// for the whole frame's conversion and drawing.
func (r *Ring) Pre(s *Slot) (vk.CommandBuffer, error) {
	if err := r.makePre(s); err != nil {
		return nil, err
	}
	if err := gpu.Begin(s.Pre); err != nil {
		return nil, fmt.Errorf("stream: %w", err)
	}
	s.preBegun = true
	r.Timer.StartPre(s.Pre, s.Index)
	return s.Pre, nil
}

// makePre makes s's Pre command buffer unless it has one.
func (r *Ring) makePre(s *Slot) error {
	if s.Pre != nil {
		return nil
	}
	cb, err := r.dev.NewCommandBuffer()
	if err != nil {
		return fmt.Errorf("stream: slot %d: %w", s.Index, err)
	}
	s.Pre = cb
	return nil
}

// SubmitSplit ends s's command buffers and submits, in one vkQueueSubmit, Pre (Ring.Pre) waiting on
// preWaits and signalling preSignals, then CB waiting on waits and signalling signals and s's fence
// (whose signal covers both batches: Vulkan spec, "Fences", a vkQueueSubmit fence's first scope
// holds every batch of the call). Without Pre begun it submits CB alone, waiting on and signalling
// all the semaphores. They may be binary or timeline semaphores.
func (r *Ring) SubmitSplit(s *Slot, preWaits, preSignals, waits, signals []vkx.SubmitSemaphore) error {
	if !s.preBegun {
		waits, signals = append(preWaits, waits...), append(preSignals, signals...)
		if len(waits) <= 1 && len(signals) <= 1 && binary(waits) && binary(signals) {
			wait, stage, signal := vk.NullSemaphore, vk.PipelineStageFlags(0), vk.NullSemaphore
			if len(waits) == 1 {
				wait, stage = waits[0].Semaphore, waits[0].Stage
			}
			if len(signals) == 1 {
				signal = signals[0].Semaphore
			}
			return r.submitOne(s, wait, stage, signal)
		}
		return r.submitBatches(s, []vkx.Batch{{CB: s.CB, Waits: waits, Signals: signals}})
	}
	s.preBegun = false
	r.Timer.StopPre(s.Pre, s.Index)
	return r.submitBatches(s, []vkx.Batch{{CB: s.Pre, Waits: preWaits, Signals: preSignals}, {CB: s.CB, Waits: waits, Signals: signals}})
}

// binary says no semaphore of ss has a timeline value. The ring's timeline submissions (a foreign
// frame's, Locked.Submit) always signal at a value above 0, since a timeline's values only grow, so
// a submission whose values are all 0 has only binary semaphores.
func binary(ss []vkx.SubmitSemaphore) bool {
	for _, x := range ss {
		if x.Value != 0 {
			return false
		}
	}
	return true
}

// submitBatches ends each batch's command buffer and submits the batches in one vkQueueSubmit with
// s's fence, under the ring's queue lock if it has one.
func (r *Ring) submitBatches(s *Slot, batches []vkx.Batch) error {
	for _, b := range batches {
		if err := vkx.Check(vk.EndCommandBuffer(b.CB), "vkEndCommandBuffer"); err != nil {
			return fmt.Errorf("stream: %w", err)
		}
	}
	return r.submitEnded(s, batches)
}

// submitEnded submits batches whose command buffers are ended, as submitBatches.
func (r *Ring) submitEnded(s *Slot, batches []vkx.Batch) error {
	if g := r.gather; g != nil && g.queue == r.queue {
		g.add(r, s, batches)
		return nil
	}
	if l := r.opts.QueueLock; l != nil {
		l.Lock()
		defer l.Unlock()
	}
	if err := vkx.QueueSubmitBatches(r.queue, batches, s.Fence); err != nil {
		return fmt.Errorf("stream: %w", err)
	}
	r.submitted(s)
	return nil
}

func (r *Ring) submitted(s *Slot) {
	s.pending = true
	r.last = s
}

// RetireLast hands f to the slot submitted last: its fence covers every command submitted before it
// on the queue (Vulkan spec, "Fences": a vkQueueSubmit fence signal's first synchronization scope
// includes all commands earlier in submission order), so f runs once nothing submitted so far can
// use what it frees. With nothing in flight f runs now.
func (r *Ring) RetireLast(f func()) {
	if r.last == nil || !r.last.pending {
		f()
		return
	}
	r.last.Retire(f)
}

// Collect releases what was retired on slots whose submissions are done, without waiting.
func (r *Ring) Collect() {
	for _, s := range r.slots {
		if s.pending && r.fences.signalled(s) {
			if r.fences.reset(s) == nil {
				s.pending = false
				s.release()
			}
		} else if !s.pending {
			s.release()
		}
	}
}

// Pending counts the objects handed to slots and not yet released.
func (r *Ring) Pending() int {
	n := 0
	for _, s := range r.slots {
		n += len(s.retired)
	}
	return n
}

// Drain waits for every slot's submission, oldest first, and releases everything retired. It waits
// on fences, not on the device: other users of a shared queue are not waited for.
func (r *Ring) Drain() error {
	var first error
	for i := range r.slots {
		if err := r.settle(r.slots[(r.next+i)%len(r.slots)]); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// Close waits for the device and destroys the slots after releasing what was retired on them. It is
// the one place the ring waits for the whole device rather than its fences: a submission that
// reported an error (a lost device, an injected fault) may still run, and its fence says nothing.
// On a borrowed device (RingOptions.Borrowed) it waits on the slots' fences instead (Drain); its
// error is Drain's.
func (r *Ring) Close() error {
	var err error
	if r.opts.Borrowed {
		err = r.Drain()
	} else if r.dev.Device != nil {
		vkx.DeviceWaitIdle(r.dev.Device)
	}
	for _, s := range r.slots {
		s.pending = false
		s.release()
	}
	for _, s := range r.slots {
		if s.CB != nil {
			r.dev.FreeCommandBuffer(s.CB)
		}
		if s.Pre != nil {
			r.dev.FreeCommandBuffer(s.Pre)
		}
		if s.Fence != vk.NullFence {
			vk.DestroyFence(r.dev.Device, s.Fence, nil)
		}
		if s.Acquire != vk.NullSemaphore {
			vk.DestroySemaphore(r.dev.Device, s.Acquire, nil)
		}
	}
	r.slots = nil
	return err
}
