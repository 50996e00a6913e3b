// commands.c: what per-frame code records, on the C stack: vulkan-go copies a slice of structs (the
// barriers of vkCmdPipelineBarrier, the regions of a copy) into C memory that a finalizer may free
// while the call runs, and allocates on every call (about 5 µs and 18 allocations per
// vk.CmdPipelineBarrier, against 0.5 µs here). Descriptor writes are here too: vkUpdateDescriptorSets
// takes such a slice.
#include "vkx.h"

// vkx_cmd_barrier records one vkCmdPipelineBarrier: a global memory barrier when src_access or
// dst_access is set, and n image barriers (VKX_MAX_IMAGE_BARRIERS at most) on their images' colour
// aspect.
void vkx_cmd_barrier(VkCommandBuffer cb, VkPipelineStageFlags src_stage, VkPipelineStageFlags dst_stage,
                     VkAccessFlags src_access, VkAccessFlags dst_access, const VkxImageBarrier *images, uint32_t n) {
	VkMemoryBarrier mb = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER, .srcAccessMask = src_access,
	                      .dstAccessMask = dst_access};
	VkImageMemoryBarrier ib[VKX_MAX_IMAGE_BARRIERS];
	if (n > VKX_MAX_IMAGE_BARRIERS) n = VKX_MAX_IMAGE_BARRIERS;
	for (uint32_t i = 0; i < n; i++)
		ib[i] = (VkImageMemoryBarrier){.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER,
		                               .srcAccessMask = images[i].src_access, .dstAccessMask = images[i].dst_access,
		                               .oldLayout = images[i].from, .newLayout = images[i].to,
		                               .srcQueueFamilyIndex = images[i].src_family,
		                               .dstQueueFamilyIndex = images[i].dst_family, .image = images[i].image,
		                               .subresourceRange = {.aspectMask = VK_IMAGE_ASPECT_COLOR_BIT, .levelCount = 1,
		                                                    .layerCount = 1}};
	uint32_t nmb = src_access || dst_access ? 1 : 0;
	vkx_fn.CmdPipelineBarrier(cb, src_stage, dst_stage, 0, nmb, &mb, 0, NULL, n, ib);
}

#define MAX_IMAGES 8

// upload_barriers records what every upload is around its copies: before (after == 0), images to
// TRANSFER_DST (contents discarded when from is UNDEFINED); after, images to SHADER_READ_ONLY for the
// fragment or compute shader that converts them.
//
// The last nreaders of the images are not written: they alias the memory the others' copies write
// (ALIAS_BIT plane images). They go from UNDEFINED to SHADER_READ_ONLY before the copies (the whole
// memory is rewritten after it), and the barrier after the copies makes the writes visible to them.
static void upload_barriers(VkCommandBuffer cb, const VkImage *images, uint32_t nimages, uint32_t nreaders,
                            VkImageLayout from, int after) {
	VkImageMemoryBarrier b[MAX_IMAGES];
	if (nimages > MAX_IMAGES)
		nimages = MAX_IMAGES;
	if (nreaders > nimages)
		nreaders = nimages;
	for (uint32_t i = 0; i < nimages; i++) {
		int reader = i >= nimages - nreaders;
		b[i] = (VkImageMemoryBarrier){.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER,
		                              .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
		                              .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED, .image = images[i],
		                              .subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1}};
		if (!after) {
			b[i].dstAccessMask = reader ? 0 : VK_ACCESS_TRANSFER_WRITE_BIT;
			b[i].oldLayout = reader ? VK_IMAGE_LAYOUT_UNDEFINED : from;
			b[i].newLayout = reader ? VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL : VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
		} else {
			b[i].srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
			b[i].dstAccessMask = VK_ACCESS_SHADER_READ_BIT;
			b[i].oldLayout = reader ? VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL : VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
			b[i].newLayout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
		}
	}
	if (!after)
		vkx_fn.CmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, NULL, 0,
		                          NULL, nimages, b);
	else // both conversions read the images: drawn (fragment) and dispatched (compute)
		vkx_fn.CmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT,
		                          VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 0,
		                          NULL, 0, NULL, nimages, b);
}

