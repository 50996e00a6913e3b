package vkx

/*
#include "vkx.h"
*/
import "C"

import (
	"time"
	"unsafe"

	vk "github.com/vulkan-go/vulkan"
)

// vulkan-go frees its C copy of a slice argument in a finalizer that may run while the call is
// still in the driver (calls.c says more). The calls below replace the ones the project makes
// with such slices.

func cQueue(h vk.Queue) C.VkQueue { return *(*C.VkQueue)(unsafe.Pointer(&h)) }

// QueueSubmit submits one command buffer, waiting on wait at stage (if wait is not null) and
// signalling signal (if not null) and fence.
func QueueSubmit(q vk.Queue, cb vk.CommandBuffer, wait vk.Semaphore, stage vk.PipelineStageFlags, signal vk.Semaphore, fence vk.Fence) error {
	r := C.vkx_queue_submit(cQueue(q), cCommandBuffer(cb), *(*C.VkSemaphore)(unsafe.Pointer(&wait)),
		C.VkPipelineStageFlags(stage), *(*C.VkSemaphore)(unsafe.Pointer(&signal)), *(*C.VkFence)(unsafe.Pointer(&fence)))
	return Check(vk.Result(r), "vkQueueSubmit")
}

// FullscreenPipeline creates the project's one graphics pipeline shape: a vertex shader drawing one
// triangle with no vertex input, a fragment shader with optional int32 specialization constants
// (constant_id 0..n−1), no blending, dynamic viewport and scissor.
func FullscreenPipeline(dev vk.Device, cache vk.PipelineCache, layout vk.PipelineLayout, rp vk.RenderPass, vs, fs vk.ShaderModule, spec []int32) (vk.Pipeline, error) {
	defer timePipeline(time.Now())
	var out C.VkPipeline
	var specPtr *C.int32_t
	if len(spec) > 0 {
		specPtr = (*C.int32_t)(unsafe.Pointer(&spec[0]))
	}
	r := C.vkx_fullscreen_pipeline(cDevice(dev), cCache(cache), *(*C.VkPipelineLayout)(unsafe.Pointer(&layout)),
		*(*C.VkRenderPass)(unsafe.Pointer(&rp)), *(*C.VkShaderModule)(unsafe.Pointer(&vs)),
		*(*C.VkShaderModule)(unsafe.Pointer(&fs)), specPtr, C.uint32_t(len(spec)), &out)
	if err := Check(vk.Result(r), "vkCreateGraphicsPipelines"); err != nil {
		return vk.NullPipeline, err
	}
	return *(*vk.Pipeline)(unsafe.Pointer(&out)), nil
}

// BlendedPipeline creates FullscreenPipeline's shape (no vertex input, dynamic viewport and scissor)
// with "over" blending of straight alpha, for drawing on top of a picture; the vertex shader decides
// how many vertices and instances it draws.
func BlendedPipeline(dev vk.Device, cache vk.PipelineCache, layout vk.PipelineLayout, rp vk.RenderPass, vs, fs vk.ShaderModule) (vk.Pipeline, error) {
	defer timePipeline(time.Now())
	var out C.VkPipeline
	r := C.vkx_blended_pipeline(cDevice(dev), cCache(cache), *(*C.VkPipelineLayout)(unsafe.Pointer(&layout)),
		*(*C.VkRenderPass)(unsafe.Pointer(&rp)), *(*C.VkShaderModule)(unsafe.Pointer(&vs)),
		*(*C.VkShaderModule)(unsafe.Pointer(&fs)), &out)
	if err := Check(vk.Result(r), "vkCreateGraphicsPipelines"); err != nil {
		return vk.NullPipeline, err
	}
	return *(*vk.Pipeline)(unsafe.Pointer(&out)), nil
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

// SetViewport sets the viewport to (x, y, w, h) and the scissor to (sx, sy, sw, sh).
func SetViewport(cb vk.CommandBuffer, x, y, w, h, sx, sy, sw, sh int) {
	C.vkx_set_viewport(cCommandBuffer(cb), C.int32_t(x), C.int32_t(y), C.uint32_t(w), C.uint32_t(h),
		C.int32_t(sx), C.int32_t(sy), C.uint32_t(sw), C.uint32_t(sh))
}

// ComputePipeline creates a compute pipeline from one module with optional int32 specialization
// constants (constant_id 0..n−1).
func ComputePipeline(dev vk.Device, cache vk.PipelineCache, layout vk.PipelineLayout, cs vk.ShaderModule, spec []int32) (vk.Pipeline, error) {
	defer timePipeline(time.Now())
	var out C.VkPipeline
	var specPtr *C.int32_t
	if len(spec) > 0 {
		specPtr = (*C.int32_t)(unsafe.Pointer(&spec[0]))
	}
	r := C.vkx_compute_pipeline(cDevice(dev), cCache(cache), *(*C.VkPipelineLayout)(unsafe.Pointer(&layout)),
		*(*C.VkShaderModule)(unsafe.Pointer(&cs)), specPtr, C.uint32_t(len(spec)), &out)
	if err := Check(vk.Result(r), "vkCreateComputePipelines"); err != nil {
		return vk.NullPipeline, err
	}
	return *(*vk.Pipeline)(unsafe.Pointer(&out)), nil
}

// WriteStorageImage writes a storage-image descriptor (layout GENERAL) into binding of set.
func WriteStorageImage(dev vk.Device, set vk.DescriptorSet, binding uint32, view vk.ImageView) {
	C.vkx_write_storage(cDevice(dev), *(*C.VkDescriptorSet)(unsafe.Pointer(&set)), C.uint32_t(binding),
		*(*C.VkImageView)(unsafe.Pointer(&view)))
}

// ShaderModule makes a shader module from SPIR-V bytes (copied into 32-bit words, as the create info
// needs them aligned).
func ShaderModule(dev vk.Device, spv []byte) (vk.ShaderModule, error) {
	words := make([]uint32, len(spv)/4)
	copy(unsafe.Slice((*byte)(unsafe.Pointer(&words[0])), len(spv)), spv)
	ci := &vk.ShaderModuleCreateInfo{SType: vk.StructureTypeShaderModuleCreateInfo, CodeSize: uint(len(spv)), PCode: words}
	var m vk.ShaderModule
	err := Check(vk.CreateShaderModule(dev, ci, nil, &m), "vkCreateShaderModule")
	ci.Free()
	return m, err
}
