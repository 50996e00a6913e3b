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

// Batch is one command buffer of a submission with the semaphores it waits on and signals.
type Batch struct {
	CB      vk.CommandBuffer
	Waits   []SubmitSemaphore
	Signals []SubmitSemaphore
}

// QueueSubmitBatches submits the batches in one vkQueueSubmit, in order, and fence, under the queue's
// lock (at most 2 batches of 4 semaphores each way); binary or timeline semaphores
// (VkTimelineSemaphoreSubmitInfo).
func QueueSubmitBatches(q vk.Queue, batches []Batch, fence vk.Fence) error {
	var bs [C.VKX_MAX_BATCHES]C.VkxBatch
	if len(batches) > len(bs) {
		return Check(vk.ErrorInitializationFailed, "vkQueueSubmit (more than 2 batches)")
	}
	for i, b := range batches {
		c := &bs[i]
		if len(b.Waits) > len(c.wait) || len(b.Signals) > len(c.signal) {
			return Check(vk.ErrorInitializationFailed, "vkQueueSubmit (more than 4 semaphores)")
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
