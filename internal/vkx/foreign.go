package vkx

/*
#include "vkx.h"
*/
import "C"

import (
	"unsafe"

	vk "github.com/vulkan-go/vulkan"
)

// SubmitSemaphore is one semaphore of a submission: a binary one (Value ignored) or a timeline one
// at Value. Stage is where a wait takes effect (ignored for signals).
type SubmitSemaphore struct {
	Semaphore vk.Semaphore
	Value     uint64
	Stage     vk.PipelineStageFlags
}

// QueueSubmitSync submits one command buffer waiting on waits and signalling signals (binary or
// timeline semaphores, VkTimelineSemaphoreSubmitInfo) and fence, under the queue's lock.
func QueueSubmitSync(q vk.Queue, cb vk.CommandBuffer, waits, signals []SubmitSemaphore, fence vk.Fence) error {
	const max = 4
	var ws, ss [max]C.VkSemaphore
	var wv, sv [max]C.uint64_t
	var st [max]C.VkPipelineStageFlags
	if len(waits) > max || len(signals) > max {
		return Check(vk.ErrorInitializationFailed, "vkQueueSubmit (more than 4 semaphores)")
	}
	for i, w := range waits {
		ws[i], wv[i], st[i] = *(*C.VkSemaphore)(unsafe.Pointer(&w.Semaphore)), C.uint64_t(w.Value), C.VkPipelineStageFlags(w.Stage)
	}
	for i, s := range signals {
		ss[i], sv[i] = *(*C.VkSemaphore)(unsafe.Pointer(&s.Semaphore)), C.uint64_t(s.Value)
	}
	r := C.vkx_queue_submit_sync(cQueue(q), cCommandBuffer(cb), C.uint32_t(len(waits)), &ws[0], &wv[0], &st[0],
		C.uint32_t(len(signals)), &ss[0], &sv[0], *(*C.VkFence)(unsafe.Pointer(&fence)))
	return Check(vk.Result(r), "vkQueueSubmit")
}

// CreateView makes a 2D view of img's aspect in format, with the Y′CbCr conversion conv (or none),
// limited to usage (VkImageViewUsageCreateInfo): a view of an image created with usages its format
// does not support for views (a decoder's VIDEO_DECODE_DST) is valid for sampling this way.
func CreateView(dev vk.Device, img vk.Image, format vk.Format, aspect vk.ImageAspectFlags,
	conv vk.SamplerYcbcrConversion, usage vk.ImageUsageFlags) (vk.ImageView, error) {
	var out C.VkImageView
	r := C.vkx_create_view(cDevice(dev), cImage(img), C.VkFormat(format), C.VkImageAspectFlags(aspect),
		cConversion(conv), C.VkImageUsageFlags(usage), &out)
	if err := Check(vk.Result(r), "vkCreateImageView"); err != nil {
		return vk.NullImageView, err
	}
	return *(*vk.ImageView)(unsafe.Pointer(&out)), nil
}

// ImageBarrier records one image memory barrier on img's colour aspect (every plane).
type ImageBarrier struct {
	Image                vk.Image
	From, To             vk.ImageLayout
	SrcAccess, DstAccess vk.AccessFlags
	SrcStage, DstStage   vk.PipelineStageFlags
	SrcFamily, DstFamily uint32 // vk.QueueFamilyIgnored for none
}

// CmdImageBarrier records b into cb.
func CmdImageBarrier(cb vk.CommandBuffer, b ImageBarrier) {
	C.vkx_cmd_image_barrier(cCommandBuffer(cb), cImage(b.Image), C.VkImageLayout(b.From), C.VkImageLayout(b.To),
		C.VkAccessFlags(b.SrcAccess), C.VkAccessFlags(b.DstAccess), C.VkPipelineStageFlags(b.SrcStage),
		C.VkPipelineStageFlags(b.DstStage), C.uint32_t(b.SrcFamily), C.uint32_t(b.DstFamily))
}

// PlaneCopy copies Width×Height texels from the aspect Src of one image to the aspect Dst of another
// (a plane of a multi-planar image, or a single-plane image's colour aspect).
type PlaneCopy struct {
	Src, Dst      vk.ImageAspectFlags
	Width, Height int
}

// CmdCopyPlanes records vkCmdCopyImage from src (TRANSFER_SRC_OPTIMAL) to dst (TRANSFER_DST_OPTIMAL),
// one region per plane (at most 4).
func CmdCopyPlanes(cb vk.CommandBuffer, src, dst vk.Image, planes []PlaneCopy) {
	var p [4]C.VkxPlaneCopy
	n := min(len(planes), 4)
	for i := 0; i < n; i++ {
		p[i] = C.VkxPlaneCopy{src_aspect: C.VkImageAspectFlags(planes[i].Src), dst_aspect: C.VkImageAspectFlags(planes[i].Dst),
			width: C.uint32_t(planes[i].Width), height: C.uint32_t(planes[i].Height)}
	}
	C.vkx_cmd_copy_planes(cCommandBuffer(cb), cImage(src), cImage(dst), &p[0], C.uint32_t(n))
}

// ForeignImage registers img as an image FFmpeg created (foreign.c says which validation message
// about it is counted rather than reported).
func ForeignImage(img vk.Image) {
	C.vkx_foreign_image(C.uint64_t(uintptr(unsafe.Pointer(cImage(img)))))
}

// ForeignKnownMessages counts the messages foreign.c left out.
func ForeignKnownMessages() int { return int(C.vkx_foreign_known_count()) }
