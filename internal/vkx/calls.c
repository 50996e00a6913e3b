// calls.c: Vulkan 1.0 calls that vulkan-go makes unsafe. Its wrappers for functions taking a slice of
// structs (vkQueueSubmit, vkCreateGraphicsPipelines, vkUpdateDescriptorSets, vkCmdSetViewport, ...)
// copy the slice to C memory and free it from a finalizer that can run while the call is still in
// the driver: a use-after-free seen as crashes inside the validation layer. These take plain values
// and build the structs on the C stack. They call the loader's exported trampolines.
#include "vkx.h"
#include "video.h"
#include <dlfcn.h>

static PFN_vkQueueSubmit p_submit;
static PFN_vkCreateGraphicsPipelines p_create_pipelines;
static PFN_vkUpdateDescriptorSets p_update_sets;
static PFN_vkCmdSetViewport p_set_viewport;
static PFN_vkCmdSetScissor p_set_scissor;
static PFN_vkCreateComputePipelines p_create_compute;
static PFN_vkCreatePipelineCache p_create_cache;
static PFN_vkGetPipelineCacheData p_cache_data;
static PFN_vkDeviceWaitIdle p_wait_idle;

void vkx_calls_load(void *lib) {
	p_submit = (PFN_vkQueueSubmit)dlsym(lib, "vkQueueSubmit");
	p_create_pipelines = (PFN_vkCreateGraphicsPipelines)dlsym(lib, "vkCreateGraphicsPipelines");
	p_update_sets = (PFN_vkUpdateDescriptorSets)dlsym(lib, "vkUpdateDescriptorSets");
	p_set_viewport = (PFN_vkCmdSetViewport)dlsym(lib, "vkCmdSetViewport");
	p_set_scissor = (PFN_vkCmdSetScissor)dlsym(lib, "vkCmdSetScissor");
	p_create_compute = (PFN_vkCreateComputePipelines)dlsym(lib, "vkCreateComputePipelines");
	p_create_cache = (PFN_vkCreatePipelineCache)dlsym(lib, "vkCreatePipelineCache");
	p_cache_data = (PFN_vkGetPipelineCacheData)dlsym(lib, "vkGetPipelineCacheData");
	p_wait_idle = (PFN_vkDeviceWaitIdle)dlsym(lib, "vkDeviceWaitIdle");
}

VkResult vkx_queue_submit(VkQueue q, VkCommandBuffer cb, VkSemaphore wait, VkPipelineStageFlags stage,
                          VkSemaphore signal, VkFence fence) {
	VkSubmitInfo si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1, .pCommandBuffers = &cb};
	if (wait) {
		si.waitSemaphoreCount = 1;
		si.pWaitSemaphores = &wait;
		si.pWaitDstStageMask = &stage;
	}
	if (signal) {
		si.signalSemaphoreCount = 1;
		si.pSignalSemaphores = &signal;
	}
	return vkx_submit_locked(q, &si, fence);
}

VkResult vkx_submit_locked(VkQueue q, const VkSubmitInfo *si, VkFence fence) { return vkx_submit_locked_n(q, 1, si, fence); }

VkResult vkx_submit_locked_n(VkQueue q, uint32_t n, const VkSubmitInfo *si, VkFence fence) {
	// The queue may be shared with FFmpeg's decoder threads (video.h): vkQueueSubmit needs the
	// queue externally synchronized (Vulkan spec, "Threading Behavior").
	vkx_queue_lock_handle(q);
	VkResult r = p_submit(q, n, si, fence);
	vkx_queue_unlock_handle(q);
	return r;
}

static VkResult graphics_pipeline(VkDevice d, VkPipelineCache cache, VkPipelineLayout layout, VkRenderPass rp,
                                  VkShaderModule vs, VkShaderModule fs, const int32_t *spec, uint32_t nspec, int blend,
                                  VkPipeline *out);

VkResult vkx_fullscreen_pipeline(VkDevice d, VkPipelineCache cache, VkPipelineLayout layout, VkRenderPass rp,
                                 VkShaderModule vs, VkShaderModule fs, const int32_t *spec, uint32_t nspec,
                                 VkPipeline *out) {
	return graphics_pipeline(d, cache, layout, rp, vs, fs, spec, nspec, 0, out);
}

