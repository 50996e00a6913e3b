// shift.c: the compute pass that shifts LSB-aligned samples to the MSB on the GPU (planes: import of
// yuv420p10le-like frames for the sampler path). Made and recorded here, on C structs, for the same
// reason as calls.c: vulkan-go's slice arguments may be freed mid-call, and Load must not allocate.
#include "vkx.h"
#include <dlfcn.h>

static PFN_vkCreateDescriptorSetLayout p_create_set_layout;
static PFN_vkDestroyDescriptorSetLayout p_destroy_set_layout;
static PFN_vkCreatePipelineLayout p_create_pipeline_layout;
static PFN_vkDestroyPipelineLayout p_destroy_pipeline_layout;
static PFN_vkCreateDescriptorPool p_create_pool;
static PFN_vkDestroyDescriptorPool p_destroy_pool;
static PFN_vkAllocateDescriptorSets p_allocate_sets;
static PFN_vkUpdateDescriptorSets p_update;
static PFN_vkCreateShaderModule p_create_module;
static PFN_vkDestroyShaderModule p_destroy_module;
static PFN_vkCreateComputePipelines p_create_compute;
static PFN_vkDestroyPipeline p_destroy_pipeline;
static PFN_vkCmdBindPipeline p_bind_pipeline;
static PFN_vkCmdBindDescriptorSets p_bind_sets;
static PFN_vkCmdPushConstants p_push;
static PFN_vkCmdDispatch p_dispatch;
static PFN_vkCmdPipelineBarrier p_barrier;

void vkx_shift_load(void *lib) {
#define LOAD(p, name) p = (void *)dlsym(lib, name)
	LOAD(p_create_set_layout, "vkCreateDescriptorSetLayout");
	LOAD(p_destroy_set_layout, "vkDestroyDescriptorSetLayout");
	LOAD(p_create_pipeline_layout, "vkCreatePipelineLayout");
	LOAD(p_destroy_pipeline_layout, "vkDestroyPipelineLayout");
	LOAD(p_create_pool, "vkCreateDescriptorPool");
	LOAD(p_destroy_pool, "vkDestroyDescriptorPool");
	LOAD(p_allocate_sets, "vkAllocateDescriptorSets");
	LOAD(p_update, "vkUpdateDescriptorSets");
	LOAD(p_create_module, "vkCreateShaderModule");
	LOAD(p_destroy_module, "vkDestroyShaderModule");
	LOAD(p_create_compute, "vkCreateComputePipelines");
	LOAD(p_destroy_pipeline, "vkDestroyPipeline");
	LOAD(p_bind_pipeline, "vkCmdBindPipeline");
	LOAD(p_bind_sets, "vkCmdBindDescriptorSets");
	LOAD(p_push, "vkCmdPushConstants");
	LOAD(p_dispatch, "vkCmdDispatch");
	LOAD(p_barrier, "vkCmdPipelineBarrier");
#undef LOAD
}

#define SHIFT_BINDINGS 4 // three source planes, one destination

