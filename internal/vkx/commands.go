package vkx

/*
#include "vkx.h"
*/
import "C"

import (
	"unsafe"

	vk "github.com/vulkan-go/vulkan"
)

// Commands per-frame code records, built in C (commands.c): vulkan-go's vk.CmdPipelineBarrier,
// vk.CmdCopy* and vk.UpdateDescriptorSets copy their slices of structs into C memory that a finalizer
// may free while the call runs (doc.go). Each call here passes plain values, or Go arrays of plain
// values that C reads during the call only.

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
// COMPUTE_SHADER). At most 8 images. The slices are read during the call only.
//
// The last readers images are aliased onto the memory the copies write (ALIAS_BIT): they are not
// written through, but move from UNDEFINED to SHADER_READ_ONLY_OPTIMAL before the copies and get the
// same memory dependency after them.
func CmdUpload(cb vk.CommandBuffer, images []uint64, readers int, from vk.ImageLayout, copies []Copy, regions []BufferImageCopy) {
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
	C.vkx_cmd_upload(cCommandBuffer(cb), (*C.VkImage)(unsafe.Pointer(&images[0])), C.uint32_t(len(images)),
		C.uint32_t(readers), C.VkImageLayout(from), cp, C.uint32_t(len(copies)), rg)
}

// Transition is one image barrier of CmdBarrier: Image's colour aspect (every plane) from layout From
// to To, its SrcAccess writes made available and visible to DstAccess.
type Transition struct {
	Image                vk.Image
	From, To             vk.ImageLayout
	SrcAccess, DstAccess vk.AccessFlagBits
}

// CmdBarrier records one vkCmdPipelineBarrier from srcStage to dstStage: a global memory barrier from
// srcAccess to dstAccess when either is set, and the image transitions (at most 8), queue families
// ignored.
func CmdBarrier(cb vk.CommandBuffer, srcStage, dstStage vk.PipelineStageFlagBits, srcAccess, dstAccess vk.AccessFlagBits,
	images ...Transition) {
	if len(images) == 0 {
		// No array to pass: one that cgo sees escapes to the heap, an allocation per frame on the
		// paths that record global barriers only (the LSB shift; planes' TestLoadAllocatesNothing).
		C.vkx_cmd_barrier(cCommandBuffer(cb), C.VkPipelineStageFlags(srcStage), C.VkPipelineStageFlags(dstStage),
			C.VkAccessFlags(srcAccess), C.VkAccessFlags(dstAccess), nil, 0)
		return
	}
	var ib [C.VKX_MAX_IMAGE_BARRIERS]C.VkxImageBarrier
	n := min(len(images), len(ib))
	for i, t := range images[:n] {
		ib[i] = C.VkxImageBarrier{image: cImage(t.Image), from: C.VkImageLayout(t.From), to: C.VkImageLayout(t.To),
			src_access: C.VkAccessFlags(t.SrcAccess), dst_access: C.VkAccessFlags(t.DstAccess),
			src_family: C.VK_QUEUE_FAMILY_IGNORED, dst_family: C.VK_QUEUE_FAMILY_IGNORED}
	}
	C.vkx_cmd_barrier(cCommandBuffer(cb), C.VkPipelineStageFlags(srcStage), C.VkPipelineStageFlags(dstStage),
		C.VkAccessFlags(srcAccess), C.VkAccessFlags(dstAccess), &ib[0], C.uint32_t(n))
}

// CmdMemoryBarrier records a global memory barrier.
func CmdMemoryBarrier(cb vk.CommandBuffer, srcStage vk.PipelineStageFlagBits, srcAccess vk.AccessFlagBits,
	dstStage vk.PipelineStageFlagBits, dstAccess vk.AccessFlagBits) {
	CmdBarrier(cb, srcStage, dstStage, srcAccess, dstAccess)
}

// ImageBarrier is one image memory barrier on Image's colour aspect (every plane), with its own
// stages and a queue family ownership transfer (SrcFamily to DstFamily; vk.QueueFamilyIgnored both
// for none): what an image another queue family or library used needs.
type ImageBarrier struct {
	Image                vk.Image
	From, To             vk.ImageLayout
	SrcAccess, DstAccess vk.AccessFlags
	SrcStage, DstStage   vk.PipelineStageFlags
	SrcFamily, DstFamily uint32 // vk.QueueFamilyIgnored for none
}

