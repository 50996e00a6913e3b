package vkx

import (
	"runtime/debug"
	"sync"
)

// NoGC runs f with the garbage collector paused, for set-up calls into vulkan-go that pass a slice
// of structs as an argument or fill one (vk.Enumerate*Properties,
// vk.GetPhysicalDeviceQueueFamilyProperties, vk.GetPhysicalDeviceSurfaceFormats). Per-frame code
// never uses it: debug.SetGCPercent waits for a collection in progress to end (a stall of the
// frame's goroutine) and the pause holds for the whole process; what per-frame code records goes
// through this package's C wrappers instead (docs/architecture.md, "Calling Vulkan").
//
// Why: vulkan-go copies such a slice into C memory whose only owner is a finalizer set on a local
// variable of its converter (unpackArgS*/unpackS*: runtime.SetFinalizer(&unpacked, func(...) { go
// allocs.Free() })). That variable is unreachable as soon as the converter returns, so a collection
// that completes while the Vulkan call runs frees the memory the driver is reading (create infos,
// submit infos) or writing (property arrays): a use-after-free that crashes in the driver or corrupts
// the C heap. Pausing the collector until vulkan-go has returned (and copied any output back)
// closes that window; the memory is freed by the first collection after.
//
// Limits: an explicit runtime.GC() still collects, and so does reaching GOMEMLIMIT. Nested and
// concurrent calls are counted: the collector resumes when the last one ends.
func NoGC(f func()) {
	gcGuard.Lock()
	if gcGuard.depth == 0 {
		gcGuard.prev = debug.SetGCPercent(-1) // also waits for a mark phase in progress to end
	}
	gcGuard.depth++
	gcGuard.Unlock()
	defer func() {
		gcGuard.Lock()
		gcGuard.depth--
		if gcGuard.depth == 0 {
			debug.SetGCPercent(gcGuard.prev)
		}
		gcGuard.Unlock()
	}()
	f()
}

var gcGuard struct {
	sync.Mutex
	depth int
	prev  int
}
