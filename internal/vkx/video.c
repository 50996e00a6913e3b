// video.c: the device Vulkan Video decoding runs on (see video.h).
#include "video.h"
#include <stdlib.h>
#include <string.h>

void vkx_video_probe(VkPhysicalDevice pd, VkBool32 video_queue, VkBool32 vm1, VkxVideoProbe *out) {
	*out = (VkxVideoProbe){.decode_family = -1};
	VkPhysicalDeviceProperties p;
	vkx_fn.GetPhysicalDeviceProperties(pd, &p);
	out->api_version = p.apiVersion;

	// The Vulkan 1.2 and 1.3 feature structs are read on a device of that version only.
	if (p.apiVersion >= VK_API_VERSION_1_3) {
		VkPhysicalDeviceVideoMaintenance1FeaturesKHR vm = {
			.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VIDEO_MAINTENANCE_1_FEATURES_KHR};
		VkPhysicalDeviceVulkan13Features f13 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES,
		                                        .pNext = vm1 ? &vm : NULL};
		VkPhysicalDeviceVulkan12Features f12 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
		                                        .pNext = &f13};
		VkPhysicalDeviceVulkan11Features f11 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES,
		                                        .pNext = &f12};
		VkPhysicalDeviceFeatures2 f = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &f11};
		vkx_fn.GetPhysicalDeviceFeatures2(pd, &f);
		out->timeline = f12.timelineSemaphore;
		out->host_query_reset = f12.hostQueryReset;
		out->sync2 = f13.synchronization2;
		out->ycbcr = f11.samplerYcbcrConversion;
		out->video_maintenance1 = vm.videoMaintenance1;
	}

	uint32_t n = 0;
	vkx_fn.GetPhysicalDeviceQueueFamilyProperties2(pd, &n, NULL);
	if (n > VKX_MAX_QUEUE_FAMILIES) n = VKX_MAX_QUEUE_FAMILIES;
	VkQueueFamilyVideoPropertiesKHR vid[VKX_MAX_QUEUE_FAMILIES];
	VkQueueFamilyProperties2 qp[VKX_MAX_QUEUE_FAMILIES];
	for (uint32_t i = 0; i < n; i++) {
		vid[i] = (VkQueueFamilyVideoPropertiesKHR){.sType = VK_STRUCTURE_TYPE_QUEUE_FAMILY_VIDEO_PROPERTIES_KHR};
		// VkQueueFamilyVideoPropertiesKHR is chained only where VK_KHR_video_queue is offered.
		qp[i] = (VkQueueFamilyProperties2){.sType = VK_STRUCTURE_TYPE_QUEUE_FAMILY_PROPERTIES_2,
		                                   .pNext = video_queue ? &vid[i] : NULL};
	}
	vkx_fn.GetPhysicalDeviceQueueFamilyProperties2(pd, &n, qp);
	for (uint32_t i = 0; i < n; i++) {
		if (video_queue && (qp[i].queueFamilyProperties.queueFlags & VK_QUEUE_VIDEO_DECODE_BIT_KHR)) {
			out->decode_family = (int32_t)i;
			out->decode_queues = qp[i].queueFamilyProperties.queueCount;
			out->codec_ops = vid[i].videoCodecOperations;
			break;
		}
	}
}

VkResult vkx_create_device_video(VkPhysicalDevice pd, uint32_t family, uint32_t queues, int32_t decode_family, uint32_t decode_queues,
                                 const char *const *exts, uint32_t next, const VkxVideoFeatures *f, VkDevice *out) {
	float prio[VKX_MAX_QUEUES];
	for (int i = 0; i < VKX_MAX_QUEUES; i++) prio[i] = 1.0f;
	if (decode_queues > VKX_MAX_QUEUES) decode_queues = VKX_MAX_QUEUES;
	if (queues < 1) queues = 1;
	if (queues > VKX_MAX_QUEUES) queues = VKX_MAX_QUEUES;
	VkDeviceQueueCreateInfo q[2] = {
		{.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, .queueFamilyIndex = family, .queueCount = queues,
		 .pQueuePriorities = prio},
		{.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, .queueFamilyIndex = (uint32_t)decode_family,
		 .queueCount = decode_queues, .pQueuePriorities = prio},
	};
	uint32_t nq = decode_family >= 0 && (uint32_t)decode_family != family && decode_queues > 0 ? 2 : 1;
	VkPhysicalDeviceVideoMaintenance1FeaturesKHR vm = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VIDEO_MAINTENANCE_1_FEATURES_KHR,
		.videoMaintenance1 = f->video_maintenance1};
	VkPhysicalDeviceVulkan13Features f13 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES,
	                                        .pNext = f->video_maintenance1 ? &vm : NULL,
	                                        .synchronization2 = f->sync2};
	VkPhysicalDeviceVulkan12Features f12 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
	                                        .pNext = &f13, .timelineSemaphore = f->timeline,
	                                        .hostQueryReset = f->host_query_reset};
	VkPhysicalDeviceVulkan11Features f11 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES,
	                                        .pNext = &f12, .samplerYcbcrConversion = f->ycbcr};
	VkDeviceCreateInfo ci = {.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, .pNext = &f11,
	                         .queueCreateInfoCount = nq, .pQueueCreateInfos = q,
	                         .enabledExtensionCount = next, .ppEnabledExtensionNames = exts};
	return vkx_fn.CreateDevice(pd, &ci, NULL, out);
}

typedef struct {
	VkPhysicalDeviceVulkan11Features f11; // first: the block's address is f11's
	VkPhysicalDeviceVulkan12Features f12;
	VkPhysicalDeviceVulkan13Features f13;
	VkPhysicalDeviceVideoMaintenance1FeaturesKHR vm;
} feature_chain;

void *vkx_video_feature_chain(const VkxVideoFeatures *f, void *next) {
	feature_chain *c = calloc(1, sizeof(*c));
	if (!c) return NULL;
	c->vm = (VkPhysicalDeviceVideoMaintenance1FeaturesKHR){
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VIDEO_MAINTENANCE_1_FEATURES_KHR, .pNext = next,
		.videoMaintenance1 = f->video_maintenance1};
	// The maintenance1 struct only where it is enabled: a layer or driver that predates it must not
	// see it (gpu/video.go, layerKnowsVideoMaintenance1).
	c->f13 = (VkPhysicalDeviceVulkan13Features){.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES,
	                                            .pNext = f->video_maintenance1 ? (void *)&c->vm : next,
	                                            .synchronization2 = f->sync2};
	c->f12 = (VkPhysicalDeviceVulkan12Features){.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
	                                            .pNext = &c->f13, .timelineSemaphore = f->timeline,
	                                            .hostQueryReset = f->host_query_reset};
	c->f11 = (VkPhysicalDeviceVulkan11Features){.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES,
	                                            .pNext = &c->f12, .samplerYcbcrConversion = f->ycbcr};
	return c;
}