// CmdImageBarrier records b into cb.
func CmdImageBarrier(cb vk.CommandBuffer, b ImageBarrier) {
	ib := C.VkxImageBarrier{image: cImage(b.Image), from: C.VkImageLayout(b.From), to: C.VkImageLayout(b.To),
		src_access: C.VkAccessFlags(b.SrcAccess), dst_access: C.VkAccessFlags(b.DstAccess),
		src_family: C.uint32_t(b.SrcFamily), dst_family: C.uint32_t(b.DstFamily)}
	C.vkx_cmd_barrier(cCommandBuffer(cb), C.VkPipelineStageFlags(b.SrcStage), C.VkPipelineStageFlags(b.DstStage), 0, 0, &ib, 1)
}

// PlaneCopy copies Width×Height texels from the aspect Src of one image to the aspect Dst of another
// (a plane of a multi-planar image, or a single-plane image's colour aspect). Its layout is
// VkxPlaneCopy's, so that slices of it go to C without conversion.
type PlaneCopy struct {
	Src, Dst      vk.ImageAspectFlags
	Width, Height uint32
}

var (
	_ [unsafe.Sizeof(PlaneCopy{}) - unsafe.Sizeof(C.VkxPlaneCopy{})]byte
	_ [unsafe.Sizeof(C.VkxPlaneCopy{}) - unsafe.Sizeof(PlaneCopy{})]byte
)

// CmdUploadImage is CmdUpload from another image: src, in TRANSFER_SRC_OPTIMAL with its writes
// visible to the transfer stage, is copied plane by plane, copies[i] taking planes[First :
// First+Count] (at most 4) into its Image (its Buffer unused).
func CmdUploadImage(cb vk.CommandBuffer, images []uint64, readers int, from vk.ImageLayout, src vk.Image, copies []Copy, planes []PlaneCopy) {
	if len(images) == 0 {
		return
	}
	var cp *C.VkxCopy
	if len(copies) > 0 {
		cp = (*C.VkxCopy)(unsafe.Pointer(&copies[0]))
	}
	var pl *C.VkxPlaneCopy
	if len(planes) > 0 {
		pl = (*C.VkxPlaneCopy)(unsafe.Pointer(&planes[0]))
	}
	C.vkx_cmd_upload_image(cCommandBuffer(cb), (*C.VkImage)(unsafe.Pointer(&images[0])), C.uint32_t(len(images)),
		C.uint32_t(readers), C.VkImageLayout(from), cImage(src), cp, C.uint32_t(len(copies)), pl)
}

// CmdCopyImageRegion copies the w×h rectangle at (sx, sy) of src's colour aspect, in srcLayout, to
// (dx, dy) of dst's, in dstLayout.
func CmdCopyImageRegion(cb vk.CommandBuffer, src vk.Image, srcLayout vk.ImageLayout, sx, sy int, dst vk.Image, dstLayout vk.ImageLayout, dx, dy, w, h int) {
	C.vkx_cmd_copy_image_region(cCommandBuffer(cb), cImage(src), C.VkImageLayout(srcLayout), C.int32_t(sx), C.int32_t(sy),
		cImage(dst), C.VkImageLayout(dstLayout), C.int32_t(dx), C.int32_t(dy), C.uint32_t(w), C.uint32_t(h))
}

// CmdCopyImageToBuffer copies a w×h image's colour aspect, in layout, to the start of buf, tightly
// packed.
func CmdCopyImageToBuffer(cb vk.CommandBuffer, img vk.Image, layout vk.ImageLayout, buf vk.Buffer, w, h int) {
	C.vkx_cmd_copy_image_to_buffer(cCommandBuffer(cb), cImage(img), C.VkImageLayout(layout), cBuffer(buf), C.uint32_t(w), C.uint32_t(h))
}

// CmdCopyBufferToImage copies a tightly packed w×h picture at the start of buf into img's colour
// aspect, in layout (TRANSFER_DST_OPTIMAL or GENERAL).
func CmdCopyBufferToImage(cb vk.CommandBuffer, buf vk.Buffer, img vk.Image, layout vk.ImageLayout, w, h int) {
	C.vkx_cmd_copy_buffer_to_image(cCommandBuffer(cb), cBuffer(buf), cImage(img), C.VkImageLayout(layout), C.uint32_t(w), C.uint32_t(h))
}

