// device.c: what a physical device offers, device creation, and the image, view and conversion
// calls whose create infos carry pNext chains (built here on the C stack, never in Go memory).
#include "vkx.h"
#include <stdlib.h>
#include <string.h>

int vkx_ycbcr_feature(VkPhysicalDevice pd, VkBool32 *ycbcr) {
	VkPhysicalDeviceSamplerYcbcrConversionFeatures y = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SAMPLER_YCBCR_CONVERSION_FEATURES};
	VkPhysicalDeviceFeatures2 f = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &y};
	vkx_fn.GetPhysicalDeviceFeatures2(pd, &f);
	*ycbcr = y.samplerYcbcrConversion;
	return 0;
}

int vkx_isq_feature(VkPhysicalDevice pd, VkBool32 *on) {
	VkxInternallySynchronizedQueuesFeatures q = {.sType = VKX_STRUCTURE_TYPE_INTERNALLY_SYNCHRONIZED_QUEUES_FEATURES};
	VkPhysicalDeviceFeatures2 f = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &q};
	vkx_fn.GetPhysicalDeviceFeatures2(pd, &f);
	*on = q.internallySynchronizedQueues;
	return 0;
}

VkQueue vkx_get_device_queue2(VkDevice dev, uint32_t family, uint32_t index, VkDeviceQueueCreateFlags flags) {
	VkDeviceQueueInfo2 qi = {.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_INFO_2, .flags = flags, .queueFamilyIndex = family,
	                         .queueIndex = index};
	VkQueue q = VK_NULL_HANDLE;
	vkx_fn.GetDeviceQueue2(dev, &qi, &q);
	return q;
}

void *vkx_isq_feature_chain(void *next) {
	VkxInternallySynchronizedQueuesFeatures *q = calloc(1, sizeof *q);
	if (!q) return NULL;
	*q = (VkxInternallySynchronizedQueuesFeatures){.sType = VKX_STRUCTURE_TYPE_INTERNALLY_SYNCHRONIZED_QUEUES_FEATURES,
	                                               .pNext = next, .internallySynchronizedQueues = VK_TRUE};
	return q;
}

void vkx_format_properties(VkPhysicalDevice pd, VkFormat fmt, VkFormatFeatureFlags *linear,
                           VkFormatFeatureFlags *optimal, VkFormatFeatureFlags *buffer) {
	VkFormatProperties2 p = {.sType = VK_STRUCTURE_TYPE_FORMAT_PROPERTIES_2};
	vkx_fn.GetPhysicalDeviceFormatProperties2(pd, fmt, &p);
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
	VkResult r = vkx_fn.GetPhysicalDeviceImageFormatProperties2(pd, &info, &p);
	*out = p.imageFormatProperties;
	*combined_count = yp.combinedImageSamplerDescriptorCount;
	*ext_features = ep.externalMemoryProperties.externalMemoryFeatures;
	return r;
}

// vkx_create_device makes a device with queues queues of family (at most VKX_MAX_QUEUES), all of the
// same priority.
VkResult vkx_create_device(VkPhysicalDevice pd, uint32_t family, uint32_t queues, const char *const *exts, uint32_t next,
                           VkBool32 ycbcr, VkDevice *out) {
	float prio[VKX_MAX_QUEUES];
	if (queues < 1) queues = 1;
	if (queues > VKX_MAX_QUEUES) queues = VKX_MAX_QUEUES;
	for (uint32_t i = 0; i < queues; i++) prio[i] = 1.0f;
	VkDeviceQueueCreateInfo q = {.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
	                             .queueFamilyIndex = family, .queueCount = queues, .pQueuePriorities = prio};
	VkPhysicalDeviceSamplerYcbcrConversionFeatures y = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SAMPLER_YCBCR_CONVERSION_FEATURES,
		.samplerYcbcrConversion = ycbcr};
	VkDeviceCreateInfo ci = {.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, .pNext = &y,
	                         .queueCreateInfoCount = 1, .pQueueCreateInfos = &q,
	                         .enabledExtensionCount = next, .ppEnabledExtensionNames = exts};
	return vkx_fn.CreateDevice(pd, &ci, NULL, out);
}

