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
	ExternalMemoryFeatureDedicatedOnly = C.VK_EXTERNAL_MEMORY_FEATURE_DEDICATED_ONLY_BIT
	ExternalMemoryFeatureExportable    = C.VK_EXTERNAL_MEMORY_FEATURE_EXPORTABLE_BIT
	ExternalMemoryFeatureImportable    = C.VK_EXTERNAL_MEMORY_FEATURE_IMPORTABLE_BIT
)

func cBuffer(h vk.Buffer) C.VkBuffer { return *(*C.VkBuffer)(unsafe.Pointer(&h)) }
func cMemory(h vk.DeviceMemory) C.VkDeviceMemory {
	return *(*C.VkDeviceMemory)(unsafe.Pointer(&h))
}
func cCommandBuffer(h vk.CommandBuffer) C.VkCommandBuffer {
	return *(*C.VkCommandBuffer)(unsafe.Pointer(&h))
}

// ImportAlignment is VkPhysicalDeviceExternalMemoryHostPropertiesEXT.minImportedHostPointerAlignment:
// imported host pointers and sizes must be multiples of it.
func ImportAlignment(instance vk.Instance, pd vk.PhysicalDevice) (uint64, error) {
	var a C.VkDeviceSize
	if err := Check(vk.Result(C.vkx_import_alignment(cInstance(instance), cPhysical(pd), &a)), "vkGetPhysicalDeviceProperties2"); err != nil {
		return 0, err
	}
	return uint64(a), nil
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

// ImportMemory imports size bytes at ptr as device memory of a type in typeBits (and among those the
// host pointer can be imported as).
func ImportMemory(dev vk.Device, ptr uintptr, size uint64, typeBits uint32) (vk.DeviceMemory, error) {
	var m C.VkDeviceMemory
	r := C.vkx_import_memory(cDevice(dev), C.uintptr_t(ptr), C.VkDeviceSize(size), C.uint32_t(typeBits), &m)
	if err := Check(vk.Result(r), "vkAllocateMemory(VkImportMemoryHostPointerInfoEXT)"); err != nil {
		return vk.NullDeviceMemory, err
	}
	return *(*vk.DeviceMemory)(unsafe.Pointer(&m)), nil
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

// BufferImageCopy has VkBufferImageCopy's layout, so that slices of it go to C without conversion.
type BufferImageCopy struct {
	BufferOffset                         uint64
	BufferRowLength, BufferImageHeight   uint32
	AspectMask, MipLevel, BaseArrayLayer uint32
	LayerCount                           uint32
	OffsetX, OffsetY, OffsetZ            int32
	Width, Height, Depth                 uint32
}

// Copy is one vkCmdCopyBufferToImage of CmdUpload: regions[First : First+Count] from Buffer to Image.
type Copy struct {
	Buffer, Image uint64 // handles, from BufferHandle and ImageHandle
	First, Count  uint32
}

// Layouts must match the C structs byte for byte.
var (
	_ [unsafe.Sizeof(BufferImageCopy{}) - unsafe.Sizeof(C.VkBufferImageCopy{})]byte
	_ [unsafe.Sizeof(C.VkBufferImageCopy{}) - unsafe.Sizeof(BufferImageCopy{})]byte
	_ [unsafe.Sizeof(Copy{}) - unsafe.Sizeof(C.VkxCopy{})]byte
	_ [unsafe.Sizeof(C.VkxCopy{}) - unsafe.Sizeof(Copy{})]byte
)

// ImageHandle and BufferHandle are a handle's 64-bit value, for Copy and CmdUpload.
func ImageHandle(h vk.Image) uint64 { return *(*uint64)(unsafe.Pointer(&h)) }

// BufferHandle: see ImageHandle.
func BufferHandle(h vk.Buffer) uint64 { return *(*uint64)(unsafe.Pointer(&h)) }

// CmdUpload records an upload without vulkan-go's per-call allocations: each image in images goes
// from layout from to TRANSFER_DST_OPTIMAL (TOP_OF_PIPE → TRANSFER), the copies run, and every image
// goes to SHADER_READ_ONLY_OPTIMAL for the shaders that convert it (TRANSFER → FRAGMENT_SHADER and
// COMPUTE_SHADER). At most 8
// images. The slices are read during the call only.
//
// The last readers images are aliased onto the memory the copies write (ALIAS_BIT): they are not
// written through, but move from UNDEFINED to SHADER_READ_ONLY_OPTIMAL before the copies and get the
// same memory dependency after them.
func CmdUpload(dev vk.Device, cb vk.CommandBuffer, images []uint64, readers int, from vk.ImageLayout, copies []Copy, regions []BufferImageCopy) {
	if len(images) == 0 {
		return
	}
	var cp *C.VkxCopy
	if len(copies) > 0 {
		cp = (*C.VkxCopy)(unsafe.Pointer(&copies[0]))
	}
	var rg *C.VkBufferImageCopy
	if len(regions) > 0 {
		rg = (*C.VkBufferImageCopy)(unsafe.Pointer(&regions[0]))
	}
	C.vkx_cmd_upload(cDevice(dev), cCommandBuffer(cb), (*C.VkImage)(unsafe.Pointer(&images[0])), C.uint32_t(len(images)),
		C.uint32_t(readers), C.VkImageLayout(from), cp, C.uint32_t(len(copies)), rg)
}
