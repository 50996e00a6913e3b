// video.c: the device Vulkan Video decoding runs on (see video.h).
#include "video.h"
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

void vkx_video_probe(VkInstance in, VkPhysicalDevice pd, VkBool32 video_queue, VkBool32 vm1, VkxVideoProbe *out) {
	*out = (VkxVideoProbe){.decode_family = -1};
	PFN_vkGetPhysicalDeviceProperties props =
		(PFN_vkGetPhysicalDeviceProperties)vkx_instance_proc(in, "vkGetPhysicalDeviceProperties");
	PFN_vkGetPhysicalDeviceFeatures2 feats2 =
		(PFN_vkGetPhysicalDeviceFeatures2)vkx_instance_proc(in, "vkGetPhysicalDeviceFeatures2");
	PFN_vkGetPhysicalDeviceQueueFamilyProperties2 qf2 = (PFN_vkGetPhysicalDeviceQueueFamilyProperties2)vkx_instance_proc(
		in, "vkGetPhysicalDeviceQueueFamilyProperties2");
	if (!props || !feats2 || !qf2) return;
	VkPhysicalDeviceProperties p;
	props(pd, &p);
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
		feats2(pd, &f);
		out->timeline = f12.timelineSemaphore;
		out->host_query_reset = f12.hostQueryReset;
		out->sync2 = f13.synchronization2;
		out->ycbcr = f11.samplerYcbcrConversion;
		out->video_maintenance1 = vm.videoMaintenance1;
	}

	uint32_t n = 0;
	qf2(pd, &n, NULL);
	if (n > VKX_MAX_QUEUE_FAMILIES) n = VKX_MAX_QUEUE_FAMILIES;
	VkQueueFamilyVideoPropertiesKHR vid[VKX_MAX_QUEUE_FAMILIES];
	VkQueueFamilyProperties2 qp[VKX_MAX_QUEUE_FAMILIES];
	for (uint32_t i = 0; i < n; i++) {
		vid[i] = (VkQueueFamilyVideoPropertiesKHR){.sType = VK_STRUCTURE_TYPE_QUEUE_FAMILY_VIDEO_PROPERTIES_KHR};
		// VkQueueFamilyVideoPropertiesKHR is chained only where VK_KHR_video_queue is offered.
		qp[i] = (VkQueueFamilyProperties2){.sType = VK_STRUCTURE_TYPE_QUEUE_FAMILY_PROPERTIES_2,
		                                   .pNext = video_queue ? &vid[i] : NULL};
	}
	qf2(pd, &n, qp);
	for (uint32_t i = 0; i < n; i++) {
		if (video_queue && (qp[i].queueFamilyProperties.queueFlags & VK_QUEUE_VIDEO_DECODE_BIT_KHR)) {
			out->decode_family = (int32_t)i;
			out->decode_queues = qp[i].queueFamilyProperties.queueCount;
			out->codec_ops = vid[i].videoCodecOperations;
			break;
		}
	}
}

