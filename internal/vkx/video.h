// video.h: what Vulkan Video decoding needs from the device (VK_KHR_video_queue and friends, the
// Vulkan 1.3 features FFmpeg's hwcontext_vulkan.h asks of a user-created device) and its creation.
// Compiled against the Vulkan headers FFmpeg was built with (ycbcrkit-vulkan-headers), which carry the
// video structs.
#ifndef YCBCRKIT_VKX_VIDEO_H
#define YCBCRKIT_VKX_VIDEO_H
#include "vkx.h"

// VkxVideoProbe is what a physical device offers for decoding.
typedef struct {
	uint32_t api_version;
	int32_t decode_family;   // -1: no queue family with VK_QUEUE_VIDEO_DECODE_BIT_KHR
	uint32_t decode_queues;  // its queueCount
	uint32_t codec_ops;      // its VkQueueFamilyVideoPropertiesKHR::videoCodecOperations
	VkBool32 timeline, sync2, ycbcr, video_maintenance1, host_query_reset;
} VkxVideoProbe;

// VkxVideoFeatures is the feature chain a device is created with (and FFmpeg is told about).
typedef struct {
	VkBool32 timeline, sync2, ycbcr, video_maintenance1, host_query_reset;
} VkxVideoFeatures;

// vkx_video_probe reads what pd offers; video_queue and vm1 say whether the device offers
// VK_KHR_video_queue and VK_KHR_video_maintenance1 (their structs may only be chained then).
void vkx_video_probe(VkPhysicalDevice pd, VkBool32 video_queue, VkBool32 vm1, VkxVideoProbe *out);
// vkx_create_device_video creates a device with queues queues of family and, when decode_family >= 0,
// decode_queues queues of decode_family, with the features of f (as Vulkan 1.1/1.2/1.3 feature structs
// and VkPhysicalDeviceVideoMaintenance1FeaturesKHR).
VkResult vkx_create_device_video(VkPhysicalDevice pd, uint32_t family, uint32_t queues, int32_t decode_family, uint32_t decode_queues,
                                 const char *const *exts, uint32_t next, const VkxVideoFeatures *f, VkDevice *out);

// vkx_video_feature_chain allocates, in one block to free with free(), the feature structs
// vkx_create_device_video chains (VkPhysicalDeviceVulkan11/12/13Features and, with
// video_maintenance1, VkPhysicalDeviceVideoMaintenance1FeaturesKHR) with f's bits, the last one
// chained to next: for an engine that creates its device itself. NULL when out of memory.
void *vkx_video_feature_chain(const VkxVideoFeatures *f, void *next);
#endif
