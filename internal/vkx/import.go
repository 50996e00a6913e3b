package vkx

/*
#include "vkx.h"
*/
import "C"

import (
	"unsafe"

	vk "github.com/vulkan-go/vulkan"
)

// ExternalMemoryHandleHostAllocation is VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT.
const ExternalMemoryHandleHostAllocation = C.VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT

// External memory features (VkExternalMemoryFeatureFlagBits), as ImageFormatInfo.ExternalFeatures
// reports them.
const (
	ExternalMemoryFeatureImportable = C.VK_EXTERNAL_MEMORY_FEATURE_IMPORTABLE_BIT
)

// ImportAlignment is VkPhysicalDeviceExternalMemoryHostPropertiesEXT.minImportedHostPointerAlignment:
// imported host pointers and sizes must be multiples of it.
func ImportAlignment(pd vk.PhysicalDevice) uint64 {
	var a C.VkDeviceSize
	C.vkx_import_alignment(cPhysical(pd), &a)
	return uint64(a)
}

// ImportBuffer makes a VkBuffer (created with VkExternalMemoryBufferCreateInfo HOST_ALLOCATION) over
// size bytes of host memory at address ptr, imported with VkImportMemoryHostPointerInfoEXT into a
// memory type vkGetMemoryHostPointerPropertiesEXT offers. ptr and size must be multiples of
// ImportAlignment, and the memory must stay mapped (and, for Go memory, pinned) until FreeImport.
// Addresses are integers here: a pointer rounded down to the alignment may land inside an unrelated
// Go object, which cgo's pointer checks must not inspect.
func ImportBuffer(dev vk.Device, ptr uintptr, size uint64, usage vk.BufferUsageFlagBits) (vk.Buffer, vk.DeviceMemory, error) {
	var b C.VkBuffer
	var m C.VkDeviceMemory
	r := C.vkx_import_buffer(cDevice(dev), C.uintptr_t(ptr), C.VkDeviceSize(size), C.VkBufferUsageFlags(usage), &b, &m)
	if err := Check(vk.Result(r), "vkAllocateMemory(VkImportMemoryHostPointerInfoEXT)"); err != nil {
		return vk.NullBuffer, vk.NullDeviceMemory, err
	}
	return *(*vk.Buffer)(unsafe.Pointer(&b)), *(*vk.DeviceMemory)(unsafe.Pointer(&m)), nil
}

// HostPointerTypes is vkGetMemoryHostPointerPropertiesEXT for the address ptr: the memory types host
// memory there can be imported as.
func HostPointerTypes(dev vk.Device, ptr uintptr) (uint32, error) {
	var bits C.uint32_t
	r := C.vkx_host_pointer_types(cDevice(dev), C.uintptr_t(ptr), &bits)
	return uint32(bits), Check(vk.Result(r), "vkGetMemoryHostPointerPropertiesEXT")
}

// FreeImport destroys a buffer made by ImportBuffer and frees its memory (either may be null).
func FreeImport(dev vk.Device, b vk.Buffer, m vk.DeviceMemory) {
	C.vkx_import_free(cDevice(dev), cBuffer(b), cMemory(m))
}

// ExternalImage describes an image whose memory will be imported.
type ExternalImage struct {
	Format        uint32
	Width, Height uint32
	Tiling        vk.ImageTiling
	Usage         vk.ImageUsageFlags
	Flags         vk.ImageCreateFlags
	Handle        uint32 // external handle type for VkExternalMemoryImageCreateInfo; 0 for none
	InitialLayout vk.ImageLayout
}

// CreateExternalImage is vkCreateImage with VkExternalMemoryImageCreateInfo chained.
func CreateExternalImage(dev vk.Device, e ExternalImage) (vk.Image, error) {
	var img C.VkImage
	r := C.vkx_create_external_image(cDevice(dev), C.VkFormat(e.Format), C.uint32_t(e.Width), C.uint32_t(e.Height),
		C.VkImageTiling(e.Tiling), C.VkImageUsageFlags(e.Usage), C.VkImageCreateFlags(e.Flags),
		C.VkExternalMemoryHandleTypeFlagBits(e.Handle), C.VkImageLayout(e.InitialLayout), &img)
	if err := Check(vk.Result(r), "vkCreateImage"); err != nil {
		return vk.NullImage, err
	}
	return *(*vk.Image)(unsafe.Pointer(&img)), nil
}

// DestroyImage is vkDestroyImage (null is ignored).
func DestroyImage(dev vk.Device, img vk.Image) { C.vkx_destroy_image(cDevice(dev), cImage(img)) }

// SubresourceLayout is VkSubresourceLayout.
type SubresourceLayout struct {
	Offset, Size, RowPitch uint64
}

// ImageSubresourceLayout is vkGetImageSubresourceLayout for a LINEAR image's aspect (PLANE_i for a
// multi-planar image, COLOR otherwise).
func ImageSubresourceLayout(dev vk.Device, img vk.Image, aspect vk.ImageAspectFlagBits) SubresourceLayout {
	var l C.VkSubresourceLayout
	C.vkx_subresource_layout(cDevice(dev), cImage(img), C.VkImageAspectFlagBits(aspect), &l)
	return SubresourceLayout{uint64(l.offset), uint64(l.size), uint64(l.rowPitch)}
}
