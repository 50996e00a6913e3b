package vkx

/*
#include "vkx.h"
*/
import "C"

import (
	"fmt"
	"os"
	"time"
	"unsafe"

	vk "github.com/vulkan-go/vulkan"
)

// MaxQueues is the most queues of one family the toolkit creates and locks (VKX_MAX_QUEUES).
const MaxQueues uint32 = C.VKX_MAX_QUEUES

// QueueSubmit submits one command buffer, waiting on wait at stage (if wait is not null) and
// signalling signal (if not null) and fence.
func QueueSubmit(q vk.Queue, cb vk.CommandBuffer, wait vk.Semaphore, stage vk.PipelineStageFlags, signal vk.Semaphore, fence vk.Fence) error {
	r := C.vkx_queue_submit(cQueue(q), cCommandBuffer(cb), *(*C.VkSemaphore)(unsafe.Pointer(&wait)),
		C.VkPipelineStageFlags(stage), *(*C.VkSemaphore)(unsafe.Pointer(&signal)), *(*C.VkFence)(unsafe.Pointer(&fence)))
	return Check(vk.Result(r), "vkQueueSubmit")
}

// WaitSemaphore waits until the timeline semaphore s reaches value, at most timeout (vkWaitSemaphores;
// VK_TIMEOUT comes back as an error naming it).
func WaitSemaphore(dev vk.Device, s vk.Semaphore, value uint64, timeout time.Duration) error {
	return WaitSemaphores(dev, []vk.Semaphore{s}, []uint64{value}, timeout)
}

// WaitSemaphores waits until every timeline semaphore s[i] reaches values[i] (at most 8), at most
// timeout, in one vkWaitSemaphores.
func WaitSemaphores(dev vk.Device, s []vk.Semaphore, values []uint64, timeout time.Duration) error {
	p, err := timelinePoints(s, values)
	if err != nil {
		return err
	}
	r := C.vkx_wait_semaphores(cDevice(dev), p, C.uint64_t(timeout.Nanoseconds()))
	return Check(vk.Result(r), "vkWaitSemaphores")
}

// timelinePoints are s and values as C points (1 to 8).
func timelinePoints(s []vk.Semaphore, values []uint64) (p C.VkxPoints, err error) {
	if len(s) == 0 || len(s) != len(values) || len(s) > len(p.s) {
		return p, Check(vk.ErrorInitializationFailed, fmt.Sprintf("vkx: %d semaphores, %d values (1 to 8)", len(s), len(values)))
	}
	for i := range s {
		p.s[i], p.v[i] = *(*C.VkSemaphore)(unsafe.Pointer(&s[i])), C.uint64_t(values[i])
	}
	p.n = C.uint32_t(len(s))
	return p, nil
}

// SignalSemaphore sets the timeline semaphore s to value from the host (vkSignalSemaphore): a
// test's stand-in for work on the GPU.
func SignalSemaphore(dev vk.Device, s vk.Semaphore, value uint64) error {
	r := C.vkx_signal_semaphore(cDevice(dev), *(*C.VkSemaphore)(unsafe.Pointer(&s)), C.uint64_t(value))
	return Check(vk.Result(r), "vkSignalSemaphore")
}

// NewTimelineSemaphore makes a timeline semaphore at initial (the device needs the
// timelineSemaphore feature); destroy it with vk.DestroySemaphore.
func NewTimelineSemaphore(dev vk.Device, initial uint64) (vk.Semaphore, error) {
	var s C.VkSemaphore
	if err := Check(vk.Result(C.vkx_create_timeline(cDevice(dev), C.uint64_t(initial), &s)), "vkCreateSemaphore"); err != nil {
		return vk.NullSemaphore, err
	}
	return *(*vk.Semaphore)(unsafe.Pointer(&s)), nil
}

// SemaphoresReached says whether each timeline semaphore s[i] has reached values[i], without
// waiting: by reading their counters (vkGetSemaphoreCounterValue), or where YCBCRKIT_REACHED_WAIT=1
// by one vkWaitSemaphores of all with a zero timeout (an A/B toggle: the wall asks this of every
// held picture on every step, a fifth of its time on an H200 with one wait call a semaphore, row
// prof46).
func SemaphoresReached(dev vk.Device, s []vk.Semaphore, values []uint64) (bool, error) {
	p, err := timelinePoints(s, values)
	if err != nil {
		return false, err
	}
	r := vk.Result(C.vkx_semaphores_reached(cDevice(dev), p, C.int(reachedWait)))
	if r == vk.Timeout {
		return false, nil
	}
	return r == vk.Success, Check(r, "vkx: semaphores reached")
}

// reachedWait is YCBCRKIT_REACHED_WAIT=1 (SemaphoresReached).
var reachedWait = func() int {
	if os.Getenv("YCBCRKIT_REACHED_WAIT") == "1" {
		return 1
	}
	return 0
}()

// SubmitSemaphore is one semaphore of a submission: a binary one (Value ignored) or a timeline one
// at Value. Stage is where a wait takes effect (ignored for signals).
type SubmitSemaphore struct {
	Semaphore vk.Semaphore
	Value     uint64
	Stage     vk.PipelineStageFlags
}