// vkx_cmd_upload records an upload from buffers: upload_barriers around buffer-to-image copies.
void vkx_cmd_upload(VkCommandBuffer cb, const VkImage *images, uint32_t nimages, uint32_t nreaders,
                    VkImageLayout from, const VkxCopy *copies, uint32_t ncopies, const VkBufferImageCopy *regions) {
	upload_barriers(cb, images, nimages, nreaders, from, 0);
	for (uint32_t i = 0; i < ncopies; i++)
		vkx_fn.CmdCopyBufferToImage(cb, copies[i].buffer, copies[i].image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
		                            copies[i].count, regions + copies[i].first);
	upload_barriers(cb, images, nimages, nreaders, from, 1);
}

// vkx_cmd_upload_image records an upload from another image, src (in TRANSFER_SRC_OPTIMAL):
// upload_barriers around image-to-image copies of planes, copies[i].buffer unused.
void vkx_cmd_upload_image(VkCommandBuffer cb, const VkImage *images, uint32_t nimages, uint32_t nreaders,
                          VkImageLayout from, VkImage src, const VkxCopy *copies, uint32_t ncopies,
                          const VkxPlaneCopy *planes) {
	upload_barriers(cb, images, nimages, nreaders, from, 0);
	for (uint32_t i = 0; i < ncopies; i++) {
		VkImageCopy r[4];
		uint32_t n = copies[i].count < 4 ? copies[i].count : 4;
		for (uint32_t k = 0; k < n; k++) {
			const VkxPlaneCopy *p = &planes[copies[i].first + k];
			r[k] = (VkImageCopy){.srcSubresource = {.aspectMask = p->src_aspect, .layerCount = 1},
			                     .dstSubresource = {.aspectMask = p->dst_aspect, .layerCount = 1},
			                     .extent = {p->width, p->height, 1}};
		}
		vkx_fn.CmdCopyImage(cb, src, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, copies[i].image,
		                    VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, n, r);
	}
	upload_barriers(cb, images, nimages, nreaders, from, 1);
}

// vkx_cmd_copy_image_region copies the w×h rectangle at (sx, sy) of src's colour aspect to (dx, dy) of
// dst's.
void vkx_cmd_copy_image_region(VkCommandBuffer cb, VkImage src, VkImageLayout src_layout, int32_t sx, int32_t sy,
                               VkImage dst, VkImageLayout dst_layout, int32_t dx, int32_t dy, uint32_t w, uint32_t h) {
	VkImageCopy r = {.srcSubresource = {.aspectMask = VK_IMAGE_ASPECT_COLOR_BIT, .layerCount = 1},
	                 .srcOffset = {sx, sy, 0},
	                 .dstSubresource = {.aspectMask = VK_IMAGE_ASPECT_COLOR_BIT, .layerCount = 1},
	                 .dstOffset = {dx, dy, 0},
	                 .extent = {w, h, 1}};
	vkx_fn.CmdCopyImage(cb, src, src_layout, dst, dst_layout, 1, &r);
}

// vkx_cmd_copy_buffer_to_image copies a tightly packed w×h picture at the start of buf into img's
// colour aspect, in layout.
void vkx_cmd_copy_buffer_to_image(VkCommandBuffer cb, VkBuffer buf, VkImage img, VkImageLayout layout, uint32_t w,
                                  uint32_t h) {
	VkBufferImageCopy r = {.imageSubresource = {.aspectMask = VK_IMAGE_ASPECT_COLOR_BIT, .layerCount = 1},
	                       .imageExtent = {w, h, 1}};
	vkx_fn.CmdCopyBufferToImage(cb, buf, img, layout, 1, &r);
}

// vkx_cmd_copy_image_to_buffer copies a w×h image's colour aspect, in layout, to the start of buf,
// tightly packed.
void vkx_cmd_copy_image_to_buffer(VkCommandBuffer cb, VkImage img, VkImageLayout layout, VkBuffer buf, uint32_t w,
                                  uint32_t h) {
	VkBufferImageCopy r = {.imageSubresource = {.aspectMask = VK_IMAGE_ASPECT_COLOR_BIT, .layerCount = 1},
	                       .imageExtent = {w, h, 1}};
	vkx_fn.CmdCopyImageToBuffer(cb, img, layout, buf, 1, &r);
}