VkResult vkx_create_device_video(VkInstance in, VkPhysicalDevice pd, uint32_t family, int32_t decode_family, uint32_t decode_queues,
                                 const char *const *exts, uint32_t next, const VkxVideoFeatures *f, VkDevice *out) {
	PFN_vkCreateDevice create = (PFN_vkCreateDevice)vkx_instance_proc(in, "vkCreateDevice");
	if (!create) return VK_ERROR_INITIALIZATION_FAILED;
	static const float prio[VKX_MAX_QUEUES] = {1.0f};
	if (decode_queues > VKX_MAX_QUEUES) decode_queues = VKX_MAX_QUEUES;
	VkDeviceQueueCreateInfo q[2] = {
		{.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, .queueFamilyIndex = family, .queueCount = 1,
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
	return create(pd, &ci, NULL, out);
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

// One mutex per queue; PTHREAD_MUTEX_INITIALIZER for every element through a designated range
// would be a GNU extension, so they are initialised once.
static pthread_mutex_t qlocks[VKX_MAX_QUEUE_FAMILIES][VKX_MAX_QUEUES];
static pthread_once_t qlocks_once = PTHREAD_ONCE_INIT;

static void qlocks_init(void) {
	for (int i = 0; i < VKX_MAX_QUEUE_FAMILIES; i++)
		for (int j = 0; j < VKX_MAX_QUEUES; j++) pthread_mutex_init(&qlocks[i][j], NULL);
}

void vkx_queue_lock(uint32_t family, uint32_t index) {
	pthread_once(&qlocks_once, qlocks_init);
	if (family < VKX_MAX_QUEUE_FAMILIES && index < VKX_MAX_QUEUES) pthread_mutex_lock(&qlocks[family][index]);
}

void vkx_queue_unlock(uint32_t family, uint32_t index) {
	if (family < VKX_MAX_QUEUE_FAMILIES && index < VKX_MAX_QUEUES) pthread_mutex_unlock(&qlocks[family][index]);
}

// vkx_queue_lock_all takes every queue lock, in one fixed order: no thread holds two queue locks
// otherwise, so this cannot deadlock. For calls that need all of a device's queues.
void vkx_queue_lock_all(void) {
	pthread_once(&qlocks_once, qlocks_init);
	for (int i = 0; i < VKX_MAX_QUEUE_FAMILIES; i++)
		for (int j = 0; j < VKX_MAX_QUEUES; j++) pthread_mutex_lock(&qlocks[i][j]);
}

void vkx_queue_unlock_all(void) {
	for (int i = VKX_MAX_QUEUE_FAMILIES - 1; i >= 0; i--)
		for (int j = VKX_MAX_QUEUES - 1; j >= 0; j--) pthread_mutex_unlock(&qlocks[i][j]);
}

void *vkx_queue_lock_fn(void) { return (void *)vkx_queue_lock; }
void *vkx_queue_unlock_fn(void) { return (void *)vkx_queue_unlock; }

// Queues the toolkit submits to, by handle, so that vkx_queue_submit finds the lock FFmpeg takes by
// (family, index).
static struct {
	VkQueue q;
	uint32_t family, index;
} known[VKX_MAX_QUEUE_FAMILIES];
static int nknown;
static pthread_mutex_t known_mu = PTHREAD_MUTEX_INITIALIZER;

void vkx_queue_register(VkQueue q, uint32_t family, uint32_t index) {
	pthread_mutex_lock(&known_mu);
	int i = 0;
	while (i < nknown && known[i].q != q) i++;
	if (i == VKX_MAX_QUEUE_FAMILIES) {
		// Full: a queue left registered by a device closed without vkx_queue_unregister. Dropping
		// the oldest keeps the newest device's submissions locked (a queue the toolkit submits to
		// without its lock races FFmpeg's threads: UNASSIGNED-Threading-MultipleThreads).
		memmove(&known[0], &known[1], (VKX_MAX_QUEUE_FAMILIES - 1) * sizeof known[0]);
		i = VKX_MAX_QUEUE_FAMILIES - 1;
		nknown = i;
	}
	known[i].q = q;
	known[i].family = family;
	known[i].index = index;
	if (i == nknown) nknown++;
	pthread_mutex_unlock(&known_mu);
}

// vkx_queue_unregister forgets q (its device is being destroyed; a later device may get the same
// handle value).
void vkx_queue_unregister(VkQueue q) {
	pthread_mutex_lock(&known_mu);
	for (int i = 0; i < nknown; i++) {
		if (known[i].q == q) {
			memmove(&known[i], &known[i + 1], (nknown - i - 1) * sizeof known[0]);
			nknown--;
			break;
		}
	}
	pthread_mutex_unlock(&known_mu);
}

static int find(VkQueue q, uint32_t *family, uint32_t *index) {
	int found = 0;
	pthread_mutex_lock(&known_mu);
	for (int i = 0; i < nknown; i++) {
		if (known[i].q == q) {
			*family = known[i].family;
			*index = known[i].index;
			found = 1;
			break;
		}
	}
	pthread_mutex_unlock(&known_mu);
	return found;
}

void vkx_queue_lock_handle(VkQueue q) {
	uint32_t f, i;
	if (find(q, &f, &i)) vkx_queue_lock(f, i);
}

void vkx_queue_unlock_handle(VkQueue q) {
	uint32_t f, i;
	if (find(q, &f, &i)) vkx_queue_unlock(f, i);
}

uint32_t vkx_instance_version(void) {
	PFN_vkEnumerateInstanceVersion f = (PFN_vkEnumerateInstanceVersion)vkx_instance_proc(NULL, "vkEnumerateInstanceVersion");
	uint32_t v = VK_API_VERSION_1_0;
	if (f && f(&v) != VK_SUCCESS) v = VK_API_VERSION_1_0;
	return v;
}

// FFmpeg 7.1's ff_vk_load_props (libavutil/vulkan.c) chains VkPhysicalDeviceCooperativeMatrixProperties-
// KHR (VK_STRUCTURE_TYPE 1000506002) into vkGetPhysicalDeviceProperties2 whatever the device offers;
// the validation layer carried here (1.3.239) predates that struct (VK_KHR_cooperative_matrix, header
// 1.3.255) and reports it as unknown. Nothing else in the process chains it. Exactly that message is
// counted here instead of failing the run; any other message from FFmpeg's calls still does.
static int ffmpeg_known;

int vkx_ffmpeg_known_message(const char *id, const char *text) {
	if (id && text && strcmp(id, "VUID-VkPhysicalDeviceProperties2-pNext-pNext") == 0 &&
	    strstr(text, "vkGetPhysicalDeviceProperties2: pProperties->pNext chain includes a structure with unknown "
	                 "VkStructureType (1000506002)")) {
		__atomic_add_fetch(&ffmpeg_known, 1, __ATOMIC_RELAXED);
		return 1;
	}
	return 0;
}

int vkx_ffmpeg_known_count(void) { return __atomic_load_n(&ffmpeg_known, __ATOMIC_RELAXED); }
