// pass.c: the per-frame recording of compute passes over storage buffers (the GPU shift of LSB
// samples, the buffer variant of the shader path): the set pointed at the frame's buffers, binding
// and dispatch, on C structs (doc.go says why). Their layouts, sets and pipelines are gpu.Kit's.
#include "vkx.h"

// vkx_cmd_bind_buffers points set's bindings 0..n-1 at buffers (whole) when update is set, and binds
// it with pipeline. An update needs the set's previous uses to have completed, and recording it again
// into a command buffer that already used it would invalidate that buffer: callers update only when
// the buffers change.
void vkx_cmd_bind_buffers(VkDevice d, VkCommandBuffer cb, VkPipelineLayout layout, VkPipeline pipeline,
                          VkDescriptorSet set, const VkBuffer *buffers, uint32_t n, int update) {
	VkDescriptorBufferInfo info[VKX_PASS_MAX_BUFFERS];
	VkWriteDescriptorSet w[VKX_PASS_MAX_BUFFERS];
	if (n > VKX_PASS_MAX_BUFFERS) n = VKX_PASS_MAX_BUFFERS;
	for (uint32_t i = 0; i < n; i++) {
		info[i] = (VkDescriptorBufferInfo){.buffer = buffers[i], .range = VK_WHOLE_SIZE};
		w[i] = (VkWriteDescriptorSet){.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstSet = set,
		                              .dstBinding = i, .descriptorCount = 1,
		                              .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .pBufferInfo = &info[i]};
	}
	if (update) vkx_fn.UpdateDescriptorSets(d, n, w, 0, NULL);
	vkx_fn.CmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
	vkx_fn.CmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &set, 0, NULL);
}

// vkx_cmd_dispatch_groups pushes push_bytes of constants and runs groups workgroups, as a 2-D grid of
// at most 32768 in x: large frames need more groups than one dimension may have.
void vkx_cmd_dispatch_groups(VkCommandBuffer cb, VkPipelineLayout layout, const void *push, uint32_t push_bytes,
                             uint32_t groups) {
	vkx_fn.CmdPushConstants(cb, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, push_bytes, push);
	uint32_t gx = groups < 32768 ? groups : 32768;
	if (gx) vkx_fn.CmdDispatch(cb, gx, (groups + gx - 1) / gx, 1);
}