void vkx_cmd_copy_buffer(VkCommandBuffer cb, VkBuffer src, VkBuffer dst, VkDeviceSize src_offset,
                         VkDeviceSize dst_offset, VkDeviceSize size) {
	VkBufferCopy r = {.srcOffset = src_offset, .dstOffset = dst_offset, .size = size};
	vkx_fn.CmdCopyBuffer(cb, src, dst, 1, &r);
}

// vkx_cmd_begin_render_pass begins rp on fb over its whole w×h area, clearing its first attachment to
// clear (r, g, b, a) and, when depth is set, its second to depth *depth and stencil 0.
void vkx_cmd_begin_render_pass(VkCommandBuffer cb, VkRenderPass rp, VkFramebuffer fb, uint32_t w, uint32_t h,
                               const float clear[4], const float *depth) {
	VkClearValue cv[2] = {{.color = {.float32 = {clear[0], clear[1], clear[2], clear[3]}}}};
	if (depth) cv[1].depthStencil = (VkClearDepthStencilValue){.depth = *depth};
	VkRenderPassBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO, .renderPass = rp, .framebuffer = fb,
	                            .renderArea = {.extent = {w, h}}, .clearValueCount = depth ? 2 : 1, .pClearValues = cv};
	vkx_fn.CmdBeginRenderPass(cb, &bi, VK_SUBPASS_CONTENTS_INLINE);
}

// vkx_cmd_begin_render_area begins rp on fb over the w×h area at (x, y) with inline contents and no
// clear values: a loading pass that draws into part of its attachment (a wall's tile).
void vkx_cmd_begin_render_area(VkCommandBuffer cb, VkRenderPass rp, VkFramebuffer fb, int32_t x, int32_t y, uint32_t w,
                               uint32_t h) {
	VkRenderPassBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO, .renderPass = rp, .framebuffer = fb,
	                            .renderArea = {.offset = {x, y}, .extent = {w, h}}};
	vkx_fn.CmdBeginRenderPass(cb, &bi, VK_SUBPASS_CONTENTS_INLINE);
}

void vkx_set_viewport(VkCommandBuffer cb, int32_t x, int32_t y, uint32_t w, uint32_t h, int32_t sx, int32_t sy,
                      uint32_t sw, uint32_t sh) {
	VkViewport v = {.x = (float)x, .y = (float)y, .width = (float)w, .height = (float)h, .minDepth = 0, .maxDepth = 1};
	VkRect2D r = {.offset = {sx, sy}, .extent = {sw, sh}};
	vkx_fn.CmdSetViewport(cb, 0, 1, &v);
	vkx_fn.CmdSetScissor(cb, 0, 1, &r);
}

// vkx_write_buffer writes a storage buffer (its whole range) into binding of set.
void vkx_write_buffer(VkDevice d, VkDescriptorSet set, uint32_t binding, VkBuffer buffer) {
	VkDescriptorBufferInfo info = {.buffer = buffer, .offset = 0, .range = VK_WHOLE_SIZE};
	VkWriteDescriptorSet w = {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstSet = set, .dstBinding = binding,
	                          .descriptorCount = 1, .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
	                          .pBufferInfo = &info};
	vkx_fn.UpdateDescriptorSets(d, 1, &w, 0, NULL);
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
	vkx_fn.UpdateDescriptorSets(d, n, writes, 0, NULL);
}

void vkx_write_storage(VkDevice d, VkDescriptorSet set, uint32_t binding, VkImageView view) {
	VkDescriptorImageInfo info = {.imageView = view, .imageLayout = VK_IMAGE_LAYOUT_GENERAL};
	VkWriteDescriptorSet w = {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstSet = set, .dstBinding = binding,
	                          .descriptorCount = 1, .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_IMAGE,
	                          .pImageInfo = &info};
	vkx_fn.UpdateDescriptorSets(d, 1, &w, 0, NULL);
}
