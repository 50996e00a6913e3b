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

func cCache(h vk.PipelineCache) C.VkPipelineCache { return *(*C.VkPipelineCache)(unsafe.Pointer(&h)) }

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

func timePipeline(t time.Time) {
	pipelinesMade.Add(1)
	pipelineNanos.Add(int64(time.Since(t)))
}

// PipelineTime is how many pipelines the process created through vkx and the time those calls took
// (shader compilation, mostly: what a pipeline cache saves), for start-up figures.
func PipelineTime() (int, time.Duration) {
	return int(pipelinesMade.Load()), time.Duration(pipelineNanos.Load())
}