// Batch is one command buffer of a submission with the semaphores it waits on and signals.
type Batch struct {
	CB      vk.CommandBuffer
	Waits   []SubmitSemaphore
	Signals []SubmitSemaphore
}

// QueueSubmitBatches submits the batches in one vkQueueSubmit, in order, and fence, under the queue's
// lock (at most VKX_MAX_BATCHES batches of 8 semaphores each way: a wall's display step submits
// every stream's frame at once); binary or timeline semaphores
// (VkTimelineSemaphoreSubmitInfo, chained only when a Value is set: a submission of binary
// semaphores alone needs no timeline support).
func QueueSubmitBatches(q vk.Queue, batches []Batch, fence vk.Fence) error {
	if len(batches) == 0 || len(batches) > C.VKX_MAX_BATCHES {
		return Check(vk.ErrorInitializationFailed, fmt.Sprintf("vkQueueSubmit (%d batches: 1 to %d)", len(batches), C.VKX_MAX_BATCHES))
	}
	var small [2]C.VkxBatch // the usual case (a frame and its Pre batch) without an allocation
	bs := small[:]
	if len(batches) > len(small) {
		bs = make([]C.VkxBatch, len(batches))
	}
	for i, b := range batches {
		c := &bs[i]
		if len(b.Waits) > len(c.wait) || len(b.Signals) > len(c.signal) {
			return Check(vk.ErrorInitializationFailed, "vkQueueSubmit (more than 8 semaphores)")
		}
		c.cb = cCommandBuffer(b.CB)
		c.nwait, c.nsignal = C.uint32_t(len(b.Waits)), C.uint32_t(len(b.Signals))
		for k, w := range b.Waits {
			c.wait[k], c.wait_value[k], c.stage[k] = *(*C.VkSemaphore)(unsafe.Pointer(&w.Semaphore)), C.uint64_t(w.Value), C.VkPipelineStageFlags(w.Stage)
		}
		for k, s := range b.Signals {
			c.signal[k], c.signal_value[k] = *(*C.VkSemaphore)(unsafe.Pointer(&s.Semaphore)), C.uint64_t(s.Value)
		}
	}
	r := C.vkx_queue_submit_batches(cQueue(q), &bs[0], C.uint32_t(len(batches)), *(*C.VkFence)(unsafe.Pointer(&fence)))
	return Check(vk.Result(r), "vkQueueSubmit")
}

// QueuePresent queues swapchain image index for display once wait (if not null) is signalled,
// under the queue's lock; the result is vkQueuePresentKHR's (VK_SUBOPTIMAL_KHR and
// VK_ERROR_OUT_OF_DATE_KHR are the caller's to handle).
func QueuePresent(q vk.Queue, sc vk.Swapchain, index int, wait vk.Semaphore) vk.Result {
	return vk.Result(C.vkx_queue_present(cQueue(q), *(*C.VkSwapchainKHR)(unsafe.Pointer(&sc)), C.uint32_t(index), cSemaphore(wait)))
}

// RegisterQueue names q's family and index, so that the toolkit's submissions to q take the lock
// FFmpeg takes by (family, index) through AVVulkanDeviceContext.lock_queue.
func RegisterQueue(q vk.Queue, family, index uint32) {
	C.vkx_queue_register(*(*C.VkQueue)(unsafe.Pointer(&q)), C.uint32_t(family), C.uint32_t(index))
}

// UnregisterQueue forgets q, before its device is destroyed.
func UnregisterQueue(q vk.Queue) { C.vkx_queue_unregister(*(*C.VkQueue)(unsafe.Pointer(&q))) }

// DeviceWaitIdle is vkDeviceWaitIdle holding every queue lock (the call needs all of the device's
// queues externally synchronized, and FFmpeg's threads may be submitting).
func DeviceWaitIdle(d vk.Device) vk.Result {
	return vk.Result(C.vkx_device_wait_idle(*(*C.VkDevice)(unsafe.Pointer(&d))))
}

// DeviceWaitIdleUnlocked is vkDeviceWaitIdle without any queue lock: for a device whose queues the
// toolkit and FFmpeg use were all created internally synchronized (VK_KHR_internally_synchronized_-
// queues), which the call then needs no lock for (vkDeviceWaitIdle's implicit external
// synchronization covers only queues created without the flag: the registry's vk.xml).
func DeviceWaitIdleUnlocked(d vk.Device) vk.Result {
	return vk.Result(C.vkx_device_wait_idle_unlocked(*(*C.VkDevice)(unsafe.Pointer(&d))))
}

// QueueLockFuncs are the C functions lock(family, index) and unlock(family, index) for
// AVVulkanDeviceContext.lock_queue and unlock_queue (through package avx).
func QueueLockFuncs() (lock, unlock unsafe.Pointer) {
	return C.vkx_queue_lock_fn(), C.vkx_queue_unlock_fn()
}

// LockQueue takes the toolkit's lock of queue index of family, the one FFmpeg's lock_queue takes
// for it and DeviceWaitIdle takes with all the others; UnlockQueue releases it. For tests.
func LockQueue(family, index uint32) { C.vkx_queue_lock(C.uint32_t(family), C.uint32_t(index)) }

// UnlockQueue releases LockQueue's lock.
func UnlockQueue(family, index uint32) { C.vkx_queue_unlock(C.uint32_t(family), C.uint32_t(index)) }