// CmdCopyBuffer copies size bytes from src at srcOffset to dst at dstOffset.
func CmdCopyBuffer(cb vk.CommandBuffer, src, dst vk.Buffer, srcOffset, dstOffset, size uint64) {
	C.vkx_cmd_copy_buffer(cCommandBuffer(cb), cBuffer(src), cBuffer(dst), C.VkDeviceSize(srcOffset), C.VkDeviceSize(dstOffset), C.VkDeviceSize(size))
}

// CmdBeginRenderPass begins rp on fb over its whole w×h area with inline contents, clearing its first
// attachment to clear (R, G, B, A) and, with depth given, its second (depth/stencil) to depth[0] and
// stencil 0.
func CmdBeginRenderPass(cb vk.CommandBuffer, rp vk.RenderPass, fb vk.Framebuffer, w, h int, clear [4]float32, depth ...float32) {
	c := [5]C.float{C.float(clear[0]), C.float(clear[1]), C.float(clear[2]), C.float(clear[3])}
	var d *C.float
	if len(depth) > 0 {
		c[4] = C.float(depth[0])
		d = &c[4]
	}
	C.vkx_cmd_begin_render_pass(cCommandBuffer(cb), *(*C.VkRenderPass)(unsafe.Pointer(&rp)), *(*C.VkFramebuffer)(unsafe.Pointer(&fb)),
		C.uint32_t(w), C.uint32_t(h), &c[0], d)
}

// CmdBeginRenderArea begins rp on fb over the w×h area at (x, y) with inline contents and no clear
// values: a loading pass that draws into part of its attachment.
func CmdBeginRenderArea(cb vk.CommandBuffer, rp vk.RenderPass, fb vk.Framebuffer, x, y, w, h int) {
	C.vkx_cmd_begin_render_area(cCommandBuffer(cb), *(*C.VkRenderPass)(unsafe.Pointer(&rp)), *(*C.VkFramebuffer)(unsafe.Pointer(&fb)),
		C.int32_t(x), C.int32_t(y), C.uint32_t(w), C.uint32_t(h))
}

// SetViewport sets the viewport to (x, y, w, h) and the scissor to (sx, sy, sw, sh).
func SetViewport(cb vk.CommandBuffer, x, y, w, h, sx, sy, sw, sh int) {
	C.vkx_set_viewport(cCommandBuffer(cb), C.int32_t(x), C.int32_t(y), C.uint32_t(w), C.uint32_t(h),
		C.int32_t(sx), C.int32_t(sy), C.uint32_t(sw), C.uint32_t(sh))
}

// WriteBuffer writes a storage buffer, its whole range, into binding of set.
func WriteBuffer(dev vk.Device, set vk.DescriptorSet, binding int, buf vk.Buffer) {
	C.vkx_write_buffer(cDevice(dev), *(*C.VkDescriptorSet)(unsafe.Pointer(&set)), C.uint32_t(binding),
		*(*C.VkBuffer)(unsafe.Pointer(&buf)))
}

// WriteImages writes combined image samplers into bindings 0..len(views)−1 of set (8 at most).
func WriteImages(dev vk.Device, set vk.DescriptorSet, views []vk.ImageView, sampler vk.Sampler, layout vk.ImageLayout) {
	if len(views) == 0 {
		return
	}
	cviews := make([]C.VkImageView, len(views))
	for i := range views {
		v := views[i]
		cviews[i] = *(*C.VkImageView)(unsafe.Pointer(&v))
	}
	C.vkx_write_images(cDevice(dev), *(*C.VkDescriptorSet)(unsafe.Pointer(&set)), &cviews[0], C.uint32_t(len(views)),
		*(*C.VkSampler)(unsafe.Pointer(&sampler)), C.VkImageLayout(layout))
}

// WriteStorageImage writes a storage-image descriptor (layout GENERAL) into binding of set.
func WriteStorageImage(dev vk.Device, set vk.DescriptorSet, binding uint32, view vk.ImageView) {
	C.vkx_write_storage(cDevice(dev), *(*C.VkDescriptorSet)(unsafe.Pointer(&set)), C.uint32_t(binding),
		*(*C.VkImageView)(unsafe.Pointer(&view)))
}
