// messages.c: validation messages, queued in C so that the layer's callback never re-enters Go, and
// the two messages this layer version reports about FFmpeg's own Vulkan use, which are left out
// instead of failing the run (each filter says exactly which).
#include "vkx.h"
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int ffmpeg_known_message(const char *id, const char *text);
static int foreign_known_message(const char *id, const char *text);

static pthread_mutex_t msg_mu = PTHREAD_MUTEX_INITIALIZER;
static char *msg_buf;
static size_t msg_len, msg_cap;
static int msg_count, msg_errors;

static VKAPI_ATTR VkBool32 VKAPI_CALL on_message(VkDebugUtilsMessageSeverityFlagBitsEXT sev,
                                                 VkDebugUtilsMessageTypeFlagsEXT type,
                                                 const VkDebugUtilsMessengerCallbackDataEXT *data, void *user) {
	(void)type; (void)user;
	const char *level = sev >= VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT ? "error" : "warning";
	const char *text = data && data->pMessage ? data->pMessage : "(no message)";
	if (ffmpeg_known_message(data ? data->pMessageIdName : NULL, text)) return VK_FALSE;
	if (foreign_known_message(data ? data->pMessageIdName : NULL, text)) return VK_FALSE;
	size_t need = strlen(level) + strlen(text) + 4;
	pthread_mutex_lock(&msg_mu);
	if (msg_len + need > msg_cap) {
		size_t cap = (msg_cap + need) * 2;
		char *b = realloc(msg_buf, cap);
		if (b) { msg_buf = b; msg_cap = cap; }
	}
	if (msg_len + need <= msg_cap) {
		msg_len += (size_t)snprintf(msg_buf + msg_len, need, "%s: %s", level, text) + 1;
		msg_count++;
		if (sev >= VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT) msg_errors++;
	}
	pthread_mutex_unlock(&msg_mu);
	return VK_FALSE;
}

VkResult vkx_create_debug_messenger(VkInstance in, VkDebugUtilsMessengerEXT *out) {
	if (!vkx_instance_ext.CreateDebugUtilsMessengerEXT) return VK_ERROR_EXTENSION_NOT_PRESENT;
	VkDebugUtilsMessengerCreateInfoEXT ci = {
		.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT,
		.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT |
		                   VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
		.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
		               VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
		               VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT,
		.pfnUserCallback = on_message,
	};
	return vkx_instance_ext.CreateDebugUtilsMessengerEXT(in, &ci, NULL, out);
}

void vkx_destroy_debug_messenger(VkInstance in, VkDebugUtilsMessengerEXT m) {
	if (m && vkx_instance_ext.DestroyDebugUtilsMessengerEXT) vkx_instance_ext.DestroyDebugUtilsMessengerEXT(in, m, NULL);
}

int vkx_take_messages(char *buf, int cap, int *count, int *errors) {
	pthread_mutex_lock(&msg_mu);
	int need = (int)msg_len;
	if (buf && cap >= need) {
		memcpy(buf, msg_buf, msg_len);
		*count = msg_count;
		*errors = msg_errors;
		msg_len = 0; msg_count = 0; msg_errors = 0;
	}
	pthread_mutex_unlock(&msg_mu);
	return need;
}

// FFmpeg 7.1's ff_vk_load_props (libavutil/vulkan.c) chains VkPhysicalDeviceCooperativeMatrixProperties-
// KHR (VK_STRUCTURE_TYPE 1000506002) into vkGetPhysicalDeviceProperties2 whatever the device offers;
// the validation layer carried here (1.3.239) predates that struct (VK_KHR_cooperative_matrix, header
// 1.3.255) and reports it as unknown. Nothing else in the process chains it. Exactly that message is
// left out here instead of failing the run; any other message from FFmpeg's calls still does.
static int ffmpeg_known_message(const char *id, const char *text) {
	if (id && text && strcmp(id, "VUID-VkPhysicalDeviceProperties2-pNext-pNext") == 0 &&
	    strstr(text, "vkGetPhysicalDeviceProperties2: pProperties->pNext chain includes a structure with unknown "
	                 "VkStructureType (1000506002)")) {
		return 1;
	}
	return 0;
}

// The validation layer carried here (1.3.239) reports the first use of each image FFmpeg 7.1 creates
// in its Vulkan frames as if FFmpeg's preparation of the image (prepare_frame: one
// vkCmdPipelineBarrier2 from UNDEFINED on the COLOR aspect of the multi-planar image, submitted
// before the image is handed out) had not happened: the next command buffer that uses a plane of
// it "expects VkImage ... to be in layout X--instead, current layout is VK_IMAGE_LAYOUT_UNDEFINED",
// FFmpeg's own upload as much as the toolkit's barrier. Exactly that message, for an image
// registered as FFmpeg's (vkx_foreign_image), is left out instead of failing the run; any other
// message about these images still fails it.
#define MAX_FOREIGN 256
static uint64_t foreign_images[MAX_FOREIGN];
static int nforeign;
static pthread_mutex_t foreign_mu = PTHREAD_MUTEX_INITIALIZER;

void vkx_foreign_image(uint64_t img) {
	pthread_mutex_lock(&foreign_mu);
	int i = 0;
	while (i < nforeign && foreign_images[i] != img) i++;
	if (i == nforeign) foreign_images[nforeign++ % MAX_FOREIGN] = img;
	if (nforeign > MAX_FOREIGN) nforeign = MAX_FOREIGN;
	pthread_mutex_unlock(&foreign_mu);
}

static int foreign_known_message(const char *id, const char *text) {
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
	return found;
}
