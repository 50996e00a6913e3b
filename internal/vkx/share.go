package vkx

/*
#include "vkx.h"
*/
import "C"

import (
	"fmt"
	"syscall"
	"unsafe"

	vk "github.com/vulkan-go/vulkan"
)

// ExtExternalMemoryFd is the device extension that shares memory between devices as opaque fds.
const ExtExternalMemoryFd = "VK_KHR_external_memory_fd"

// HandleOpaqueFd is VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT (ExternalImage.Handle).
const HandleOpaqueFd = uint32(C.VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT)

// QueueFamilyExternal is VK_QUEUE_FAMILY_EXTERNAL: the owner of a shared image between its
// release by one device and its acquisition by another (Vulkan spec, "Queue Family Ownership
// Transfer").
const QueueFamilyExternal = uint32(C.VK_QUEUE_FAMILY_EXTERNAL)

// ExportMemory allocates and binds img's memory, of a type in allowed, exportable, and returns it
// with its size and an opaque fd of it for ImportMemory (the caller closes the fd if it is not
// imported). img must have been created with HandleOpaqueFd (CreateExternalImage).
func ExportMemory(dev vk.Device, img vk.Image, allowed uint32) (vk.DeviceMemory, uint64, int, error) {
	var m C.VkDeviceMemory
	var fd C.int
	var size C.VkDeviceSize
	r := C.vkx_share_memory(cDevice(dev), cImage(img), C.uint32_t(allowed), -1, &m, &fd, &size)
	if err := Check(vk.Result(r), "vkAllocateMemory(VkExportMemoryAllocateInfo)"); err != nil {
		return vk.NullDeviceMemory, 0, -1, err
	}
	return *(*vk.DeviceMemory)(unsafe.Pointer(&m)), uint64(size), int(fd), nil
}

// ImportMemory allocates img's memory from fd (ExportMemory's, of an image made alike on another
// device of the same GPU) and binds it. The fd is the driver's afterwards, or closed on failure.
func ImportMemory(dev vk.Device, img vk.Image, allowed uint32, fd int, size uint64) (vk.DeviceMemory, error) {
	var m C.VkDeviceMemory
	var out C.int
	var got C.VkDeviceSize
	r := C.vkx_share_memory(cDevice(dev), cImage(img), C.uint32_t(allowed), C.int(fd), &m, &out, &got)
	if err := Check(vk.Result(r), "vkAllocateMemory(VkImportMemoryFdInfoKHR)"); err != nil {
		syscall.Close(fd)
		return vk.NullDeviceMemory, err
	}
	if uint64(got) != size {
		C.vkx_import_free(cDevice(dev), nil, m)
		return vk.NullDeviceMemory, fmt.Errorf("vkx: an imported image needs %d bytes, its exporter's %d", uint64(got), size)
	}
	return *(*vk.DeviceMemory)(unsafe.Pointer(&m)), nil
}

// CmdCopyPlanes records one vkCmdCopyImage of the top-left widths[i]×heights[i] texels of each
// plane of src (TRANSFER_SRC_OPTIMAL) into dst (TRANSFER_DST_OPTIMAL), images of one format with
// len(widths) planes (at most 3).
func CmdCopyPlanes(cb vk.CommandBuffer, src, dst vk.Image, widths, heights []uint32) {
	if len(widths) == 0 || len(widths) != len(heights) {
		return
	}
	var w, h [3]C.uint32_t
	n := min(len(widths), 3)
	for i := range n {
		w[i], h[i] = C.uint32_t(widths[i]), C.uint32_t(heights[i])
	}
	C.vkx_cmd_copy_planes(cCommandBuffer(cb), cImage(src), cImage(dst), C.uint32_t(n), &w[0], &h[0])
}

// DeviceUUIDs are pd's deviceUUID and driverUUID: memory exported as an opaque fd imports only
// where both match (Vulkan spec, "External Memory Handle Types").
func DeviceUUIDs(pd vk.PhysicalDevice) (dev, drv [16]byte) {
	C.vkx_device_uuids(*(*C.VkPhysicalDevice)(unsafe.Pointer(&pd)), (*C.uint8_t)(&dev[0]), (*C.uint8_t)(&drv[0]))
	return dev, drv
}