// vkx_blended_pipeline: the same shape with "over" blending of straight alpha (colour: src·a +
// dst·(1−a); alpha: src + dst·(1−a)), for what is drawn on top of the video (the on-screen display).
VkResult vkx_blended_pipeline(VkDevice d, VkPipelineCache cache, VkPipelineLayout layout, VkRenderPass rp,
                              VkShaderModule vs, VkShaderModule fs, VkPipeline *out) {
	return graphics_pipeline(d, cache, layout, rp, vs, fs, NULL, 0, 1, out);
}

// vkx_write_buffer writes a storage buffer (its whole range) into binding of set.
void vkx_write_buffer(VkDevice d, VkDescriptorSet set, uint32_t binding, VkBuffer buffer) {
	VkDescriptorBufferInfo info = {.buffer = buffer, .offset = 0, .range = VK_WHOLE_SIZE};
	VkWriteDescriptorSet w = {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstSet = set, .dstBinding = binding,
	                          .descriptorCount = 1, .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
	                          .pBufferInfo = &info};
	p_update_sets(d, 1, &w, 0, NULL);
}

static VkResult graphics_pipeline(VkDevice d, VkPipelineCache cache, VkPipelineLayout layout, VkRenderPass rp,
                                  VkShaderModule vs, VkShaderModule fs, const int32_t *spec, uint32_t nspec, int blend,
                                  VkPipeline *out) {
	VkSpecializationMapEntry entries[32];
	if (nspec > 32) return VK_ERROR_UNKNOWN;
	for (uint32_t i = 0; i < nspec; i++)
		entries[i] = (VkSpecializationMapEntry){.constantID = i, .offset = 4 * i, .size = 4};
	VkSpecializationInfo si = {.mapEntryCount = nspec, .pMapEntries = entries, .dataSize = 4 * nspec, .pData = spec};
	VkPipelineShaderStageCreateInfo stages[2] = {
		{.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, .stage = VK_SHADER_STAGE_VERTEX_BIT,
		 .module = vs, .pName = "main"},
		{.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, .stage = VK_SHADER_STAGE_FRAGMENT_BIT,
		 .module = fs, .pName = "main", .pSpecializationInfo = nspec ? &si : NULL},
	};
	VkPipelineVertexInputStateCreateInfo vi = {.sType = VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
	VkPipelineInputAssemblyStateCreateInfo ia = {.sType = VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO,
	                                             .topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST};
	VkPipelineViewportStateCreateInfo vp = {.sType = VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO,
	                                        .viewportCount = 1, .scissorCount = 1};
	VkPipelineRasterizationStateCreateInfo rs = {.sType = VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO,
	                                             .polygonMode = VK_POLYGON_MODE_FILL, .cullMode = VK_CULL_MODE_NONE,
	                                             .frontFace = VK_FRONT_FACE_COUNTER_CLOCKWISE, .lineWidth = 1};
	VkPipelineMultisampleStateCreateInfo ms = {.sType = VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO,
	                                           .rasterizationSamples = VK_SAMPLE_COUNT_1_BIT};
	VkPipelineColorBlendAttachmentState att = {.colorWriteMask = VK_COLOR_COMPONENT_R_BIT | VK_COLOR_COMPONENT_G_BIT |
	                                                             VK_COLOR_COMPONENT_B_BIT | VK_COLOR_COMPONENT_A_BIT};
	if (blend) {
		att.blendEnable = VK_TRUE;
		att.srcColorBlendFactor = VK_BLEND_FACTOR_SRC_ALPHA;
		att.dstColorBlendFactor = VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA;
		att.colorBlendOp = VK_BLEND_OP_ADD;
		att.srcAlphaBlendFactor = VK_BLEND_FACTOR_ONE;
		att.dstAlphaBlendFactor = VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA;
		att.alphaBlendOp = VK_BLEND_OP_ADD;
	}
	VkPipelineColorBlendStateCreateInfo cb = {.sType = VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO,
	                                          .attachmentCount = 1, .pAttachments = &att};
	VkDynamicState dyn[2] = {VK_DYNAMIC_STATE_VIEWPORT, VK_DYNAMIC_STATE_SCISSOR};
	VkPipelineDynamicStateCreateInfo ds = {.sType = VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO,
	                                       .dynamicStateCount = 2, .pDynamicStates = dyn};
	VkGraphicsPipelineCreateInfo ci = {.sType = VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO, .stageCount = 2,
	                                   .pStages = stages, .pVertexInputState = &vi, .pInputAssemblyState = &ia,
	                                   .pViewportState = &vp, .pRasterizationState = &rs, .pMultisampleState = &ms,
	                                   .pColorBlendState = &cb, .pDynamicState = &ds, .layout = layout,
	                                   .renderPass = rp};
	return p_create_pipelines(d, cache, 1, &ci, NULL, out);
}

void vkx_write_images(VkDevice d, VkDescriptorSet set, const VkImageView *views, uint32_t n, VkSampler sampler,
                      VkImageLayout layout) {
	VkDescriptorImageInfo infos[8];
	VkWriteDescriptorSet writes[8];
	if (n > 8) n = 8;
	for (uint32_t i = 0; i < n; i++) {
		infos[i] = (VkDescriptorImageInfo){.sampler = sampler, .imageView = views[i], .imageLayout = layout};
		writes[i] = (VkWriteDescriptorSet){.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstSet = set,
		                                   .dstBinding = i, .descriptorCount = 1,
		                                   .descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
		                                   .pImageInfo = &infos[i]};
	}
	p_update_sets(d, n, writes, 0, NULL);
}

void vkx_set_viewport(VkCommandBuffer cb, int32_t x, int32_t y, uint32_t w, uint32_t h, int32_t sx, int32_t sy,
                      uint32_t sw, uint32_t sh) {
	VkViewport v = {.x = (float)x, .y = (float)y, .width = (float)w, .height = (float)h, .minDepth = 0, .maxDepth = 1};
	VkRect2D r = {.offset = {sx, sy}, .extent = {sw, sh}};
	p_set_viewport(cb, 0, 1, &v);
	p_set_scissor(cb, 0, 1, &r);
}


VkResult vkx_compute_pipeline(VkDevice d, VkPipelineCache cache, VkPipelineLayout layout, VkShaderModule cs,
                              const int32_t *spec, uint32_t nspec, VkPipeline *out) {
	VkSpecializationMapEntry entries[32];
	if (nspec > 32) return VK_ERROR_UNKNOWN;
	for (uint32_t i = 0; i < nspec; i++)
		entries[i] = (VkSpecializationMapEntry){.constantID = i, .offset = 4 * i, .size = 4};
	VkSpecializationInfo si = {.mapEntryCount = nspec, .pMapEntries = entries, .dataSize = 4 * nspec, .pData = spec};
	VkComputePipelineCreateInfo ci = {
		.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
		.stage = {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, .stage = VK_SHADER_STAGE_COMPUTE_BIT,
		          .module = cs, .pName = "main", .pSpecializationInfo = nspec ? &si : NULL},
		.layout = layout};
	return p_create_compute(d, cache, 1, &ci, NULL, out);
}

void vkx_write_storage(VkDevice d, VkDescriptorSet set, uint32_t binding, VkImageView view) {
	VkDescriptorImageInfo info = {.imageView = view, .imageLayout = VK_IMAGE_LAYOUT_GENERAL};
	VkWriteDescriptorSet w = {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstSet = set, .dstBinding = binding,
	                          .descriptorCount = 1, .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_IMAGE,
	                          .pImageInfo = &info};
	p_update_sets(d, 1, &w, 0, NULL);
}

// vkx_pipeline_cache creates a pipeline cache, seeded with size bytes of data (none when size is 0).
// The data is C memory: a Go pointer must not be kept in a C struct across the call.
VkResult vkx_pipeline_cache(VkDevice d, const void *data, size_t size, VkPipelineCache *out) {
	VkPipelineCacheCreateInfo ci = {.sType = VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO, .initialDataSize = size,
	                                .pInitialData = size ? data : NULL};
	return p_create_cache(d, &ci, NULL, out);
}

// vkx_pipeline_cache_data is vkGetPipelineCacheData: the size with data NULL, else up to *size bytes.
VkResult vkx_pipeline_cache_data(VkDevice d, VkPipelineCache cache, size_t *size, void *data) {
	return p_cache_data(d, cache, size, data);
}

// vkx_device_wait_idle is vkDeviceWaitIdle with every queue lock held: the spec makes host access to
// all of the device's queues externally synchronized for that call (vkDeviceWaitIdle, "Host
// Synchronization"), and FFmpeg's threads may be submitting to any of them (its decode queues
// included).
VkResult vkx_device_wait_idle(VkDevice dev) {
	if (!p_wait_idle) return VK_ERROR_INITIALIZATION_FAILED;
	vkx_queue_lock_all();
	VkResult r = p_wait_idle(dev);
	vkx_queue_unlock_all();
	return r;
}
