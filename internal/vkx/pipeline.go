package vkx

/*
#include <stdlib.h>
#include "vkx.h"
*/
import "C"

import (
	"sync/atomic"
	"time"
	"unsafe"

	vk "github.com/vulkan-go/vulkan"
)

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
	return made(dev, r, out, "vkCreateGraphicsPipelines")
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
	return made(dev, r, out, "vkCreateGraphicsPipelines")
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
	return made(dev, r, out, "vkCreateComputePipelines")
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

// NewPipelineCache creates a pipeline cache seeded with data (empty when data is empty). The driver
// checks the data's header itself and may ignore it (Vulkan spec, "Pipeline Cache": initial data
// that is incompatible is ignored, not an error).
func NewPipelineCache(dev vk.Device, data []byte) (vk.PipelineCache, error) {
	var p unsafe.Pointer
	if len(data) > 0 {
		p = C.CBytes(data)
		defer C.free(p)
	}
	var out vk.PipelineCache
	err := Check(vk.Result(C.vkx_pipeline_cache(cDevice(dev), p, C.size_t(len(data)),
		(*C.VkPipelineCache)(unsafe.Pointer(&out)))), "vkCreatePipelineCache")
	return out, err
}

// PipelineCacheData is vkGetPipelineCacheData: the cache's contents, header first.
func PipelineCacheData(dev vk.Device, cache vk.PipelineCache) ([]byte, error) {
	var n C.size_t
	if err := Check(vk.Result(C.vkx_pipeline_cache_data(cDevice(dev), cCache(cache), &n, nil)), "vkGetPipelineCacheData"); err != nil {
		return nil, err
	}
	if n == 0 {
		return nil, nil
	}
	buf := C.malloc(n)
	defer C.free(buf)
	// VK_INCOMPLETE would mean the cache grew between the calls: nothing else creates pipelines then,
	// and a short read is still valid data (the spec writes whole entries only).
	r := vk.Result(C.vkx_pipeline_cache_data(cDevice(dev), cCache(cache), &n, buf))
	if r != vk.Incomplete {
		if err := Check(r, "vkGetPipelineCacheData"); err != nil {
			return nil, err
		}
	}
	return C.GoBytes(buf, C.int(n)), nil
}

var pipelinesMade, pipelineNanos atomic.Int64

// made is the pipeline a create call gave, or its error. A failure injected by a test (Check, fault.go)
// comes after the driver made the pipeline, which is then destroyed rather than leaked.
func made(dev vk.Device, r C.VkResult, out C.VkPipeline, call string) (vk.Pipeline, error) {
	pl := *(*vk.Pipeline)(unsafe.Pointer(&out))
	if err := Check(vk.Result(r), call); err != nil {
		if r == C.VK_SUCCESS && pl != vk.NullPipeline {
			vk.DestroyPipeline(dev, pl, nil)
		}
		return vk.NullPipeline, err
	}
	return pl, nil
}

func timePipeline(t time.Time) {
	pipelinesMade.Add(1)
	pipelineNanos.Add(int64(time.Since(t)))
}

// PipelineTime is how many pipelines the process created through vkx and the time those calls took
// (shader compilation, mostly: what a pipeline cache saves), for start-up figures.
func PipelineTime() (int, time.Duration) {
	return int(pipelinesMade.Load()), time.Duration(pipelineNanos.Load())
}
