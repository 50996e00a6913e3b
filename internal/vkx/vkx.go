package vkx

/*
#include <stdlib.h>
#include "vkx.h"
*/
import "C"

import (
	"errors"
	"fmt"
	"unsafe"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/internal/dl"
)

// Library is the loader's soname. The unversioned libvulkan.so ships only with -dev packages.
const Library = "libvulkan.so.1"

var loaded bool

// Load opens the Vulkan loader, fills the package's table of entry points (loader.c) and hands
// vkGetInstanceProcAddr to vulkan-go. Safe to call repeatedly.
func Load() error {
	if loaded {
		return nil
	}
	fns, err := dl.Open(Library, unsafe.Pointer(&C.vkx_funcs))
	var missing *dl.MissingError
	switch {
	case errors.As(err, &missing):
		return fmt.Errorf("vkx: the Vulkan loader %s has no %s (need a Vulkan 1.1 loader)", Library, missing.Func)
	case err != nil:
		return fmt.Errorf("vkx: cannot load %s: no Vulkan loader installed", Library)
	}
	C.vkx_bind(&fns[0])
	vk.SetGetInstanceProcAddr(GetInstanceProcAddr())
	if err := vk.Init(); err != nil {
		return fmt.Errorf("vkx: %w", err)
	}
	loaded = true
	return nil
}

// LoadInstance must follow vkCreateInstance: without vk.InitInstance vulkan-go's next call jumps to NULL.
func LoadInstance(instance vk.Instance) error {
	if err := vk.InitInstance(instance); err != nil {
		return fmt.Errorf("vkx: %w", err)
	}
	C.vkx_load_instance(cInstance(instance))
	return nil
}

// LoadDevice looks up a new device's extension entry points through vkGetDeviceProcAddr.
func LoadDevice(device vk.Device) { C.vkx_load_device(cDevice(device)) }

// GetInstanceProcAddr is the loader's vkGetInstanceProcAddr (for vulkan-go, and
// AVVulkanDeviceContext.get_proc_addr).
func GetInstanceProcAddr() unsafe.Pointer { return unsafe.Pointer(C.vkx_fn.GetInstanceProcAddr) }

// InstanceVersion is the loader's vkEnumerateInstanceVersion (1.0 where it has none). Load first.
func InstanceVersion() uint32 { return uint32(C.vkx_instance_version()) }

// Handles are pointers on amd64 in both vulkan-go and the C headers: reinterpret the 8 bytes.
func cInstance(h vk.Instance) C.VkInstance { return *(*C.VkInstance)(unsafe.Pointer(&h)) }
func cDevice(h vk.Device) C.VkDevice       { return *(*C.VkDevice)(unsafe.Pointer(&h)) }
func cPhysical(h vk.PhysicalDevice) C.VkPhysicalDevice {
	return *(*C.VkPhysicalDevice)(unsafe.Pointer(&h))
}
func cQueue(h vk.Queue) C.VkQueue    { return *(*C.VkQueue)(unsafe.Pointer(&h)) }
func cImage(h vk.Image) C.VkImage    { return *(*C.VkImage)(unsafe.Pointer(&h)) }
func cBuffer(h vk.Buffer) C.VkBuffer { return *(*C.VkBuffer)(unsafe.Pointer(&h)) }
func cMemory(h vk.DeviceMemory) C.VkDeviceMemory {
	return *(*C.VkDeviceMemory)(unsafe.Pointer(&h))
}
func cCommandBuffer(h vk.CommandBuffer) C.VkCommandBuffer {
	return *(*C.VkCommandBuffer)(unsafe.Pointer(&h))
}
func cConversion(h vk.SamplerYcbcrConversion) C.VkSamplerYcbcrConversion {
	return *(*C.VkSamplerYcbcrConversion)(unsafe.Pointer(&h))
}
func cCache(h vk.PipelineCache) C.VkPipelineCache { return *(*C.VkPipelineCache)(unsafe.Pointer(&h)) }
func cSemaphore(h vk.Semaphore) C.VkSemaphore     { return *(*C.VkSemaphore)(unsafe.Pointer(&h)) }

// Error is a failed Vulkan call: which call, and the VkResult's name.
type Error struct {
	Call   string
	Result vk.Result
}

func (e *Error) Error() string { return e.Call + ": " + ResultName(e.Result) }

// ErrDeviceLost is matched by every Error whose result is VK_ERROR_DEVICE_LOST (errors.Is), so a
// package's users can test for a lost device without naming this internal package.
var ErrDeviceLost = errors.New("vulkan: device lost (VK_ERROR_DEVICE_LOST)")

// Is makes errors.Is(err, ErrDeviceLost) true for a lost device.
func (e *Error) Is(target error) bool {
	return target == ErrDeviceLost && e.Result == vk.ErrorDeviceLost
}

// Check turns a VkResult into an error naming the call; nil for VK_SUCCESS. Tests can make it
// report a failure that did not happen (InjectFault, fault.go).
func Check(r vk.Result, call string) error {
	if faultsArmed.Load() {
		r = injected(r, call)
	}
	if r == vk.Success {
		return nil
	}
	return &Error{Call: call, Result: r}
}

// IsDeviceLost reports whether err is (or wraps) VK_ERROR_DEVICE_LOST.
func IsDeviceLost(err error) bool {
	var e *Error
	return errors.As(err, &e) && e.Result == vk.ErrorDeviceLost
}

var resultNames = map[vk.Result]string{
	0: "VK_SUCCESS", 1: "VK_NOT_READY", 2: "VK_TIMEOUT", 3: "VK_EVENT_SET", 4: "VK_EVENT_RESET",
	5: "VK_INCOMPLETE", -1: "VK_ERROR_OUT_OF_HOST_MEMORY", -2: "VK_ERROR_OUT_OF_DEVICE_MEMORY",
	-3: "VK_ERROR_INITIALIZATION_FAILED", -4: "VK_ERROR_DEVICE_LOST", -5: "VK_ERROR_MEMORY_MAP_FAILED",
	-6: "VK_ERROR_LAYER_NOT_PRESENT", -7: "VK_ERROR_EXTENSION_NOT_PRESENT", -8: "VK_ERROR_FEATURE_NOT_PRESENT",
	-9: "VK_ERROR_INCOMPATIBLE_DRIVER", -10: "VK_ERROR_TOO_MANY_OBJECTS", -11: "VK_ERROR_FORMAT_NOT_SUPPORTED",
	-12: "VK_ERROR_FRAGMENTED_POOL", -13: "VK_ERROR_UNKNOWN", -1000069000: "VK_ERROR_OUT_OF_POOL_MEMORY",
	-1000072003: "VK_ERROR_INVALID_EXTERNAL_HANDLE", -1000000000: "VK_ERROR_SURFACE_LOST_KHR",
	-1000000001: "VK_ERROR_NATIVE_WINDOW_IN_USE_KHR", 1000001003: "VK_SUBOPTIMAL_KHR",
	-1000001004: "VK_ERROR_OUT_OF_DATE_KHR", -1000011001: "VK_ERROR_VALIDATION_FAILED_EXT",
}

// ResultName is the VkResult's name as the spec spells it.
func ResultName(r vk.Result) string {
	if s, ok := resultNames[r]; ok {
		return s
	}
	return fmt.Sprintf("VkResult(%d)", int32(r))
}
