package vkx

/*
#include <stdlib.h>
#include <string.h>
#include "vkx.h"

// bench_driver_properties fills name and info from VkPhysicalDeviceDriverProperties (Vulkan 1.2,
// or VK_KHR_driver_properties, which the caller checked). The structs live on the C stack, so the
// pNext chain never points into Go memory. Returns 0 on success, -1 when the entry point is missing.
static int bench_driver_properties(VkInstance inst, VkPhysicalDevice pd, char *name, char *info) {
	PFN_vkGetInstanceProcAddr gipa = (PFN_vkGetInstanceProcAddr)vkx_get_instance_proc_addr();
	if (!gipa) return -1;
	PFN_vkGetPhysicalDeviceProperties2 get =
		(PFN_vkGetPhysicalDeviceProperties2)gipa(inst, "vkGetPhysicalDeviceProperties2");
	if (!get) return -1;
	VkPhysicalDeviceDriverProperties dp;
	memset(&dp, 0, sizeof dp);
	dp.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES;
	VkPhysicalDeviceProperties2 p;
	memset(&p, 0, sizeof p);
	p.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2;
	p.pNext = &dp;
	get(pd, &p);
	memcpy(name, dp.driverName, VK_MAX_DRIVER_NAME_SIZE);
	memcpy(info, dp.driverInfo, VK_MAX_DRIVER_INFO_SIZE);
	name[VK_MAX_DRIVER_NAME_SIZE - 1] = 0;
	info[VK_MAX_DRIVER_INFO_SIZE - 1] = 0;
	return 0;
}
*/
import "C"

import (
	"unsafe"

	vk "github.com/vulkan-go/vulkan"
)

// DriverProperties returns VkPhysicalDeviceDriverProperties' driverName and driverInfo ("llvmpipe",
// "Mesa 25.0.7 (LLVM 15.0.6)"; "NVIDIA", "580.159.04"): driverVersion alone is vendor-encoded and
// says nothing for Mesa's lavapipe (0.0.1). The caller must know the device has Vulkan 1.2 or
// VK_KHR_driver_properties; ok is false when the query is unavailable. Added for cmd/ycbcrbench's
// report header.
func DriverProperties(instance vk.Instance, pd vk.PhysicalDevice) (name, info string, ok bool) {
	cname := (*C.char)(C.malloc(C.VK_MAX_DRIVER_NAME_SIZE))
	cinfo := (*C.char)(C.malloc(C.VK_MAX_DRIVER_INFO_SIZE))
	defer C.free(unsafe.Pointer(cname))
	defer C.free(unsafe.Pointer(cinfo))
	if C.bench_driver_properties(cInstance(instance), cPhysical(pd), cname, cinfo) != 0 {
		return "", "", false
	}
	return C.GoString(cname), C.GoString(cinfo), true
}
