// pass.c: compute passes over storage buffers (the GPU shift of LSB samples, the shader path from the
// planes' buffers). Made and recorded here, on C structs, for the same reason as calls.c: vulkan-go's
// slice arguments may be freed mid-call, and per-frame recording must not allocate.
#include "vkx.h"
#include <dlfcn.h>

static PFN_vkCreateDescriptorSetLayout p_create_set_layout;
static PFN_vkDestroyDescriptorSetLayout p_destroy_set_layout;
static PFN_vkCreatePipelineLayout p_create_pipeline_layout;
static PFN_vkDestroyPipelineLayout p_destroy_pipeline_layout;
static PFN_vkCreateDescriptorPool p_create_pool;
static PFN_vkDestroyDescriptorPool p_destroy_pool;
static PFN_vkAllocateDescriptorSets p_allocate_sets;
static PFN_vkFreeDescriptorSets p_free_sets;
static PFN_vkUpdateDescriptorSets p_update;
static PFN_vkCreateShaderModule p_create_module;
static PFN_vkDestroyShaderModule p_destroy_module;
static PFN_vkDestroyPipeline p_destroy_pipeline;
static PFN_vkCmdBindPipeline p_bind_pipeline;
static PFN_vkCmdBindDescriptorSets p_bind_sets;
static PFN_vkCmdPushConstants p_push;
static PFN_vkCmdDispatch p_dispatch;
static PFN_vkCmdPipelineBarrier p_barrier;

void vkx_pass_load(void *lib) {
#define LOAD(p, name) p = (void *)dlsym(lib, name)
	LOAD(p_create_set_layout, "vkCreateDescriptorSetLayout");
	LOAD(p_destroy_set_layout, "vkDestroyDescriptorSetLayout");
	LOAD(p_create_pipeline_layout, "vkCreatePipelineLayout");
	LOAD(p_destroy_pipeline_layout, "vkDestroyPipelineLayout");
	LOAD(p_create_pool, "vkCreateDescriptorPool");
	LOAD(p_destroy_pool, "vkDestroyDescriptorPool");
	LOAD(p_allocate_sets, "vkAllocateDescriptorSets");
	LOAD(p_free_sets, "vkFreeDescriptorSets");
	LOAD(p_update, "vkUpdateDescriptorSets");
	LOAD(p_create_module, "vkCreateShaderModule");
	LOAD(p_destroy_module, "vkDestroyShaderModule");
	LOAD(p_destroy_pipeline, "vkDestroyPipeline");
	LOAD(p_bind_pipeline, "vkCmdBindPipeline");
	LOAD(p_bind_sets, "vkCmdBindDescriptorSets");
	LOAD(p_push, "vkCmdPushConstants");
	LOAD(p_dispatch, "vkCmdDispatch");
	LOAD(p_barrier, "vkCmdPipelineBarrier");
#undef LOAD
}

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
	VkResult r = p_create_set_layout(d, &li, NULL, &s->set_layout);
	if (r != VK_SUCCESS) return r;
	VkPushConstantRange pr = {.stageFlags = VK_SHADER_STAGE_COMPUTE_BIT, .size = push_bytes};
	VkPipelineLayoutCreateInfo pi = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, .setLayoutCount = 1,
	                                 .pSetLayouts = &s->set_layout, .pushConstantRangeCount = 1,
	                                 .pPushConstantRanges = &pr};
	if ((r = p_create_pipeline_layout(d, &pi, NULL, &s->layout)) != VK_SUCCESS) return r;
	VkDescriptorPoolSize ps = {.type = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .descriptorCount = nbuffers * max_sets};
	VkDescriptorPoolCreateInfo poi = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
	                                  .flags = VK_DESCRIPTOR_POOL_CREATE_FREE_DESCRIPTOR_SET_BIT,
	                                  .maxSets = max_sets, .poolSizeCount = 1, .pPoolSizes = &ps};
	return p_create_pool(d, &poi, NULL, &s->pool);
}

VkResult vkx_pass_pipeline(VkDevice d, VkPipelineCache cache, const VkxPass *s, const uint32_t *spv, size_t size,
                           const int32_t *spec, uint32_t nspec, VkPipeline *out) {
	VkShaderModuleCreateInfo mi = {.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, .codeSize = size,
	                               .pCode = spv};
	VkShaderModule m;
	VkResult r = p_create_module(d, &mi, NULL, &m);
	if (r != VK_SUCCESS) return r;
	r = vkx_compute_pipeline(d, cache, s->layout, m, spec, nspec, out); // calls.c
	p_destroy_module(d, m, NULL);
	return r;
}

void vkx_pass_destroy_pipeline(VkDevice d, VkPipeline p) {
	if (p) p_destroy_pipeline(d, p, NULL);
}

VkResult vkx_pass_alloc_set(VkDevice d, const VkxPass *s, VkDescriptorSet *out) {
	VkDescriptorSetAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
	                                  .descriptorPool = s->pool, .descriptorSetCount = 1,
	                                  .pSetLayouts = &s->set_layout};
	return p_allocate_sets(d, &ai, out);
}

void vkx_pass_free_set(VkDevice d, const VkxPass *s, VkDescriptorSet set) {
	if (set) p_free_sets(d, s->pool, 1, &set);
}

void vkx_pass_destroy(VkDevice d, VkxPass *s) {
	if (s->pool) p_destroy_pool(d, s->pool, NULL); // frees the sets
	if (s->layout) p_destroy_pipeline_layout(d, s->layout, NULL);
	if (s->set_layout) p_destroy_set_layout(d, s->set_layout, NULL);
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
	if (update) p_update(d, s->nbuffers, w, 0, NULL);
	p_bind_pipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
	p_bind_sets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, s->layout, 0, 1, &set, 0, NULL);
}

// vkx_cmd_pass_dispatch pushes the constants and runs groups workgroups, as a 2-D grid of at most
// 32768 in x: large frames need more groups than one dimension may have.
void vkx_cmd_pass_dispatch(VkCommandBuffer cb, const VkxPass *s, const void *push, uint32_t groups) {
	p_push(cb, s->layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, s->push_bytes, push);
	uint32_t gx = groups < 32768 ? groups : 32768;
	if (gx) p_dispatch(cb, gx, (groups + gx - 1) / gx, 1);
}

void vkx_cmd_memory_barrier(VkCommandBuffer cb, VkPipelineStageFlags src_stage, VkAccessFlags src_access,
                            VkPipelineStageFlags dst_stage, VkAccessFlags dst_access) {
	VkMemoryBarrier mb = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER, .srcAccessMask = src_access,
	                      .dstAccessMask = dst_access};
	p_barrier(cb, src_stage, dst_stage, 0, 1, &mb, 0, NULL, 0, NULL);
}
