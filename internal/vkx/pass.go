package vkx

/*
#include <stdlib.h>
#include "vkx.h"
*/
import "C"

import (
	"fmt"
	"time"
	"unsafe"

	vk "github.com/vulkan-go/vulkan"
)

// Pass is a compute pass over storage buffers (pass.c, pipeline.c): a set layout of n storage-buffer bindings,
// a pipeline layout with one push-constant block, a descriptor pool, and pipelines made from SPIR-V
// with specialization constants. Sets come from the pool, one per user that records concurrently.
type Pass struct {
	c   C.VkxPass
	dev vk.Device
}

// NewPass makes the layouts and a pool for maxSets sets of buffers storage-buffer bindings.
func NewPass(dev vk.Device, buffers, pushBytes, maxSets int) (*Pass, error) {
	p := &Pass{dev: dev}
	if err := Check(vk.Result(C.vkx_pass_create(cDevice(dev), C.uint32_t(buffers), C.uint32_t(pushBytes),
		C.uint32_t(maxSets), &p.c)), "compute pass: create"); err != nil {
		p.Destroy()
		return nil, err
	}
	return p, nil
}

// Pipeline makes a compute pipeline of the pass's layout from SPIR-V with specialization constants
// 0..len(spec)−1 (int32 each), through cache (vk.NullPipelineCache: none).
func (p *Pass) Pipeline(cache vk.PipelineCache, spv []byte, spec []int32) (vk.Pipeline, error) {
	defer timePipeline(time.Now())
	if len(spv) == 0 || len(spv)%4 != 0 {
		return vk.NullPipeline, fmt.Errorf("vkx: compute pass: SPIR-V of %d bytes", len(spv))
	}
	code := C.CBytes(spv) // 4-byte aligned, as the module needs
	defer C.free(code)
	var sp *C.int32_t
	if len(spec) > 0 {
		sp = (*C.int32_t)(unsafe.Pointer(&spec[0]))
	}
	var pipe vk.Pipeline
	err := Check(vk.Result(C.vkx_spirv_compute_pipeline(cDevice(p.dev), cCache(cache), p.c.layout, (*C.uint32_t)(code), C.size_t(len(spv)), sp,
		C.uint32_t(len(spec)), (*C.VkPipeline)(unsafe.Pointer(&pipe)))), "compute pass: pipeline")
	return pipe, err
}

// DestroyPipeline frees a pipeline made by Pipeline.
func (p *Pass) DestroyPipeline(pipe vk.Pipeline) {
	C.vkx_destroy_pipeline(cDevice(p.dev), *(*C.VkPipeline)(unsafe.Pointer(&pipe)))
}

// AllocSet takes a set from the pool.
func (p *Pass) AllocSet() (vk.DescriptorSet, error) {
	var set vk.DescriptorSet
	err := Check(vk.Result(C.vkx_pass_alloc_set(cDevice(p.dev), &p.c, (*C.VkDescriptorSet)(unsafe.Pointer(&set)))),
		"compute pass: allocate set")
	return set, err
}

// FreeSet returns a set to the pool. The GPU must be done with it.
func (p *Pass) FreeSet(set vk.DescriptorSet) {
	C.vkx_pass_free_set(cDevice(p.dev), &p.c, *(*C.VkDescriptorSet)(unsafe.Pointer(&set)))
}

// Destroy frees the layouts and the pool (and every set from it). Pipelines are freed separately.
func (p *Pass) Destroy() {
	if p != nil {
		C.vkx_pass_destroy(cDevice(p.dev), &p.c)
	}
}

// CmdBind binds set with pipe, first pointing it at buffers (one handle per binding, from
// BufferHandle; whole buffers) when update is true. Updating needs the set's previous uses to have
// completed and invalidates a command buffer still being recorded that used it: update only when the
// buffers differ from the set's current ones (PassSet does that). buffers is read during the call only.
func (p *Pass) CmdBind(cb vk.CommandBuffer, pipe vk.Pipeline, set vk.DescriptorSet, buffers []uint64, update bool) {
	if len(buffers) < int(p.c.nbuffers) {
		panic(fmt.Sprintf("vkx: compute pass: %d buffers for %d bindings", len(buffers), p.c.nbuffers))
	}
	u := C.int(0)
	if update {
		u = 1
	}
	C.vkx_cmd_pass_bind(cDevice(p.dev), cCommandBuffer(cb), &p.c, *(*C.VkPipeline)(unsafe.Pointer(&pipe)),
		*(*C.VkDescriptorSet)(unsafe.Pointer(&set)), (*C.VkBuffer)(unsafe.Pointer(&buffers[0])), u)
}

// PassSet is a set with the buffers it points at, so that binding it again with the same buffers
// does not update it.
type PassSet struct {
	Set     vk.DescriptorSet
	current [C.VKX_PASS_MAX_BUFFERS]uint64
	valid   bool
}

// CmdBindSet is CmdBind that updates s only when buffers differ from its current ones.
func (p *Pass) CmdBindSet(cb vk.CommandBuffer, pipe vk.Pipeline, s *PassSet, buffers []uint64) {
	update := !s.valid
	for i, b := range buffers {
		if s.current[i] != b {
			update = true
		}
		s.current[i] = b
	}
	s.valid = true
	p.CmdBind(cb, pipe, s.Set, buffers, update)
}

// CmdDispatch pushes the constants at push (the pass's push-constant size) and runs groups
// workgroups, as a 2-D grid of at most 32768 in x (shaders index by x + y·numWorkGroups.x·width).
func (p *Pass) CmdDispatch(cb vk.CommandBuffer, push unsafe.Pointer, groups int) {
	C.vkx_cmd_pass_dispatch(cCommandBuffer(cb), &p.c, push, C.uint32_t(groups))
}
