// foreign.c: what sampling an image another library created and synchronizes (FFmpeg's AVVkFrame)
// needs beyond the toolkit's own images: submissions that wait on and signal timeline semaphores,
// views restricted to sampling, and one barrier or plane copy built on the C stack.
#include "vkx.h"
#include "video.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static PFN_vkCreateImageView f_create_view;
static PFN_vkCmdPipelineBarrier f_barrier;
static PFN_vkCmdCopyImage f_copy_image;

void vkx_foreign_load(void *lib) {
	f_create_view = (PFN_vkCreateImageView)dlsym(lib, "vkCreateImageView");
	f_barrier = (PFN_vkCmdPipelineBarrier)dlsym(lib, "vkCmdPipelineBarrier");
	f_copy_image = (PFN_vkCmdCopyImage)dlsym(lib, "vkCmdCopyImage");
}

VkResult vkx_queue_submit_batches(VkQueue q, const VkxBatch *b, uint32_t n, VkFence fence) {
	// Timeline values for every semaphore of each batch; those of binary semaphores are ignored
	// (Vulkan spec, VkTimelineSemaphoreSubmitInfo).
	VkTimelineSemaphoreSubmitInfo tl[VKX_MAX_BATCHES];
	VkSubmitInfo si[VKX_MAX_BATCHES];
	if (n > VKX_MAX_BATCHES) return VK_ERROR_INITIALIZATION_FAILED;
	for (uint32_t i = 0; i < n; i++) {
		tl[i] = (VkTimelineSemaphoreSubmitInfo){.sType = VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO,
		                                        .waitSemaphoreValueCount = b[i].nwait, .pWaitSemaphoreValues = b[i].wait_value,
		                                        .signalSemaphoreValueCount = b[i].nsignal, .pSignalSemaphoreValues = b[i].signal_value};
		si[i] = (VkSubmitInfo){.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .pNext = &tl[i], .commandBufferCount = 1,
		                       .pCommandBuffers = &b[i].cb, .waitSemaphoreCount = b[i].nwait, .pWaitSemaphores = b[i].wait,
		                       .pWaitDstStageMask = b[i].stage, .signalSemaphoreCount = b[i].nsignal,
		                       .pSignalSemaphores = b[i].signal};
	}
	return vkx_submit_locked_n(q, n, si, fence);
}

VkResult vkx_create_view(VkDevice d, VkImage img, VkFormat format, VkImageAspectFlags aspect,
                         VkSamplerYcbcrConversion conv, VkImageUsageFlags usage, VkImageView *out) {
	VkSamplerYcbcrConversionInfo ci = {.sType = VK_STRUCTURE_TYPE_SAMPLER_YCBCR_CONVERSION_INFO, .conversion = conv};
	VkImageViewUsageCreateInfo u = {.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_USAGE_CREATE_INFO,
	                                .pNext = conv ? &ci : NULL, .usage = usage};
	VkImageViewCreateInfo vi = {
		.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO, .pNext = &u, .image = img,
		.viewType = VK_IMAGE_VIEW_TYPE_2D, .format = format,
		.subresourceRange = {.aspectMask = aspect, .levelCount = 1, .layerCount = 1}};
	return f_create_view(d, &vi, NULL, out);
}

void vkx_cmd_image_barrier(VkCommandBuffer cb, VkImage img, VkImageLayout from, VkImageLayout to,
                           VkAccessFlags src_access, VkAccessFlags dst_access, VkPipelineStageFlags src_stage,
                           VkPipelineStageFlags dst_stage, uint32_t src_family, uint32_t dst_family) {
	VkImageMemoryBarrier b = {.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER, .srcAccessMask = src_access,
	                          .dstAccessMask = dst_access, .oldLayout = from, .newLayout = to,
	                          .srcQueueFamilyIndex = src_family, .dstQueueFamilyIndex = dst_family, .image = img,
	                          .subresourceRange = {.aspectMask = VK_IMAGE_ASPECT_COLOR_BIT, .levelCount = 1,
	                                               .layerCount = 1}};
	f_barrier(cb, src_stage, dst_stage, 0, 0, NULL, 0, NULL, 1, &b);
}

void vkx_cmd_copy_planes(VkCommandBuffer cb, VkImage src, VkImage dst, const VkxPlaneCopy *p, uint32_t n) {
	VkImageCopy r[4];
	if (n > 4) n = 4;
	for (uint32_t i = 0; i < n; i++) {
		r[i] = (VkImageCopy){
			.srcSubresource = {.aspectMask = p[i].src_aspect, .layerCount = 1},
			.dstSubresource = {.aspectMask = p[i].dst_aspect, .layerCount = 1},
			.extent = {p[i].width, p[i].height, 1}};
	}
	f_copy_image(cb, src, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, dst, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, n, r);
}

// The validation layer carried here (1.3.239) reports the first use of each image FFmpeg 7.1 creates
// in its Vulkan frames as if FFmpeg's preparation of the image (prepare_frame: one
// vkCmdPipelineBarrier2 from UNDEFINED on the COLOR aspect of the multi-planar image, submitted
// before the image is handed out) had not happened: the next command buffer that uses a plane of
// it "expects VkImage ... to be in layout X--instead, current layout is VK_IMAGE_LAYOUT_UNDEFINED",
// FFmpeg's own upload as much as the toolkit's barrier. Exactly that message, for an image
// registered as FFmpeg's (vkx_foreign_image), is counted instead of failing the run; any other
// message about these images still fails it.
#define MAX_FOREIGN 256
static uint64_t foreign_images[MAX_FOREIGN];
static int nforeign, foreign_known;
static pthread_mutex_t foreign_mu = PTHREAD_MUTEX_INITIALIZER;

void vkx_foreign_image(uint64_t img) {
	pthread_mutex_lock(&foreign_mu);
	int i = 0;
	while (i < nforeign && foreign_images[i] != img) i++;
	if (i == nforeign) foreign_images[nforeign++ % MAX_FOREIGN] = img;
	if (nforeign > MAX_FOREIGN) nforeign = MAX_FOREIGN;
	pthread_mutex_unlock(&foreign_mu);
}

int vkx_foreign_known_message(const char *id, const char *text) {
	if (!id || !text || strcmp(id, "UNASSIGNED-CoreValidation-DrawState-InvalidImageLayout") != 0 ||
	    !strstr(text, "--instead, current layout is VK_IMAGE_LAYOUT_UNDEFINED."))
		return 0;
	const char *p = strstr(text, " expects VkImage 0x");
	if (!p) return 0;
	uint64_t img = strtoull(p + strlen(" expects VkImage 0x"), NULL, 16);
	int found = 0;
	pthread_mutex_lock(&foreign_mu);
	for (int i = 0; i < nforeign; i++) found |= foreign_images[i] == img;
	pthread_mutex_unlock(&foreign_mu);
	if (found) __atomic_add_fetch(&foreign_known, 1, __ATOMIC_RELAXED);
	return found;
}

int vkx_foreign_known_count(void) { return __atomic_load_n(&foreign_known, __ATOMIC_RELAXED); }
