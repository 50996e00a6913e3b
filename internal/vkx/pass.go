package vkx

/*
#include "vkx.h"
*/
import "C"

import (
	"fmt"
	"unsafe"

	vk "github.com/vulkan-go/vulkan"
)

// The per-frame side of compute passes over storage buffers (pass.c): the GPU shift of LSB samples
// (planes) and the buffer variant (ycbcr). Their layouts, sets and pipelines come from gpu.Kit.

// MaxPassBuffers is how many storage buffers CmdBindBuffers points a set at.
const MaxPassBuffers = C.VKX_PASS_MAX_BUFFERS

// BufferSet is a set of a buffer pass with the buffers it points at, so that binding it again with
// the same buffers does not update it.
type BufferSet struct {
	Set     vk.DescriptorSet
	current [MaxPassBuffers]uint64
	valid   bool
}

// CmdBindBuffers binds pipe (of layout) and s on cb's compute bind point, first pointing s's
// bindings 0..len(buffers)−1 at buffers (handles from BufferHandle, whole buffers) when they differ
// from its current ones. An update needs the set's previous uses to have completed (the slot's
// fence) and invalidates a command buffer still being recorded that used it. buffers is read during
// the call only.
func CmdBindBuffers(dev vk.Device, cb vk.CommandBuffer, layout vk.PipelineLayout, pipe vk.Pipeline, s *BufferSet, buffers []uint64) {
	if len(buffers) == 0 || len(buffers) > MaxPassBuffers {
		panic(fmt.Sprintf("vkx: buffer pass: %d buffers (1..%d)", len(buffers), MaxPassBuffers))
	}
	update := !s.valid
	for i, b := range buffers {
		if s.current[i] != b {
			update = true
		}
		s.current[i] = b
	}
	s.valid = true
	u := C.int(0)
	if update {
		u = 1
	}
	C.vkx_cmd_bind_buffers(cDevice(dev), cCommandBuffer(cb), *(*C.VkPipelineLayout)(unsafe.Pointer(&layout)),
		*(*C.VkPipeline)(unsafe.Pointer(&pipe)), *(*C.VkDescriptorSet)(unsafe.Pointer(&s.Set)),
		(*C.VkBuffer)(unsafe.Pointer(&buffers[0])), C.uint32_t(len(buffers)), u)
}

// CmdDispatchGroups pushes size bytes of constants at push into layout's compute block and runs
// groups workgroups, as a 2-D grid of at most 32768 in x (shaders index by x + y·numWorkGroups.x·width).
func CmdDispatchGroups(cb vk.CommandBuffer, layout vk.PipelineLayout, push unsafe.Pointer, size uint32, groups int) {
	C.vkx_cmd_dispatch_groups(cCommandBuffer(cb), *(*C.VkPipelineLayout)(unsafe.Pointer(&layout)), push, C.uint32_t(size), C.uint32_t(groups))
}