VkResult vkx_shifter_create(VkDevice d, const uint32_t *spv, size_t size, uint32_t push_bytes, VkxShifter *s) {
	VkDescriptorSetLayoutBinding b[SHIFT_BINDINGS];
	for (uint32_t i = 0; i < SHIFT_BINDINGS; i++)
		b[i] = (VkDescriptorSetLayoutBinding){.binding = i, .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
		                                      .descriptorCount = 1, .stageFlags = VK_SHADER_STAGE_COMPUTE_BIT};
	VkDescriptorSetLayoutCreateInfo li = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
	                                      .bindingCount = SHIFT_BINDINGS, .pBindings = b};
	VkResult r = p_create_set_layout(d, &li, NULL, &s->set_layout);
	if (r != VK_SUCCESS) return r;
	VkPushConstantRange pr = {.stageFlags = VK_SHADER_STAGE_COMPUTE_BIT, .size = push_bytes};
	VkPipelineLayoutCreateInfo pi = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, .setLayoutCount = 1,
	                                 .pSetLayouts = &s->set_layout, .pushConstantRangeCount = 1,
	                                 .pPushConstantRanges = &pr};
	if ((r = p_create_pipeline_layout(d, &pi, NULL, &s->layout)) != VK_SUCCESS) return r;
	VkDescriptorPoolSize ps = {.type = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .descriptorCount = SHIFT_BINDINGS};
	VkDescriptorPoolCreateInfo poi = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, .maxSets = 1,
	                                  .poolSizeCount = 1, .pPoolSizes = &ps};
	if ((r = p_create_pool(d, &poi, NULL, &s->pool)) != VK_SUCCESS) return r;
	VkDescriptorSetAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
	                                  .descriptorPool = s->pool, .descriptorSetCount = 1,
	                                  .pSetLayouts = &s->set_layout};
	if ((r = p_allocate_sets(d, &ai, &s->set)) != VK_SUCCESS) return r;
	VkShaderModuleCreateInfo mi = {.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, .codeSize = size,
	                               .pCode = spv};
	VkShaderModule m;
	if ((r = p_create_module(d, &mi, NULL, &m)) != VK_SUCCESS) return r;
	VkComputePipelineCreateInfo ci = {
	    .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
	    .stage = {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, .stage = VK_SHADER_STAGE_COMPUTE_BIT,
	              .module = m, .pName = "main"},
	    .layout = s->layout};
	r = p_create_compute(d, VK_NULL_HANDLE, 1, &ci, NULL, &s->pipeline);
	p_destroy_module(d, m, NULL);
	return r;
}

void vkx_shifter_destroy(VkDevice d, VkxShifter *s) {
	if (s->pipeline) p_destroy_pipeline(d, s->pipeline, NULL);
	if (s->pool) p_destroy_pool(d, s->pool, NULL); // frees the set
	if (s->layout) p_destroy_pipeline_layout(d, s->layout, NULL);
	if (s->set_layout) p_destroy_set_layout(d, s->set_layout, NULL);
	*s = (VkxShifter){0};
}

// vkx_cmd_shift points the set at this frame's source buffers (the previous use of the set has
// completed: the caller waits for it), dispatches one pass per plane and makes the writes visible
// to the copies that follow.
void vkx_cmd_shift(VkDevice d, VkCommandBuffer cb, const VkxShifter *s, const VkBuffer *src, VkBuffer dst,
                   const VkxShiftPlane *planes, uint32_t nplanes, uint32_t push_bytes, uint32_t group) {
	VkDescriptorBufferInfo info[SHIFT_BINDINGS];
	VkWriteDescriptorSet w[SHIFT_BINDINGS];
	for (uint32_t i = 0; i < SHIFT_BINDINGS; i++) {
		info[i] = (VkDescriptorBufferInfo){.buffer = i < 3 ? src[i] : dst, .range = VK_WHOLE_SIZE};
		w[i] = (VkWriteDescriptorSet){.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstSet = s->set,
		                              .dstBinding = i, .descriptorCount = 1,
		                              .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .pBufferInfo = &info[i]};
	}
	p_update(d, SHIFT_BINDINGS, w, 0, NULL);
	p_bind_pipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, s->pipeline);
	p_bind_sets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, s->layout, 0, 1, &s->set, 0, NULL);
	for (uint32_t i = 0; i < nplanes; i++) {
		const VkxShiftPlane *p = &planes[i];
		p_push(cb, s->layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, push_bytes, p->params);
		uint32_t words = (p->params[6] * p->params[7] + 1) / 2; // dstWidth × dstHeight samples, two a word
		uint32_t groups = (words + group - 1) / group;
		uint32_t gx = groups < 32768 ? groups : 32768;
		p_dispatch(cb, gx, (groups + gx - 1) / gx, 1);
	}
	VkMemoryBarrier mb = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER, .srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT,
	                      .dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT};
	p_barrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 1, &mb, 0, NULL, 0, NULL);
}
