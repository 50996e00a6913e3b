#include "vkx.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>

static void *lib;
static PFN_vkGetInstanceProcAddr gipa;
static PFN_vkGetDeviceProcAddr gdpa;

static PFN_vkGetPhysicalDeviceFeatures2 p_features2;
static PFN_vkGetPhysicalDeviceFormatProperties2 p_format_props2;
static PFN_vkGetPhysicalDeviceImageFormatProperties2 p_image_format_props2;
static PFN_vkCreateDevice p_create_device;
static PFN_vkCreateHeadlessSurfaceEXT p_create_headless;
static PFN_vkCreateDebugUtilsMessengerEXT p_create_messenger;
static PFN_vkDestroyDebugUtilsMessengerEXT p_destroy_messenger;
static PFN_vkCreateSamplerYcbcrConversion p_create_conv;
static PFN_vkDestroySamplerYcbcrConversion p_destroy_conv;
static PFN_vkGetImageMemoryRequirements2 p_image_reqs2;
static PFN_vkBindImageMemory2 p_bind_image2;
static PFN_vkGetMemoryHostPointerPropertiesEXT p_host_ptr_props;

int vkx_load(const char *name) {
	if (gipa) return 0;
	lib = dlopen(name, RTLD_NOW | RTLD_LOCAL);
	if (!lib) return -1;
	gipa = (PFN_vkGetInstanceProcAddr)dlsym(lib, "vkGetInstanceProcAddr");
	vkx_calls_load(lib);
	vkx_foreign_load(lib);
	vkx_pass_load(lib);
	return gipa ? 0 : -2;
}

void *vkx_get_instance_proc_addr(void) { return (void *)gipa; }

int vkx_load_instance(VkInstance in) {
	int missing = 0;
#define LOAD(var, name) var = (void *)gipa(in, name); if (!var) missing++;
	LOAD(p_features2, "vkGetPhysicalDeviceFeatures2");
	LOAD(p_format_props2, "vkGetPhysicalDeviceFormatProperties2");
	LOAD(p_image_format_props2, "vkGetPhysicalDeviceImageFormatProperties2");
	LOAD(p_create_device, "vkCreateDevice");
	LOAD(gdpa, "vkGetDeviceProcAddr");
#undef LOAD
	// Optional extensions: absent is not an error here; callers check before use.
	p_create_headless = (void *)gipa(in, "vkCreateHeadlessSurfaceEXT");
	p_create_messenger = (void *)gipa(in, "vkCreateDebugUtilsMessengerEXT");
	p_destroy_messenger = (void *)gipa(in, "vkDestroyDebugUtilsMessengerEXT");
	return missing;
}

void vkx_load_device(VkDevice d) {
	vkx_import_forget_device(d);
	// Core 1.1 functions through the loader's exported trampolines, which dispatch on the device
	// handle: right for every device in the process, whatever layers each was created with.
	p_create_conv = (void *)dlsym(lib, "vkCreateSamplerYcbcrConversion");
	p_destroy_conv = (void *)dlsym(lib, "vkDestroySamplerYcbcrConversion");
	p_image_reqs2 = (void *)dlsym(lib, "vkGetImageMemoryRequirements2");
	p_bind_image2 = (void *)dlsym(lib, "vkBindImageMemory2");
	p_host_ptr_props = (void *)gdpa(d, "vkGetMemoryHostPointerPropertiesEXT");
}

// Validation messages are queued in C so that the callback never re-enters Go.
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
	if (vkx_ffmpeg_known_message(data ? data->pMessageIdName : NULL, text)) return VK_FALSE;
	if (vkx_foreign_known_message(data ? data->pMessageIdName : NULL, text)) return VK_FALSE;
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
	if (!p_create_messenger) return VK_ERROR_EXTENSION_NOT_PRESENT;
	VkDebugUtilsMessengerCreateInfoEXT ci = {
		.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT,
		.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT |
		                   VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
		.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
		               VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
		               VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT,
		.pfnUserCallback = on_message,
	};
	return p_create_messenger(in, &ci, NULL, out);
}

void vkx_destroy_debug_messenger(VkInstance in, VkDebugUtilsMessengerEXT m) {
	if (m && p_destroy_messenger) p_destroy_messenger(in, m, NULL);
}

