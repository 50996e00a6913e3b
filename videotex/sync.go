package videotex

import (
	"fmt"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/internal/vkx"
)

// ErrDeviceLost is what every error caused by VK_ERROR_DEVICE_LOST matches (errors.Is): from
// Acquire, Step, Discard, SignalTimeline, ReleaseAfter and Close. The device is then unusable
// (Vulkan spec, "Lost Device"): the engine recovers by closing every texture (Close returns at once:
// a lost device's fences count as signalled), closing the Engine, destroying and recreating its
// device, and opening the textures again, playing from the media time it last showed.
var ErrDeviceLost = vkx.ErrDeviceLost

// DeviceWaitIdle is vkDeviceWaitIdle for an engine whose device textures use. Vulkan makes that
// call externally synchronized with every queue of the device (vkDeviceWaitIdle, "Host
// Synchronization"), and while a texture is open other threads submit: FFmpeg's, to the engine's
// queue under dev.QueueLock and to the decode queues (HWDecode) under the toolkit's own lock, which
// the engine cannot take. A plain vkDeviceWaitIdle then races them (the validation layer's
// UNASSIGNED-Threading-MultipleThreads in their vkQueueSubmit2). DeviceWaitIdle holds
// dev.QueueLock and every queue lock of the toolkit's around the call: nothing is submitted
// meanwhile. The caller must not hold dev.QueueLock. An engine that only needs its own work done
// can instead call vkQueueWaitIdle on its queue while holding its lock. With
// dev.InternallySynchronizedQueues it takes no lock: Vulkan requires none for such queues.
func DeviceWaitIdle(dev EngineDevice) error {
	if dev.Device == nil {
		return fmt.Errorf("videotex: device wait idle: no device")
	}
	if err := vkx.Load(); err != nil {
		return fmt.Errorf("videotex: device wait idle: %w", err)
	}
	locks := queueLocksOf(dev)
	if l := locks.WaitIdle; l != nil {
		l.Lock()
		defer l.Unlock()
	}
	wait := vkx.DeviceWaitIdle // under every toolkit queue lock
	if !locks.WaitIdleAll {
		wait = vkx.DeviceWaitIdleUnlocked
	}
	if err := vkx.Check(wait(dev.Device), "vkDeviceWaitIdle"); err != nil {
		return fmt.Errorf("videotex: %w", err)
	}
	return nil
}

// SignalTimeline hands the frame's acquire over to a timeline semaphore of the engine's: the
// toolkit waits on the frame's binary semaphore (Wait) on its queue and signals sem at value (above
// 0, above every value sem had), so the engine's submission that samples the frame waits on
// (sem, value) at WaitStage instead of on Wait. Call it at most once per frame, before the engine
// submits that wait; the device needs the timelineSemaphore feature. It submits to the toolkit's
// queue, so it follows Acquire's queue rule. The frame is then given back with Done, ReleaseAfter
// or, if the engine did not sample it, Discard (which then submits nothing).
func (f *Frame) SignalTimeline(sem vk.Semaphore, value uint64) error {
	if sem == vk.NullSemaphore || value == 0 {
		return fmt.Errorf("videotex: signal timeline: a timeline semaphore and a value above 0 are needed")
	}
	t := f.t
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed || t.closing {
		return ErrClosed
	}
	if f.given || f.handed {
		return fmt.Errorf("videotex: signal timeline: frame %d was given back or handed over already", f.Index)
	}
	sl, err := t.ring.Next()
	if err != nil {
		return fmt.Errorf("videotex: signal timeline: %w", err)
	}
	wait := []vkx.SubmitSemaphore{{Semaphore: f.Wait, Stage: vk.PipelineStageFlags(vk.PipelineStageAllCommandsBit)}}
	signal := []vkx.SubmitSemaphore{{Semaphore: sem, Value: value}}
	if err := t.ring.SubmitSplit(sl, nil, nil, wait, signal); err != nil {
		return fmt.Errorf("videotex: signal timeline: %w", err)
	}
	f.handed = true
	return nil
}

// ReleaseAfter gives the frame back once sem is signalled: a binary semaphore (value 0) or a
// timeline semaphore at value, which the engine's submission that sampled the frame signals when
// it is done. The release then stays on the GPU: the toolkit submits a wait on sem to its queue,
// and reuses the image once that submission's fence has signalled. Call it after submitting the
// signal (a binary semaphore's wait must follow its signal). A binary sem is the engine's again
// for signals submitted later to the toolkit's queue (which executes this wait first); destroy it
// only after the texture is closed. It submits to the toolkit's queue, so it follows Acquire's
// queue rule. A second give-back, or one after Close, does nothing.
func (f *Frame) ReleaseAfter(sem vk.Semaphore, value uint64) error {
	if sem == vk.NullSemaphore {
		return fmt.Errorf("videotex: release after: no semaphore")
	}
	t := f.t
	t.mu.Lock()
	defer t.mu.Unlock()
	if f.given || t.closed {
		return nil
	}
	sl, err := t.ring.Next()
	if err != nil {
		return fmt.Errorf("videotex: release after: %w", err)
	}
	wait := []vkx.SubmitSemaphore{{Semaphore: sem, Value: value, Stage: vk.PipelineStageFlags(vk.PipelineStageAllCommandsBit)}}
	if err := t.ring.SubmitSplit(sl, nil, nil, wait, nil); err != nil {
		return fmt.Errorf("videotex: release after: %w", err)
	}
	f.given = true
	p, own := f.p, f.Wait
	// Run under t.mu (the ring's retired functions run in Collect, Next and Drain, all under it).
	sl.Retire(func() {
		t.sems = append(t.sems, own) // waited on by the engine (or SignalTimeline) before sem
		if !t.closed {
			p.refs--
			t.tryFree(p)
		}
	})
	return nil
}
