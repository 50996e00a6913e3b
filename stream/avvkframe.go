package stream

import (
	"errors"
	"fmt"
	"time"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/gpu"
	"github.com/ycbcrkit/ycbcrkit/internal/vkx"
	"github.com/ycbcrkit/ycbcrkit/planes"
)

// Locked is a Foreign frame under its owner's lock for one submission: the AVVkFrame protocol of
// libavutil/hwcontext_vulkan.h, written once for every user (Frame.LoadForeign, videotex). Its
// steps: LockForeign takes the lock just before recording and checks the queue family; Read (or
// Copy) records the barrier that makes the decoder's image readable after the semaphore wait;
// Submit submits the slot waiting on the frame's timeline semaphore at its value and signalling the
// next value, writes back the layout and access the submission left, and unlocks. Unlock, instead
// of Submit, abandons a frame that was not submitted.
type Locked struct {
	// State is the frame as LockForeign read it (image, layout, semaphore and its value).
	State planes.ForeignState

	src    Foreign
	stage  vk.PipelineStageFlags // where the submission waits on the semaphore
	layout vk.ImageLayout        // what the submission leaves
	access vk.AccessFlags
	// pre: the image's last read is in the slot's Pre batch (Ring.Pre), which then signals the
	// semaphore, so that the decoder, waiting on it to decode from this picture, waits for that
	// batch alone.
	pre    bool
	done   bool   // submitted or unlocked
	family uint32 // the toolkit's queue family, which an External image is acquired for
}

// LockForeign takes src's lock and reads its state. The image must be usable on family: FFmpeg
// makes its images CONCURRENT over the families of its device context, EXCLUSIVE only when that
// is one family (hwcontext_vulkan.c, create_frame).
func LockForeign(src Foreign, family uint32) (*Locked, error) {
	st, err := src.Lock()
	if err != nil {
		return nil, fmt.Errorf("stream: foreign frame: %w", err)
	}
	if st.QueueFamily != vk.QueueFamilyIgnored && st.QueueFamily != family {
		src.Unlock()
		return nil, fmt.Errorf("stream: foreign frame: the image belongs to queue family %d (EXCLUSIVE); the toolkit's is %d", st.QueueFamily, family)
	}
	vkx.ForeignImage(st.Image.Image) // the validation layer's view of FFmpeg's images (vkx/messages.c)
	return &Locked{State: st, src: src, family: family}, nil
}

// Read records, on cb, the barrier that leaves the image in layout for access at stage, after the
// submission's wait on the semaphore at the same stage: the decoder's writes are visible to it and
// the layout changes after it (Vulkan spec, "Semaphore Waiting": the wait's second scope). pre says
// cb is the slot's Pre command buffer, holding the image's last read.
func (l *Locked) Read(cb vk.CommandBuffer, layout vk.ImageLayout, access vk.AccessFlags, stage vk.PipelineStageFlags, pre bool) {
	src, dst := uint32(vk.QueueFamilyIgnored), uint32(vk.QueueFamilyIgnored)
	if l.State.External { // the acquisition matching the writing device's release (stream.Relay)
		src, dst = vkx.QueueFamilyExternal, l.family
	}
	vkx.CmdImageBarrier(cb, vkx.ImageBarrier{Image: l.State.Image.Image, From: l.State.Layout, To: layout,
		DstAccess: access, SrcStage: stage, DstStage: stage, SrcFamily: src, DstFamily: dst})
	l.reads(layout, access, stage, pre)
}

// reads says the submission reads the image as Read would have recorded it (a command buffer
// recorded before: Stream.Replay).
func (l *Locked) reads(layout vk.ImageLayout, access vk.AccessFlags, stage vk.PipelineStageFlags, pre bool) {
	l.stage, l.layout, l.access, l.pre = stage, layout, access, pre
}

// Copy records, on cb, the copy of the image's planes into dst; pre says cb is the slot's Pre
// command buffer (Read).
func (l *Locked) Copy(cb vk.CommandBuffer, pre bool, dst *planes.Image) error {
	l.Read(cb, vk.ImageLayoutTransferSrcOptimal, vk.AccessFlags(vk.AccessTransferReadBit), vk.PipelineStageFlags(vk.PipelineStageTransferBit), pre)
	return dst.CopyForeign(cb, l.State.Image)
}

// Submit submits s (Ring.SubmitSplit) with the frame's semaphore wait in the first batch and its
// signal in the batch holding the image's last read, besides waits and signals of s's own batch,
// then writes the frame's new state back and unlocks it. The lock is released whatever happens.
func (l *Locked) Submit(r *Ring, s *Slot, waits, signals []vkx.SubmitSemaphore) error {
	frameWaits, signal := l.points()
	var preSignals []vkx.SubmitSemaphore
	if l.pre {
		preSignals = []vkx.SubmitSemaphore{signal}
	} else {
		signals = append(signals, signal)
	}
	err := r.SubmitSplit(s, frameWaits, preSignals, waits, signals)
	if err == nil {
		l.src.Submitted(l.layout, l.access)
	}
	l.Unlock()
	return err
}

// points are the submission's waits, at Read's stage, on the frame's semaphore at its value and on
// the owner's last unsignalled read (ForeignState.ReadSemaphore), and its signal of the next value.
// The read's wait matters where the submission changes the image's layout while a decoding reads
// it as a reference: a write after a read on another queue, ordered by nothing else.
func (l *Locked) points() (waits []vkx.SubmitSemaphore, signal vkx.SubmitSemaphore) {
	sems, values := pointOf(l.State).semaphores()
	for i := range sems {
		waits = append(waits, vkx.SubmitSemaphore{Semaphore: sems[i], Value: values[i], Stage: l.stage})
	}
	return waits, vkx.SubmitSemaphore{Semaphore: l.State.Semaphore, Value: l.State.Value + 1}
}

