// pass.c: compute passes over storage buffers (the GPU shift of LSB samples, the shader path from the
// planes' buffers): layouts, sets, binding and dispatch, on C structs (doc.go says why); their
// pipelines are vkx_spirv_compute_pipeline's (pipeline.c).
#include "vkx.h"


VkResult vkx_pass_create(VkDevice d, uint32_t nbuffers, uint32_t push_bytes, uint32_t max_sets, VkxPass *s) {
	VkDescriptorSetLayoutBinding b[VKX_PASS_MAX_BUFFERS];
	if (nbuffers > VKX_PASS_MAX_BUFFERS) return VK_ERROR_UNKNOWN;
	for (uint32_t i = 0; i < nbuffers; i++)
		b[i] = (VkDescriptorSetLayoutBinding){.binding = i, .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
		                                      .descriptorCount = 1, .stageFlags = VK_SHADER_STAGE_COMPUTE_BIT};
	s->nbuffers = nbuffers;
	s->push_bytes = push_bytes;
	VkDescriptorSetLayoutCreateInfo li = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
	                                      .bindingCount = nbuffers, .pBindings = b};
	VkResult r = vkx_fn.CreateDescriptorSetLayout(d, &li, NULL, &s->set_layout);
	if (r != VK_SUCCESS) return r;
	VkPushConstantRange pr = {.stageFlags = VK_SHADER_STAGE_COMPUTE_BIT, .size = push_bytes};
	VkPipelineLayoutCreateInfo pi = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, .setLayoutCount = 1,
	                                 .pSetLayouts = &s->set_layout, .pushConstantRangeCount = 1,
	                                 .pPushConstantRanges = &pr};
	if ((r = vkx_fn.CreatePipelineLayout(d, &pi, NULL, &s->layout)) != VK_SUCCESS) return r;
	VkDescriptorPoolSize ps = {.type = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .descriptorCount = nbuffers * max_sets};
	VkDescriptorPoolCreateInfo poi = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
	                                  .flags = VK_DESCRIPTOR_POOL_CREATE_FREE_DESCRIPTOR_SET_BIT,
	                                  .maxSets = max_sets, .poolSizeCount = 1, .pPoolSizes = &ps};
	return vkx_fn.CreateDescriptorPool(d, &poi, NULL, &s->pool);
}

VkResult vkx_pass_alloc_set(VkDevice d, const VkxPass *s, VkDescriptorSet *out) {
	VkDescriptorSetAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
	                                  .descriptorPool = s->pool, .descriptorSetCount = 1,
	                                  .pSetLayouts = &s->set_layout};
	return vkx_fn.AllocateDescriptorSets(d, &ai, out);
}

void vkx_pass_free_set(VkDevice d, const VkxPass *s, VkDescriptorSet set) {
	if (set) vkx_fn.FreeDescriptorSets(d, s->pool, 1, &set);
}

void vkx_pass_destroy(VkDevice d, VkxPass *s) {
	if (s->pool) vkx_fn.DestroyDescriptorPool(d, s->pool, NULL); // frees the sets
	if (s->layout) vkx_fn.DestroyPipelineLayout(d, s->layout, NULL);
	if (s->set_layout) vkx_fn.DestroyDescriptorSetLayout(d, s->set_layout, NULL);
	*s = (VkxPass){0};
}

// vkx_cmd_pass_bind points set at buffers (whole) when update is set, and binds it with pipeline. An
// update needs the set's previous uses to have completed, and recording it again into a command
// buffer that already used it would invalidate that buffer: callers update only when the buffers
// change.
void vkx_cmd_pass_bind(VkDevice d, VkCommandBuffer cb, const VkxPass *s, VkPipeline pipeline, VkDescriptorSet set,
                       const VkBuffer *buffers, int update) {
	VkDescriptorBufferInfo info[VKX_PASS_MAX_BUFFERS];
	VkWriteDescriptorSet w[VKX_PASS_MAX_BUFFERS];
	for (uint32_t i = 0; i < s->nbuffers; i++) {
		info[i] = (VkDescriptorBufferInfo){.buffer = buffers[i], .range = VK_WHOLE_SIZE};
		w[i] = (VkWriteDescriptorSet){.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstSet = set,
		                              .dstBinding = i, .descriptorCount = 1,
		                              .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .pBufferInfo = &info[i]};
	}
	if (update) vkx_fn.UpdateDescriptorSets(d, s->nbuffers, w, 0, NULL);
	vkx_fn.CmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
	vkx_fn.CmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, s->layout, 0, 1, &set, 0, NULL);
}

// vkx_cmd_pass_dispatch pushes the constants and runs groups workgroups, as a 2-D grid of at most
// 32768 in x: large frames need more groups than one dimension may have.
void vkx_cmd_pass_dispatch(VkCommandBuffer cb, const VkxPass *s, const void *push, uint32_t groups) {
	vkx_fn.CmdPushConstants(cb, s->layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, s->push_bytes, push);
	uint32_t gx = groups < 32768 ? groups : 32768;
	if (gx) vkx_fn.CmdDispatch(cb, gx, (groups + gx - 1) / gx, 1);
}
