// pipeline.c: the project's pipelines, built on the C stack (vulkan-go's vkCreate*Pipelines takes a
// slice of create infos whose C copy it frees from a finalizer that may run mid-call: doc.go), and
// the pipeline cache.
#include "vkx.h"


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
	return vkx_fn.CreateGraphicsPipelines(d, cache, 1, &ci, NULL, out);
}

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
	return vkx_fn.CreateComputePipelines(d, cache, 1, &ci, NULL, out);
}

// vkx_spirv_compute_pipeline makes a compute pipeline of layout from size bytes of SPIR-V (C memory,
// 4-byte aligned) through a shader module that lives for the call only.
VkResult vkx_spirv_compute_pipeline(VkDevice d, VkPipelineCache cache, VkPipelineLayout layout, const uint32_t *spv,
                                    size_t size, const int32_t *spec, uint32_t nspec, VkPipeline *out) {
	VkShaderModuleCreateInfo mi = {.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, .codeSize = size,
	                               .pCode = spv};
	VkShaderModule m;
	VkResult r = vkx_fn.CreateShaderModule(d, &mi, NULL, &m);
	if (r != VK_SUCCESS) return r;
	r = vkx_compute_pipeline(d, cache, layout, m, spec, nspec, out);
	vkx_fn.DestroyShaderModule(d, m, NULL);
	return r;
}

void vkx_destroy_pipeline(VkDevice d, VkPipeline p) {
	if (p) vkx_fn.DestroyPipeline(d, p, NULL);
}

// vkx_pipeline_cache creates a pipeline cache, seeded with size bytes of data (none when size is 0).
// The data is C memory: a Go pointer must not be kept in a C struct across the call.
VkResult vkx_pipeline_cache(VkDevice d, const void *data, size_t size, VkPipelineCache *out) {
	VkPipelineCacheCreateInfo ci = {.sType = VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO, .initialDataSize = size,
	                                .pInitialData = size ? data : NULL};
	return vkx_fn.CreatePipelineCache(d, &ci, NULL, out);
}

// vkx_pipeline_cache_data is vkGetPipelineCacheData: the size with data NULL, else up to *size bytes.
VkResult vkx_pipeline_cache_data(VkDevice d, VkPipelineCache cache, size_t *size, void *data) {
	return vkx_fn.GetPipelineCacheData(d, cache, size, data);
}