VkResult vkx_create_conversion(VkDevice dev, const VkSamplerYcbcrConversionCreateInfo *info,
                               VkSamplerYcbcrConversion *out) {
	return vkx_fn.CreateSamplerYcbcrConversion(dev, info, NULL, out);
}

void vkx_destroy_conversion(VkDevice dev, VkSamplerYcbcrConversion c) { vkx_fn.DestroySamplerYcbcrConversion(dev, c, NULL); }

void vkx_image_plane_requirements(VkDevice dev, VkImage image, VkImageAspectFlagBits aspect,
                                  VkMemoryRequirements *out) {
	VkImagePlaneMemoryRequirementsInfo plane = {
		.sType = VK_STRUCTURE_TYPE_IMAGE_PLANE_MEMORY_REQUIREMENTS_INFO, .planeAspect = aspect};
	VkImageMemoryRequirementsInfo2 info = {.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_REQUIREMENTS_INFO_2,
	                                       .pNext = aspect ? &plane : NULL, .image = image};
	VkMemoryRequirements2 r = {.sType = VK_STRUCTURE_TYPE_MEMORY_REQUIREMENTS_2};
	vkx_fn.GetImageMemoryRequirements2(dev, &info, &r);
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
	return vkx_fn.BindImageMemory2(dev, n, infos);
}

// vkx_driver_properties fills name (VK_MAX_DRIVER_NAME_SIZE) and info (VK_MAX_DRIVER_INFO_SIZE) from
// VkPhysicalDeviceDriverProperties (Vulkan 1.2, or VK_KHR_driver_properties: the caller checks).
void vkx_driver_properties(VkPhysicalDevice pd, char *name, char *info) {
	VkPhysicalDeviceDriverProperties dp = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES};
	VkPhysicalDeviceProperties2 p = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, .pNext = &dp};
	vkx_fn.GetPhysicalDeviceProperties2(pd, &p);
	memcpy(name, dp.driverName, VK_MAX_DRIVER_NAME_SIZE);
	memcpy(info, dp.driverInfo, VK_MAX_DRIVER_INFO_SIZE);
	name[VK_MAX_DRIVER_NAME_SIZE - 1] = 0;
	info[VK_MAX_DRIVER_INFO_SIZE - 1] = 0;
}

// vkx_pci_bus_info fills out with VkPhysicalDevicePCIBusInfoPropertiesEXT's domain, bus, device and
// function (the caller checks that pd offers VK_EXT_pci_bus_info).
void vkx_pci_bus_info(VkPhysicalDevice pd, uint32_t out[4]) {
	VkPhysicalDevicePCIBusInfoPropertiesEXT pci = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PCI_BUS_INFO_PROPERTIES_EXT};
	VkPhysicalDeviceProperties2 p = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, .pNext = &pci};
	vkx_fn.GetPhysicalDeviceProperties2(pd, &p);
	out[0] = pci.pciDomain, out[1] = pci.pciBus, out[2] = pci.pciDevice, out[3] = pci.pciFunction;
}

VkSamplerYcbcrConversionInfo *vkx_new_conversion_info(VkSamplerYcbcrConversion c) {
	VkSamplerYcbcrConversionInfo *p = calloc(1, sizeof *p);
	if (p) { p->sType = VK_STRUCTURE_TYPE_SAMPLER_YCBCR_CONVERSION_INFO; p->conversion = c; }
	return p;
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
	return vkx_fn.CreateImageView(d, &vi, NULL, out);
}

// vkx_set_hdr_metadata passes an HDR10 display's metadata to one swapchain (VK_EXT_hdr_metadata,
// which vulkan-go does not bind). m: red, green, blue and white xy, then max and min luminance,
// MaxCLL and MaxFALL, in VkHdrMetadataEXT's member order. The entry point is looked up on the
// device each time: it is called once per swapchain, and each device may have its own dispatch.
VkResult vkx_set_hdr_metadata(VkDevice d, VkSwapchainKHR sc, const float m[12]) {
	PFN_vkSetHdrMetadataEXT set = (PFN_vkSetHdrMetadataEXT)vkx_fn.GetDeviceProcAddr(d, "vkSetHdrMetadataEXT");
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