int vkx_message_count(void) {
	pthread_mutex_lock(&msg_mu);
	int n = msg_count;
	pthread_mutex_unlock(&msg_mu);
	return n;
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

int vkx_ycbcr_feature(VkPhysicalDevice pd, VkBool32 *ycbcr) {
	VkPhysicalDeviceSamplerYcbcrConversionFeatures y = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SAMPLER_YCBCR_CONVERSION_FEATURES};
	VkPhysicalDeviceFeatures2 f = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &y};
	p_features2(pd, &f);
	*ycbcr = y.samplerYcbcrConversion;
	return 0;
}

void vkx_format_properties(VkPhysicalDevice pd, VkFormat fmt, VkFormatFeatureFlags *linear,
                           VkFormatFeatureFlags *optimal, VkFormatFeatureFlags *buffer) {
	VkFormatProperties2 p = {.sType = VK_STRUCTURE_TYPE_FORMAT_PROPERTIES_2};
	p_format_props2(pd, fmt, &p);
	*linear = p.formatProperties.linearTilingFeatures;
	*optimal = p.formatProperties.optimalTilingFeatures;
	*buffer = p.formatProperties.bufferFeatures;
}

VkResult vkx_image_format_properties(VkPhysicalDevice pd, VkFormat fmt, VkImageType type,
                                     VkImageTiling tiling, VkImageUsageFlags usage, VkImageCreateFlags flags,
                                     VkExternalMemoryHandleTypeFlagBits handle, VkImageFormatProperties *out,
                                     uint32_t *combined_count, VkExternalMemoryFeatureFlags *ext_features) {
	VkPhysicalDeviceExternalImageFormatInfo ext = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_IMAGE_FORMAT_INFO, .handleType = handle};
	VkPhysicalDeviceImageFormatInfo2 info = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_IMAGE_FORMAT_INFO_2,
		.pNext = handle ? &ext : NULL,
		.format = fmt, .type = type, .tiling = tiling, .usage = usage, .flags = flags};
	VkSamplerYcbcrConversionImageFormatProperties yp = {
		.sType = VK_STRUCTURE_TYPE_SAMPLER_YCBCR_CONVERSION_IMAGE_FORMAT_PROPERTIES};
	VkExternalImageFormatProperties ep = {
		.sType = VK_STRUCTURE_TYPE_EXTERNAL_IMAGE_FORMAT_PROPERTIES, .pNext = &yp};
	VkImageFormatProperties2 p = {.sType = VK_STRUCTURE_TYPE_IMAGE_FORMAT_PROPERTIES_2,
	                              .pNext = handle ? (void *)&ep : (void *)&yp};
	VkResult r = p_image_format_props2(pd, &info, &p);
	*out = p.imageFormatProperties;
	*combined_count = yp.combinedImageSamplerDescriptorCount;
	*ext_features = ep.externalMemoryProperties.externalMemoryFeatures;
	return r;
}

VkResult vkx_create_device(VkPhysicalDevice pd, uint32_t family, const char *const *exts, uint32_t next,
                           VkBool32 ycbcr, VkDevice *out) {
	float prio = 1.0f;
	VkDeviceQueueCreateInfo q = {.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
	                             .queueFamilyIndex = family, .queueCount = 1, .pQueuePriorities = &prio};
	VkPhysicalDeviceSamplerYcbcrConversionFeatures y = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SAMPLER_YCBCR_CONVERSION_FEATURES,
		.samplerYcbcrConversion = ycbcr};
	VkDeviceCreateInfo ci = {.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, .pNext = &y,
	                         .queueCreateInfoCount = 1, .pQueueCreateInfos = &q,
	                         .enabledExtensionCount = next, .ppEnabledExtensionNames = exts};
	return p_create_device(pd, &ci, NULL, out);
}

VkResult vkx_create_conversion(VkDevice dev, const VkSamplerYcbcrConversionCreateInfo *info,
                               VkSamplerYcbcrConversion *out) {
	return p_create_conv(dev, info, NULL, out);
}

void vkx_destroy_conversion(VkDevice dev, VkSamplerYcbcrConversion c) { p_destroy_conv(dev, c, NULL); }

void vkx_image_plane_requirements(VkDevice dev, VkImage image, VkImageAspectFlagBits aspect,
                                  VkMemoryRequirements *out) {
	VkImagePlaneMemoryRequirementsInfo plane = {
		.sType = VK_STRUCTURE_TYPE_IMAGE_PLANE_MEMORY_REQUIREMENTS_INFO, .planeAspect = aspect};
	VkImageMemoryRequirementsInfo2 info = {.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_REQUIREMENTS_INFO_2,
	                                       .pNext = aspect ? &plane : NULL, .image = image};
	VkMemoryRequirements2 r = {.sType = VK_STRUCTURE_TYPE_MEMORY_REQUIREMENTS_2};
	p_image_reqs2(dev, &info, &r);
	*out = r.memoryRequirements;
}

