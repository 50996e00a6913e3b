package videotex

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/gpu"
	"github.com/ycbcrkit/ycbcrkit/internal/vkx"
)

// ExtInternallySynchronizedQueues is VK_KHR_internally_synchronized_queues: queues created with
// VK_DEVICE_QUEUE_CREATE_INTERNALLY_SYNCHRONIZED_BIT_KHR (DeviceQueueCreateInternallySynchronized)
// may be used from any thread without a lock (EngineDevice.InternallySynchronizedQueues).
const ExtInternallySynchronizedQueues = vkx.ExtInternallySynchronizedQueues

// DeviceQueueCreateInternallySynchronized is VK_DEVICE_QUEUE_CREATE_INTERNALLY_SYNCHRONIZED_BIT_KHR,
// for VkDeviceQueueCreateInfo.Flags (and VkDeviceQueueInfo2.Flags when fetching such a queue):
// vulkan-go and the installed headers lack it.
const DeviceQueueCreateInternallySynchronized = vk.DeviceQueueCreateFlags(vkx.DeviceQueueCreateInternallySynchronizedBit)

// queueLocks is who locks the queues the engine lends, decided once from EngineDevice (queueLocksOf)
// for every submission of the toolkit's and FFmpeg's.
type queueLocks struct {
	// Submit is held around the toolkit's own submissions to EngineDevice.Queue (the streams' rings,
	// gpu.Device.Submit); nil: none.
	Submit sync.Locker
	// FFmpeg is what FFmpeg's lock_queue takes for queue 0 of QueueFamily (nil: no engine lock there);
	// FFmpegNone says lock_queue takes no lock for any queue, the decode queues' included.
	FFmpeg     sync.Locker
	FFmpegNone bool
	// WaitIdle is the engine's lock DeviceWaitIdle holds (nil: none); WaitIdleAll says it holds
	// every toolkit queue lock too.
	WaitIdle    sync.Locker
	WaitIdleAll bool
	// HWReason says why hardware decoding cannot share the engine's queue ("" when it can).
	HWReason string
}

// queueLocksOf decides the locks for ed. Internally synchronized queues need none anywhere: Vulkan
// then requires no external synchronization of them for vkQueueSubmit and vkDeviceWaitIdle (the
// registry's externsync="maybe" on their queue parameters, and vkDeviceWaitIdle's implicit
// synchronization limited to queues created without the flag), so neither the engine's lock nor the
// toolkit's are taken, and FFmpeg may submit to the engine's queue without one.
func queueLocksOf(ed EngineDevice) queueLocks {
	if ed.InternallySynchronizedQueues {
		return queueLocks{FFmpegNone: true}
	}
	l := queueLocks{Submit: ed.QueueLock, FFmpeg: ed.QueueLock, WaitIdle: ed.QueueLock, WaitIdleAll: true}
	if ed.QueueLock == nil {
		l.HWReason = "EngineDevice.QueueLock is nil: FFmpeg submits to queue 0 of the engine's queue family from its own " +
			"threads, under the engine's lock (or create the queues internally synchronized: EngineDevice.InternallySynchronizedQueues)"
	}
	return l
}

// InternallySynchronized is what the device offers of VK_KHR_internally_synchronized_queues
// (DeviceRequirements.InternallySynchronized).
type InternallySynchronized struct {
	// Offered: the device lists the extension and its internallySynchronizedQueues feature.
	Offered bool
	// Missing says why not (empty when Offered).
	Missing string
}

// internallySynchronized asks pd (its instance's entry points loaded) about the extension.
func internallySynchronized(pd vk.PhysicalDevice, name string) InternallySynchronized {
	if !gpu.DeviceExtensions(pd)[ExtInternallySynchronizedQueues] {
		return InternallySynchronized{Missing: fmt.Sprintf("%s does not offer %s", name, ExtInternallySynchronizedQueues)}
	}
	if !vkx.InternallySynchronizedQueuesFeature(pd) {
		return InternallySynchronized{Missing: fmt.Sprintf("%s lists %s without its internallySynchronizedQueues feature",
			name, ExtInternallySynchronizedQueues)}
	}
	return InternallySynchronized{Offered: true}
}

// offeredISQ is internallySynchronized, which the package's tests replace to drive the toolkit's own
// submissions with the flag on a device that lacks the extension (no lock is needed where one
// goroutine submits).
var offeredISQ = internallySynchronized

// checkInternallySynchronized refuses EngineDevice.InternallySynchronizedQueues where the device does
// not offer the extension or the engine did not enable it. The toolkit cannot read the engine's
// VkDeviceCreateInfo: it takes Extensions' word for what was enabled, and the engine's that the
// internallySynchronizedQueues feature, which the flag needs, was enabled with it.
func checkInternallySynchronized(ed EngineDevice, name string) error {
	if !ed.InternallySynchronizedQueues {
		return nil
	}
	if o := offeredISQ(ed.Physical, name); !o.Offered {
		return fmt.Errorf("EngineDevice.InternallySynchronizedQueues: %s: create the queues without "+
			"VK_DEVICE_QUEUE_CREATE_INTERNALLY_SYNCHRONIZED_BIT_KHR and lend a QueueLock", o.Missing)
	}
	if !slices.ContainsFunc(ed.Extensions, func(e string) bool { return strings.TrimRight(e, "\x00") == ExtInternallySynchronizedQueues }) {
		return fmt.Errorf("EngineDevice.InternallySynchronizedQueues: EngineDevice.Extensions does not list %s "+
			"(the device must be created with it, its internallySynchronizedQueues feature and the flag on the lent queues)",
			ExtInternallySynchronizedQueues)
	}
	return nil
}