// SubmitAlone ends cb, whose commands Read began, and submits it alone on q with fence, waiting on
// the frame's semaphore at its value and signalling the next (a Relay's copy, outside any Ring);
// then writes the frame's new state back and unlocks it, whatever happens.
func (l *Locked) SubmitAlone(q vk.Queue, cb vk.CommandBuffer, fence vk.Fence) error {
	defer l.Unlock()
	if err := vkx.Check(vk.EndCommandBuffer(cb), "vkEndCommandBuffer"); err != nil {
		return err
	}
	waits, signal := l.points()
	err := vkx.QueueSubmitBatches(q, []vkx.Batch{{CB: cb, Waits: waits, Signals: []vkx.SubmitSemaphore{signal}}}, fence)
	if err == nil {
		l.src.Submitted(l.layout, l.access)
	}
	return err
}

// Unlock releases the frame's lock without a submission (after Submit it does nothing).
func (l *Locked) Unlock() {
	if !l.done {
		l.done = true
		l.src.Unlock()
	}
}

// TimelinePoint is a value of a foreign frame's timeline semaphore and, where the owner's last read
// of the frame did not signal it, that read's point (ForeignState.ReadSemaphore): both are reached
// before the frame's next user may change it.
type TimelinePoint struct {
	Semaphore     vk.Semaphore
	Value         uint64
	ReadSemaphore vk.Semaphore // vk.NullSemaphore: none
	ReadValue     uint64
}

// ForeignPoint reads, under src's lock, the point of its timeline semaphore that its next user
// waits on (AVVkFrame.sem_value): as a decoder returns a picture, the value its decoding signals. A
// caller that must not submit behind a decoder's work (the wall: one stream's frame waiting on its
// decoder would hold every stream's pictures on that queue) waits for it on the host first.
func ForeignPoint(src Foreign) (TimelinePoint, error) {
	st, err := src.Lock()
	if err != nil {
		return TimelinePoint{}, fmt.Errorf("stream: foreign frame: %w", err)
	}
	src.Unlock()
	return pointOf(st), nil
}

// pointOf is the timeline point a foreign frame's state says its next user waits for.
func pointOf(st planes.ForeignState) TimelinePoint {
	return TimelinePoint{st.Semaphore, st.Value, st.ReadSemaphore, st.ReadValue}
}

// semaphores are p's semaphores and the values each must reach: the frame's, and the read's where
// there is one (the waits of Locked's submissions, the host's in Reached and Wait).
func (p TimelinePoint) semaphores() ([]vk.Semaphore, []uint64) {
	if p.ReadSemaphore == vk.NullSemaphore {
		return []vk.Semaphore{p.Semaphore}, []uint64{p.Value}
	}
	return []vk.Semaphore{p.Semaphore, p.ReadSemaphore}, []uint64{p.Value, p.ReadValue}
}

// Reached says, without waiting, whether the semaphores have reached p.
func (p TimelinePoint) Reached(dev *gpu.Device) (bool, error) {
	s, v := p.semaphores()
	return vkx.SemaphoresReached(dev.Device, s, v)
}

// Wait waits on the host, at most timeout, until the semaphores reach p.
func (p TimelinePoint) Wait(dev *gpu.Device, timeout time.Duration) error {
	s, v := p.semaphores()
	return vkx.WaitSemaphores(dev.Device, s, v, timeout)
}

// TryLocker is a Foreign whose lock can be tried without waiting (decode.ForeignFrame: FFmpeg's
// decoder holds a picture's lock while it records a decoding that reads it, until that submission
// returns, which on a busy device takes tens of milliseconds).
type TryLocker interface {
	TryLock() (st planes.ForeignState, ok bool, err error)
}

// Held is a Foreign taken under its lock ahead of its use (TryHold), so that whoever would wait
// for the lock can first do something else: Frame.LoadForeign then takes it over (its Lock returns
// the state read under the lock, without locking again), or Abandon releases it.
type Held struct {
	src    Foreign
	st     planes.ForeignState
	handed bool // Lock or Abandon was called: the lock is no longer Held's to release
}

// TryHold takes src's lock without waiting where src is a TryLocker (ok false: another thread holds
// it, and nothing is locked), else waits for it.
func TryHold(src Foreign) (h *Held, ok bool, err error) {
	var st planes.ForeignState
	if t, can := src.(TryLocker); can {
		st, ok, err = t.TryLock()
	} else {
		st, err = src.Lock()
		ok = err == nil
	}
	if !ok || err != nil {
		if err != nil {
			err = fmt.Errorf("stream: foreign frame: %w", err)
		}
		return nil, false, err
	}
	return &Held{src: src, st: st}, true, nil
}

// State is the frame as read under the lock.
func (h *Held) State() planes.ForeignState { return h.st }

// Point is the point of the frame's semaphore that its next user waits on (ForeignPoint).
func (h *Held) Point() TimelinePoint { return pointOf(h.st) }

// Lock hands the held lock over: it returns the state read under it. Only once.
func (h *Held) Lock() (planes.ForeignState, error) {
	if h.handed {
		return planes.ForeignState{}, errors.New("stream: a held frame's lock was handed over already")
	}
	h.handed = true
	return h.st, nil
}

// Submitted records the submission made under the lock (Foreign).
func (h *Held) Submitted(layout vk.ImageLayout, access vk.AccessFlags) {
	h.src.Submitted(layout, access)
}

// Unlock releases the lock handed over by Lock.
func (h *Held) Unlock() { h.src.Unlock() }

// Abandon releases the lock unless Lock handed it over.
func (h *Held) Abandon() {
	if !h.handed {
		h.handed = true
		h.src.Unlock()
	}
}