VkResult vkx_bind_image_planes(VkDevice dev, VkImage image, uint32_t n, const VkDeviceMemory *mem,
                               const VkDeviceSize *offsets, const VkImageAspectFlagBits *aspects) {
	VkBindImagePlaneMemoryInfo planes[3];
	VkBindImageMemoryInfo infos[3];
	if (n > 3) return VK_ERROR_UNKNOWN;
	for (uint32_t i = 0; i < n; i++) {
		planes[i] = (VkBindImagePlaneMemoryInfo){.sType = VK_STRUCTURE_TYPE_BIND_IMAGE_PLANE_MEMORY_INFO,
		                                         .planeAspect = aspects[i]};
		infos[i] = (VkBindImageMemoryInfo){.sType = VK_STRUCTURE_TYPE_BIND_IMAGE_MEMORY_INFO,
		                                   .pNext = aspects[i] ? &planes[i] : NULL,
		                                   .image = image, .memory = mem[i], .memoryOffset = offsets[i]};
	}
	return p_bind_image2(dev, n, infos);
}

VkResult vkx_host_pointer_properties(VkDevice dev, const void *ptr, uint32_t *type_bits) {
	if (!p_host_ptr_props) return VK_ERROR_EXTENSION_NOT_PRESENT;
	VkMemoryHostPointerPropertiesEXT p = {.sType = VK_STRUCTURE_TYPE_MEMORY_HOST_POINTER_PROPERTIES_EXT};
	VkResult r = p_host_ptr_props(dev, VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT, ptr, &p);
	*type_bits = p.memoryTypeBits;
	return r;
}

VkResult vkx_create_headless_surface(VkInstance in, VkSurfaceKHR *out) {
	if (!p_create_headless) return VK_ERROR_EXTENSION_NOT_PRESENT;
	VkHeadlessSurfaceCreateInfoEXT ci = {.sType = VK_STRUCTURE_TYPE_HEADLESS_SURFACE_CREATE_INFO_EXT};
	return p_create_headless(in, &ci, NULL, out);
}

VkSamplerYcbcrConversionInfo *vkx_new_conversion_info(VkSamplerYcbcrConversion c) {
	VkSamplerYcbcrConversionInfo *p = calloc(1, sizeof *p);
	if (p) { p->sType = VK_STRUCTURE_TYPE_SAMPLER_YCBCR_CONVERSION_INFO; p->conversion = c; }
	return p;
}

// Lookups for the other C files of the package (import.c), which cannot see the statics above.
void *vkx_instance_proc(VkInstance in, const char *name) { return gipa ? (void *)gipa(in, name) : NULL; }
void *vkx_device_proc(VkDevice d, const char *name) { return gdpa ? (void *)gdpa(d, name) : NULL; }

// vkx_set_hdr_metadata passes an HDR10 display's metadata to one swapchain (VK_EXT_hdr_metadata,
// which vulkan-go does not bind). m: red, green, blue and white xy, then max and min luminance,
// MaxCLL and MaxFALL, in VkHdrMetadataEXT's member order. The entry point is looked up on the
// device each time: it is called once per swapchain, and each device may have its own dispatch.
VkResult vkx_set_hdr_metadata(VkDevice d, VkSwapchainKHR sc, const float m[12]) {
	PFN_vkSetHdrMetadataEXT set = (PFN_vkSetHdrMetadataEXT)gdpa(d, "vkSetHdrMetadataEXT");
	if (!set) return VK_ERROR_EXTENSION_NOT_PRESENT;
	VkHdrMetadataEXT h = {
		.sType = VK_STRUCTURE_TYPE_HDR_METADATA_EXT,
		.displayPrimaryRed = {m[0], m[1]},
		.displayPrimaryGreen = {m[2], m[3]},
		.displayPrimaryBlue = {m[4], m[5]},
		.whitePoint = {m[6], m[7]},
		.maxLuminance = m[8],
		.minLuminance = m[9],
		.maxContentLightLevel = m[10],
		.maxFrameAverageLightLevel = m[11],
	};
	set(d, 1, &sc, &h);
	return VK_SUCCESS;
}
