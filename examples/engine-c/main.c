// engine-c: a small engine in C that plays videos as textures through libycbcrkit (ycbcrkit.h).
//
// It creates its own Vulkan instance and device (with what yk_requirements_query lists), opens each
// video given on the command line on one yk_engine, and draws them side by side into an offscreen
// image with its own pipeline, whose set layout holds each texture's immutable sampler. Frames are
// acquired with a timeline semaphore; the first texture's frames are released with a timeline value
// and the others' with binary semaphores, both signalled by the engine's own submission, so nothing
// waits on the CPU for a release. After the last frame it writes the picture as a PNG.
//
//   engine-c [-validate] [-hwdec] [-isq] [-frames N] [-tile WxH] [-bench N] [-draw WxH] [-controls]
//            [-target sdr|hdr10|extended-linear] [-white N] [-out picture.png] video...
//
// -validate turns on the Khronos validation layer with synchronization validation; any message
// makes the program exit 1. -hwdec creates the device for hardware decoding (Vulkan 1.3, the
// decode queues, the queue lock) and requires it of every video. -tile draws each video scaled into
// a W×H tile of a grid instead of side by side at its own size. -bench N measures the CPU time of
// the library's per-frame calls (acquire and release) over N frames of the first video, each waited
// for, and prints it. -draw W×H has the library draw the first video's first picture into the
// engine's W×H storage image instead (yk_frame_draw: scaled, letterboxed), waiting on and
// signalling the engine's binary semaphores, and writes that. -controls checks, on the first video,
// that yk_texture_pause, play, seek, set_rate and time change what YK_ACQUIRE_CLOCK returns as the
// header says, and draws nothing. -target hdr10 asks the library for pictures converted to an HDR10
// target (BT.2020, PQ), -target extended-linear to scRGB (linear BT.709, 1.0 = 80 cd/m² or -white
// N cd/m², float16 images: the RGBA8 PNG keeps 0..1 of it), and checks that every frame says so
// (to_target). -isq creates the queues internally synchronized
// (VK_KHR_internally_synchronized_queues, where yk_requirements says the device offers it), submits
// without the lock and tells the library so (yk_engine_params.internally_synchronized_queues); it
// still lends the lock callbacks, counts their calls and fails if the library made any, else prints
// "queue lock calls: 0". On a device without the extension it creates the queues as usual and the
// library refuses the flag. Errors print one
// line, "error: ...", and exit 1.
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <vulkan/vulkan.h>

#include "ycbcrkit.h"
#include "png.h"

#define MAX_VIDEOS 32
#define IN_FLIGHT 2

static const uint32_t vert_spv[] =
#include "quad.vert.inc"
    ;
static const uint32_t frag_spv[] =
#include "video.frag.inc"
    ;

static void die(const char *fmt, ...) {
	va_list ap;
	va_start(ap, fmt);
	fputs("error: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	exit(1);
}

#define VK(call)                                                                                                       \
	do {                                                                                                           \
		VkResult r_ = (call);                                                                                  \
		if (r_ != VK_SUCCESS)                                                                                  \
			die("%s: VkResult %d", #call, r_);                                                             \
	} while (0)

#define YK(call)                                                                                                       \
	do {                                                                                                           \
		yk_result r_ = (call);                                                                                 \
		if (r_ < 0)                                                                                            \
			die("%s: %s (yk_result %d)", #call, yk_last_error(), r_);                                      \
	} while (0)

static int messages; // validation messages seen

static VKAPI_ATTR VkBool32 VKAPI_CALL on_message(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                 VkDebugUtilsMessageTypeFlagsEXT type,
                                                 const VkDebugUtilsMessengerCallbackDataEXT *data, void *user) {
	(void)type, (void)user;
	// With hardware decoding, FFmpeg 7.1 (inside the library) chains VkPhysicalDeviceCooperative-
	// MatrixPropertiesKHR (VK_STRUCTURE_TYPE 1000506002) into vkGetPhysicalDeviceProperties2 on the
	// engine's instance; a validation layer older than that struct (header 1.3.255; Debian 12 has
	// 1.3.239) reports it as unknown. That message alone is left out, as the toolkit's own
	// messenger does (internal/vkx/messages.c); any other fails the run.
	if (data->pMessageIdName && strcmp(data->pMessageIdName, "VUID-VkPhysicalDeviceProperties2-pNext-pNext") == 0 &&
	    strstr(data->pMessage, "unknown VkStructureType (1000506002)"))
		return VK_FALSE;
	if (severity >= VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT) {
		messages++;
		fprintf(stderr, "validation: %s\n", data->pMessage);
	}
	return VK_FALSE;
}

// video is one texture and what the engine built for its current generation.
struct video {
	yk_texture tex;
	uint64_t generation; // 0: nothing built yet
	VkDescriptorSetLayout set_layout;
	VkPipelineLayout layout;
	VkPipeline pipeline;
	VkDescriptorPool pool;
	VkDescriptorSet sets[IN_FLIGHT];
	VkSemaphore acquire;              // timeline the library signals for each frame
	uint64_t acquire_value;
	VkSemaphore release[IN_FLIGHT];   // binary release semaphores (videos after the first)
	yk_frame held[IN_FLIGHT];         // the frame each slot's submission samples
	int holding[IN_FLIGHT];
	uint32_t x, y, width, height;     // where it is drawn
};

struct engine {
	VkInstance instance;
	VkDebugUtilsMessengerEXT messenger;
	VkPhysicalDevice physical;
	VkDevice device;
	uint32_t family;
	VkQueue queue;
	VkRenderPass pass;
	VkImage target;
	VkDeviceMemory target_mem;
	VkImageView target_view;
	VkFramebuffer framebuffer;
	VkBuffer readback;
	VkDeviceMemory readback_mem;
	uint32_t width, height;
	int storage; // the target is also a storage image (-draw: yk_frame_draw writes it)
	VkShaderModule vert, frag;
	VkCommandPool cmd_pool;
	VkCommandBuffer cbs[IN_FLIGHT];
	VkFence fences[IN_FLIGHT];
	int submitted[IN_FLIGHT];
	VkSemaphore done; // timeline: the engine's frame n signals n + 1 (the first video's release)
	// The lock of queue 0 of the family: held around the engine's submissions, and the library's
	// and FFmpeg's (lock_queue) with hardware decoding.
	pthread_mutex_t lock;
	int isq; // the queues are internally synchronized: the engine takes no lock (-isq)
	// The library's engine. Its yk_engine_wait_idle stands in for vkDeviceWaitIdle while textures
	// are open: FFmpeg's threads submit to the decode queues under the library's lock, which a plain
	// vkDeviceWaitIdle (it needs every queue) would race.
	yk_engine yk;
};

static long lock_calls; // the library's calls of lock_queue (atomic)

static void lock_queue(void *user) {
	__atomic_fetch_add(&lock_calls, 1, __ATOMIC_RELAXED);
	pthread_mutex_lock(user);
}
static void unlock_queue(void *user) { pthread_mutex_unlock(user); }

// engine_lock and engine_unlock are the engine's own around its submissions: none with -isq.
static void engine_lock(struct engine *e) {
	if (!e->isq)
		pthread_mutex_lock(&e->lock);
}
static void engine_unlock(struct engine *e) {
	if (!e->isq)
		pthread_mutex_unlock(&e->lock);
}

// VK_KHR_internally_synchronized_queues (extension 505), which the installed headers may lack: the
// Khronos registry's values (Vulkan-Headers vk.xml from 1.4.340 on).
#define EXT_INTERNALLY_SYNCHRONIZED_QUEUES "VK_KHR_internally_synchronized_queues"
#define STRUCTURE_TYPE_INTERNALLY_SYNCHRONIZED_QUEUES_FEATURES ((VkStructureType)1000504000)
#define DEVICE_QUEUE_CREATE_INTERNALLY_SYNCHRONIZED_BIT ((VkDeviceQueueCreateFlags)0x00000004)
struct internally_synchronized_queues_features {
	VkStructureType sType;
	void *pNext;
	VkBool32 internallySynchronizedQueues;
};

// VK_KHR_video_maintenance1's feature struct, newer than some installed headers.
struct video_maintenance1_features {
	VkStructureType sType;
	void *pNext;
	VkBool32 videoMaintenance1;
};
#define STRUCTURE_TYPE_VIDEO_MAINTENANCE_1_FEATURES ((VkStructureType)1000515000)

static uint32_t memory_type(struct engine *e, uint32_t bits, VkMemoryPropertyFlags want) {
	VkPhysicalDeviceMemoryProperties mp;
	vkGetPhysicalDeviceMemoryProperties(e->physical, &mp);
	for (uint32_t i = 0; i < mp.memoryTypeCount; i++)
		if ((bits & (1u << i)) && (mp.memoryTypes[i].propertyFlags & want) == want)
			return i;
	die("no memory type with flags 0x%x", want);
	return 0;
}

static void create_device(struct engine *e, int validate, int hwdec, int isq) {
	VkApplicationInfo app = {.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO, .pApplicationName = "engine-c",
	                         .apiVersion = VK_API_VERSION_1_3};
	const char *layers[] = {"VK_LAYER_KHRONOS_validation"};
	const char *exts[] = {VK_EXT_DEBUG_UTILS_EXTENSION_NAME};
	VkValidationFeatureEnableEXT enables[] = {VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT};
	VkValidationFeaturesEXT features = {.sType = VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT,
	                                    .enabledValidationFeatureCount = 1, .pEnabledValidationFeatures = enables};
	VkInstanceCreateInfo ici = {.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, .pApplicationInfo = &app};
	if (validate) {
		ici.pNext = &features;
		ici.enabledLayerCount = 1, ici.ppEnabledLayerNames = layers;
		ici.enabledExtensionCount = 1, ici.ppEnabledExtensionNames = exts;
	}
	VK(vkCreateInstance(&ici, NULL, &e->instance));
	if (validate) {
		VkDebugUtilsMessengerCreateInfoEXT mci = {
		    .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT,
		    .messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
		    .messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
		                   VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT,
		    .pfnUserCallback = on_message};
		PFN_vkCreateDebugUtilsMessengerEXT create =
		    (PFN_vkCreateDebugUtilsMessengerEXT)vkGetInstanceProcAddr(e->instance, "vkCreateDebugUtilsMessengerEXT");
		if (!create)
			die("no vkCreateDebugUtilsMessengerEXT");
		VK(create(e->instance, &mci, NULL, &e->messenger));
	}
	uint32_t n = 1;
	VkResult r = vkEnumeratePhysicalDevices(e->instance, &n, &e->physical);
	if ((r != VK_SUCCESS && r != VK_INCOMPLETE) || n == 0)
		die("no Vulkan device");

	// What the library needs, asked before the device exists.
	yk_requirements_params rp = {.instance = e->instance, .physical_device = e->physical, .validation = (uint32_t)validate};
	yk_requirements req = {.size = sizeof req};
	YK(yk_requirements_query(&rp, &req));
	if (!req.timeline_semaphore)
		die("the device has no timelineSemaphore feature (timeline acquire and release need it)");
	uint32_t nf = 0;
	vkGetPhysicalDeviceQueueFamilyProperties(e->physical, &nf, NULL);
	VkQueueFamilyProperties qf[16];
	if (nf > 16)
		nf = 16;
	vkGetPhysicalDeviceQueueFamilyProperties(e->physical, &nf, qf);
	e->family = UINT32_MAX;
	for (uint32_t i = 0; i < nf && e->family == UINT32_MAX; i++)
		if ((qf[i].queueFlags & req.queue_flags) == req.queue_flags)
			e->family = i;
	if (e->family == UINT32_MAX)
		die("no queue family with flags 0x%x", req.queue_flags);
	float prio[16] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
	VkDeviceQueueCreateInfo qci[2] = {{.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, .queueFamilyIndex = e->family,
	                                   .queueCount = 1, .pQueuePriorities = prio}};
	uint32_t nq = 1;
	VkPhysicalDeviceVulkan13Features f13 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
	struct video_maintenance1_features vm1 = {.sType = STRUCTURE_TYPE_VIDEO_MAINTENANCE_1_FEATURES};
	VkPhysicalDeviceVulkan12Features f12 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
	                                        .timelineSemaphore = VK_TRUE};
	VkPhysicalDeviceVulkan11Features f11 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES,
	                                        .pNext = &f12, .samplerYcbcrConversion = VK_TRUE};
	const char *dexts[2 * YK_MAX_EXTENSIONS + 1];
	uint32_t nexts = 0;
	for (uint32_t i = 0; i < req.extension_count; i++)
		dexts[nexts++] = req.extensions[i];
	if (hwdec) {
		// Everything from the one query: extensions, features, decode queues.
		if (!req.hw_available)
			die("no hardware decoding on this device: %s", req.hw_missing);
		for (uint32_t i = 0; i < req.hw_extension_count; i++)
			dexts[nexts++] = req.hw_extensions[i];
		f12.hostQueryReset = req.hw_features.host_query_reset;
		f12.pNext = &f13;
		f13.synchronization2 = req.hw_features.synchronization2;
		if (req.hw_features.video_maintenance1) {
			vm1.videoMaintenance1 = VK_TRUE;
			f13.pNext = &vm1;
		}
		if (req.hw_decode_family != e->family) {
			if (req.hw_decode_queues > 16)
				die("%u decode queues", req.hw_decode_queues);
			qci[nq++] = (VkDeviceQueueCreateInfo){.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
			                                      .queueFamilyIndex = req.hw_decode_family,
			                                      .queueCount = req.hw_decode_queues, .pQueuePriorities = prio};
		}
	}
	struct internally_synchronized_queues_features isqf = {.sType = STRUCTURE_TYPE_INTERNALLY_SYNCHRONIZED_QUEUES_FEATURES,
	                                                       .internallySynchronizedQueues = VK_TRUE};
	VkDeviceCreateInfo dci = {.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, .pNext = &f11, .queueCreateInfoCount = nq,
	                          .pQueueCreateInfos = qci, .enabledExtensionCount = nexts, .ppEnabledExtensionNames = dexts};
	// -isq where the device offers it: the extension, its feature and the flag on every queue lent
	// to the library (both families). Elsewhere the device cannot; the library will say so.
	e->isq = isq;
	if (isq && req.internally_synchronized_queues) {
		dexts[nexts++] = EXT_INTERNALLY_SYNCHRONIZED_QUEUES;
		dci.enabledExtensionCount = nexts;
		isqf.pNext = &f11;
		dci.pNext = &isqf;
		for (uint32_t i = 0; i < nq; i++)
			qci[i].flags = DEVICE_QUEUE_CREATE_INTERNALLY_SYNCHRONIZED_BIT;
	}
	VK(vkCreateDevice(e->physical, &dci, NULL, &e->device));
	// A queue created with flags is fetched with vkGetDeviceQueue2 and them.
	VkDeviceQueueInfo2 qi = {.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_INFO_2, .flags = qci[0].flags,
	                         .queueFamilyIndex = e->family, .queueIndex = 0};
	vkGetDeviceQueue2(e->device, &qi, &e->queue);
	if (!e->queue)
		die("vkGetDeviceQueue2: no queue");
}

static VkShaderModule shader(struct engine *e, const uint32_t *code, size_t size) {
	VkShaderModuleCreateInfo ci = {.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, .codeSize = size, .pCode = code};
	VkShaderModule m;
	VK(vkCreateShaderModule(e->device, &ci, NULL, &m));
	return m;
}

static VkSemaphore semaphore(struct engine *e, int timeline) {
	VkSemaphoreTypeCreateInfo ti = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO,
	                                .semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE};
	VkSemaphoreCreateInfo ci = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO, .pNext = timeline ? &ti : NULL};
	VkSemaphore s;
	VK(vkCreateSemaphore(e->device, &ci, NULL, &s));
	return s;
}

// create_target makes the offscreen colour image, its render pass and framebuffer, and the
// host-visible buffer the last frame is copied into.
static void create_target(struct engine *e) {
	VkImageCreateInfo ici = {.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO, .imageType = VK_IMAGE_TYPE_2D,
	                         .format = VK_FORMAT_R8G8B8A8_UNORM, .extent = {e->width, e->height, 1}, .mipLevels = 1,
	                         .arrayLayers = 1, .samples = VK_SAMPLE_COUNT_1_BIT, .tiling = VK_IMAGE_TILING_OPTIMAL,
	                         .usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
	                                  (e->storage ? VK_IMAGE_USAGE_STORAGE_BIT : 0)};
	VK(vkCreateImage(e->device, &ici, NULL, &e->target));
	VkMemoryRequirements mr;
	vkGetImageMemoryRequirements(e->device, e->target, &mr);
	VkMemoryAllocateInfo mai = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, .allocationSize = mr.size,
	                            .memoryTypeIndex = memory_type(e, mr.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT)};
	VK(vkAllocateMemory(e->device, &mai, NULL, &e->target_mem));
	VK(vkBindImageMemory(e->device, e->target, e->target_mem, 0));
	VkImageViewCreateInfo vci = {.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO, .image = e->target,
	                             .viewType = VK_IMAGE_VIEW_TYPE_2D, .format = VK_FORMAT_R8G8B8A8_UNORM,
	                             .subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1}};
	VK(vkCreateImageView(e->device, &vci, NULL, &e->target_view));
	VkAttachmentDescription att = {.format = VK_FORMAT_R8G8B8A8_UNORM, .samples = VK_SAMPLE_COUNT_1_BIT,
	                               .loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR, .storeOp = VK_ATTACHMENT_STORE_OP_STORE,
	                               .stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE,
	                               .stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE,
	                               .initialLayout = VK_IMAGE_LAYOUT_UNDEFINED,
	                               .finalLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL};
	VkAttachmentReference ref = {0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
	VkSubpassDescription sub = {.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS, .colorAttachmentCount = 1,
	                            .pColorAttachments = &ref};
	// The previous frame's copy reads the image this frame's clear writes; this frame's copy reads
	// what the pass wrote.
	VkSubpassDependency deps[2] = {
	    {.srcSubpass = VK_SUBPASS_EXTERNAL, .dstSubpass = 0,
	     .srcStageMask = VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
	     .dstStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT, .srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT,
	     .dstAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT},
	    {.srcSubpass = 0, .dstSubpass = VK_SUBPASS_EXTERNAL, .srcStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
	     .dstStageMask = VK_PIPELINE_STAGE_TRANSFER_BIT, .srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT,
	     .dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT}};
	VkRenderPassCreateInfo rci = {.sType = VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO, .attachmentCount = 1,
	                              .pAttachments = &att, .subpassCount = 1, .pSubpasses = &sub, .dependencyCount = 2,
	                              .pDependencies = deps};
	VK(vkCreateRenderPass(e->device, &rci, NULL, &e->pass));
	VkFramebufferCreateInfo fci = {.sType = VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO, .renderPass = e->pass,
	                               .attachmentCount = 1, .pAttachments = &e->target_view, .width = e->width,
	                               .height = e->height, .layers = 1};
	VK(vkCreateFramebuffer(e->device, &fci, NULL, &e->framebuffer));
	VkBufferCreateInfo bci = {.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, .size = (VkDeviceSize)e->width * e->height * 4,
	                          .usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT};
	VK(vkCreateBuffer(e->device, &bci, NULL, &e->readback));
	vkGetBufferMemoryRequirements(e->device, e->readback, &mr);
	mai.allocationSize = mr.size;
	mai.memoryTypeIndex = memory_type(e, mr.memoryTypeBits,
	                                  VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
	VK(vkAllocateMemory(e->device, &mai, NULL, &e->readback_mem));
	VK(vkBindBufferMemory(e->device, e->readback, e->readback_mem, 0));
}

static void destroy_pipeline(struct engine *e, struct video *v) {
	vkDestroyPipeline(e->device, v->pipeline, NULL);
	vkDestroyPipelineLayout(e->device, v->layout, NULL);
	vkDestroyDescriptorPool(e->device, v->pool, NULL);
	vkDestroyDescriptorSetLayout(e->device, v->set_layout, NULL);
	v->pipeline = VK_NULL_HANDLE, v->layout = VK_NULL_HANDLE, v->pool = VK_NULL_HANDLE;
	v->set_layout = VK_NULL_HANDLE;
}

// build rebuilds what embeds the frame's immutable sampler: the set layout, pipeline layout,
// pipeline and descriptor pool (sized by descriptor_count).
static void build(struct engine *e, struct video *v, const yk_frame *f) {
	YK(yk_engine_wait_idle(e->yk)); // the old pipeline's frames are done
	destroy_pipeline(e, v);
	VkDescriptorSetLayoutBinding b = {.binding = 0, .descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
	                                  .descriptorCount = 1, .stageFlags = VK_SHADER_STAGE_FRAGMENT_BIT,
	                                  .pImmutableSamplers = &f->sampler};
	VkDescriptorSetLayoutCreateInfo lci = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
	                                       .bindingCount = 1, .pBindings = &b};
	VK(vkCreateDescriptorSetLayout(e->device, &lci, NULL, &v->set_layout));
	VkPushConstantRange pc = {VK_SHADER_STAGE_FRAGMENT_BIT, 0, 2 * sizeof(float)};
	VkPipelineLayoutCreateInfo plci = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, .setLayoutCount = 1,
	                                   .pSetLayouts = &v->set_layout, .pushConstantRangeCount = 1,
	                                   .pPushConstantRanges = &pc};
	VK(vkCreatePipelineLayout(e->device, &plci, NULL, &v->layout));
	VkDescriptorPoolSize ps = {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, IN_FLIGHT * f->descriptor_count};
	VkDescriptorPoolCreateInfo pci = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, .maxSets = IN_FLIGHT,
	                                  .poolSizeCount = 1, .pPoolSizes = &ps};
	VK(vkCreateDescriptorPool(e->device, &pci, NULL, &v->pool));
	VkDescriptorSetLayout layouts[IN_FLIGHT];
	for (int i = 0; i < IN_FLIGHT; i++)
		layouts[i] = v->set_layout;
	VkDescriptorSetAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO, .descriptorPool = v->pool,
	                                  .descriptorSetCount = IN_FLIGHT, .pSetLayouts = layouts};
	VK(vkAllocateDescriptorSets(e->device, &ai, v->sets));
	VkPipelineShaderStageCreateInfo stages[2] = {
	    {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, .stage = VK_SHADER_STAGE_VERTEX_BIT,
	     .module = e->vert, .pName = "main"},
	    {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, .stage = VK_SHADER_STAGE_FRAGMENT_BIT,
	     .module = e->frag, .pName = "main"}};
	VkPipelineVertexInputStateCreateInfo vi = {.sType = VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
	VkPipelineInputAssemblyStateCreateInfo ia = {.sType = VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO,
	                                             .topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST};
	VkPipelineViewportStateCreateInfo vp = {.sType = VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO,
	                                        .viewportCount = 1, .scissorCount = 1};
	VkPipelineRasterizationStateCreateInfo rs = {.sType = VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO,
	                                             .polygonMode = VK_POLYGON_MODE_FILL, .cullMode = VK_CULL_MODE_NONE,
	                                             .lineWidth = 1};
	VkPipelineMultisampleStateCreateInfo ms = {.sType = VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO,
	                                           .rasterizationSamples = VK_SAMPLE_COUNT_1_BIT};
	VkPipelineColorBlendAttachmentState cba = {.colorWriteMask = 0xf};
	VkPipelineColorBlendStateCreateInfo cb = {.sType = VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO,
	                                          .attachmentCount = 1, .pAttachments = &cba};
	VkDynamicState dyn[] = {VK_DYNAMIC_STATE_VIEWPORT, VK_DYNAMIC_STATE_SCISSOR};
	VkPipelineDynamicStateCreateInfo ds = {.sType = VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO,
	                                       .dynamicStateCount = 2, .pDynamicStates = dyn};
	VkGraphicsPipelineCreateInfo gci = {.sType = VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO, .stageCount = 2,
	                                    .pStages = stages, .pVertexInputState = &vi, .pInputAssemblyState = &ia,
	                                    .pViewportState = &vp, .pRasterizationState = &rs, .pMultisampleState = &ms,
	                                    .pColorBlendState = &cb, .pDynamicState = &ds, .layout = v->layout,
	                                    .renderPass = e->pass};
	VK(vkCreateGraphicsPipelines(e->device, VK_NULL_HANDLE, 1, &gci, NULL, &v->pipeline));
	v->generation = f->generation;
}

static double now_us(void) {
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

// bench measures the library's per-frame calls on the CPU: each frame, yk_texture_acquire (at a
// fixed time, so after the first picture every acquire hands the current one back with an empty
// submission signalling its semaphore) and yk_frame_release after the engine's submission that
// waits on the frame has completed. Only the two calls are timed. videotex's BenchmarkFrameCalls
// makes the same calls in Go.
static void bench(struct engine *e, struct video *v, int n) {
	double calls = 0;
	for (int i = 0; i < n; i++) {
		yk_acquire_params ap = {.size = sizeof ap, .mode = YK_ACQUIRE_AT};
		yk_frame f = {.size = sizeof f};
		double t0 = now_us();
		YK(yk_texture_acquire(v->tex, &ap, &f));
		calls += now_us() - t0;
		VkSubmitInfo si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .waitSemaphoreCount = 1,
		                   .pWaitSemaphores = &f.wait_semaphore, .pWaitDstStageMask = &f.wait_stage};
		engine_lock(e);
		VkResult r = vkQueueSubmit(e->queue, 1, &si, e->fences[0]);
		engine_unlock(e);
		VK(r);
		VK(vkWaitForFences(e->device, 1, &e->fences[0], VK_TRUE, UINT64_MAX));
		VK(vkResetFences(e->device, 1, &e->fences[0]));
		t0 = now_us();
		YK(yk_frame_release(v->tex, &f, NULL));
		calls += now_us() - t0;
	}
	printf("frames %d, acquire+release %.2f us per frame (CPU, calls only)\n", n, calls / n);
}

// read_target copies the target (in TRANSFER_SRC_OPTIMAL once wait is signalled) into the
// read-back buffer and waits for it.
static void read_target(struct engine *e, VkSemaphore wait) {
	VkCommandBuffer cb = e->cbs[0];
	VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
	                               .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT};
	VK(vkBeginCommandBuffer(cb, &bi));
	VkBufferImageCopy region = {.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1}, .imageExtent = {e->width, e->height, 1}};
	vkCmdCopyImageToBuffer(cb, e->target, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, e->readback, 1, &region);
	VkBufferMemoryBarrier bb = {.sType = VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER, .srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
	                            .dstAccessMask = VK_ACCESS_HOST_READ_BIT, .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
	                            .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED, .buffer = e->readback, .size = VK_WHOLE_SIZE};
	vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 0, NULL, 1, &bb, 0, NULL);
	VK(vkEndCommandBuffer(cb));
	VkPipelineStageFlags stage = VK_PIPELINE_STAGE_TRANSFER_BIT;
	VkSubmitInfo si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .waitSemaphoreCount = 1, .pWaitSemaphores = &wait,
	                   .pWaitDstStageMask = &stage, .commandBufferCount = 1, .pCommandBuffers = &cb};
	engine_lock(e);
	VkResult r = vkQueueSubmit(e->queue, 1, &si, e->fences[0]);
	engine_unlock(e);
	VK(r);
	VK(vkWaitForFences(e->device, 1, &e->fences[0], VK_TRUE, UINT64_MAX));
	VK(vkResetFences(e->device, 1, &e->fences[0]));
}

// draw_into has the library draw v's first picture into the whole target (yk_frame_draw), after
// the engine's earlier use of it (a submission signalling a binary semaphore), and reads it back.
static void draw_into(struct engine *e, struct video *v) {
	VkSemaphore before = semaphore(e, 0), after = semaphore(e, 0);
	VkCommandBuffer cb = e->cbs[1];
	VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
	                               .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT};
	VK(vkBeginCommandBuffer(cb, &bi));
	VK(vkEndCommandBuffer(cb));
	VkSubmitInfo si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1, .pCommandBuffers = &cb,
	                   .signalSemaphoreCount = 1, .pSignalSemaphores = &before};
	engine_lock(e);
	VkResult r = vkQueueSubmit(e->queue, 1, &si, VK_NULL_HANDLE);
	engine_unlock(e);
	VK(r);
	if (yk_texture_wait_ready(v->tex, 10000) != YK_SUCCESS)
		die("no picture to draw: %s", yk_last_error());
	yk_acquire_params ap = {.size = sizeof ap, .mode = YK_ACQUIRE_STEP};
	yk_frame f = {.size = sizeof f};
	YK(yk_texture_acquire(v->tex, &ap, &f));
	yk_draw_params dp = {.size = sizeof dp, .image = e->target, .view = e->target_view, .format = VK_FORMAT_R8G8B8A8_UNORM,
	                     .width = e->width, .height = e->height, .final_layout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
	                     .wait_semaphore = before, .signal_semaphore = after};
	YK(yk_frame_draw(v->tex, &f, &dp));
	read_target(e, after);
	YK(yk_engine_wait_idle(e->yk));
	vkDestroySemaphore(e->device, before, NULL);
	vkDestroySemaphore(e->device, after, NULL);
}

// clock_frame acquires on the texture's clock, gives the frame straight back (discard: not
// sampled) and returns its pts; the clock's time in *now. Decoding runs on its own: a few tries
// let it reach the clock.
static int64_t clock_frame(struct video *v, int64_t *now) {
	int64_t pts = -1;
	for (int try = 0; try < 100; try++) {
		YK(yk_texture_time(v->tex, now));
		yk_acquire_params ap = {.size = sizeof ap, .mode = YK_ACQUIRE_CLOCK};
		yk_frame f = {.size = sizeof f};
		YK(yk_texture_acquire(v->tex, &ap, &f));
		yk_release_params rp = {.size = sizeof rp, .discard = 1};
		YK(yk_frame_release(v->tex, &f, &rp));
		pts = f.pts_ns;
		if (pts > *now - 100000000) // within 0.1 s of the clock: caught up
			break;
		nanosleep(&(struct timespec){0, 20000000}, NULL);
	}
	return pts;
}

static void sleep_ms(long ms) { nanosleep(&(struct timespec){ms / 1000, (ms % 1000) * 1000000}, NULL); }

// controls checks the clock calls against the header on v (25 pictures a second or more, at
// least 2 s long): each changes what the next YK_ACQUIRE_CLOCK returns as documented.
static void controls(struct video *v) {
	int64_t now, pts;
	const int64_t ms = 1000000;
	pts = clock_frame(v, &now);
	if (now != 0 || pts != 0)
		die("controls: after open the clock is at %lld ns showing %lld ns, want 0 and 0 (paused at 0)", (long long)now,
		    (long long)pts);
	sleep_ms(100);
	YK(yk_texture_time(v->tex, &now));
	if (now != 0)
		die("controls: paused, the clock moved to %lld ns", (long long)now);
	YK(yk_texture_seek(v->tex, 1000 * ms));
	pts = clock_frame(v, &now);
	if (now != 1000 * ms || pts > now || pts <= now - 100 * ms)
		die("controls: after seek(1 s) the clock is at %lld ns showing %lld ns", (long long)now, (long long)pts);
	YK(yk_texture_set_rate(v->tex, 2));
	YK(yk_texture_play(v->tex));
	sleep_ms(250);
	YK(yk_texture_pause(v->tex));
	pts = clock_frame(v, &now);
	// 0.25 s at twice the speed: 0.5 s on (the sleep may overrun: up to 0.25 s more allowed).
	if (now < 1500 * ms || now > 2000 * ms || pts > now || pts <= now - 100 * ms)
		die("controls: played 0.25 s at rate 2 from 1 s: the clock is at %lld ns showing %lld ns", (long long)now,
		    (long long)pts);
	int64_t paused = now;
	sleep_ms(100);
	YK(yk_texture_time(v->tex, &now));
	if (now != paused)
		die("controls: paused at %lld ns, the clock moved to %lld ns", (long long)paused, (long long)now);
	YK(yk_texture_seek(v->tex, 500 * ms)); // back: the input reopened, decoded up to 0.5 s
	pts = clock_frame(v, &now);
	if (now != 500 * ms || pts > now || pts <= now - 100 * ms)
		die("controls: after seek(0.5 s) back the clock is at %lld ns showing %lld ns", (long long)now, (long long)pts);
	if (yk_texture_set_rate(v->tex, 0) != YK_ERROR_INVALID_ARGUMENT)
		die("controls: yk_texture_set_rate(0) was accepted");
}

int main(int argc, char **argv) {
	int validate = 0, frames = 120, hwdec = 0, isq = 0, bench_frames = 0, check_controls = 0;
	yk_target target = YK_TARGET_SDR;
	double white = 0;
	uint32_t tile_w = 0, tile_h = 0, draw_w = 0, draw_h = 0;
	const char *out = "engine-c.png";
	const char *urls[MAX_VIDEOS];
	int nvideos = 0;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-validate"))
			validate = 1;
		else if (!strcmp(argv[i], "-isq"))
			isq = 1;
		else if (!strcmp(argv[i], "-hwdec"))
			hwdec = 1;
		else if (!strcmp(argv[i], "-frames") && i + 1 < argc)
			frames = atoi(argv[++i]);
		else if (!strcmp(argv[i], "-bench") && i + 1 < argc)
			bench_frames = atoi(argv[++i]);
		else if (!strcmp(argv[i], "-tile") && i + 1 < argc) {
			if (sscanf(argv[++i], "%ux%u", &tile_w, &tile_h) != 2 || !tile_w || !tile_h)
				die("-tile %s: want WxH", argv[i]);
		}
		else if (!strcmp(argv[i], "-draw") && i + 1 < argc) {
			if (sscanf(argv[++i], "%ux%u", &draw_w, &draw_h) != 2 || !draw_w || !draw_h)
				die("-draw %s: want WxH", argv[i]);
		}
		else if (!strcmp(argv[i], "-controls"))
			check_controls = 1;
		else if (!strcmp(argv[i], "-target") && i + 1 < argc) {
			i++;
			if (!strcmp(argv[i], "hdr10"))
				target = YK_TARGET_HDR10;
			else if (!strcmp(argv[i], "extended-linear"))
				target = YK_TARGET_EXTENDED_LINEAR;
			else if (strcmp(argv[i], "sdr"))
				die("-target %s: sdr, hdr10 or extended-linear", argv[i]);
		}
		else if (!strcmp(argv[i], "-white") && i + 1 < argc)
			white = atof(argv[++i]);
		else if (!strcmp(argv[i], "-out") && i + 1 < argc)
			out = argv[++i];
		else if (argv[i][0] == '-')
			die("unknown flag %s (usage: engine-c [-validate] [-hwdec] [-isq] [-frames N] [-tile WxH] [-bench N] "
			    "[-draw WxH] [-controls] [-target sdr|hdr10|extended-linear] [-white N] [-out picture.png] video...)",
			    argv[i]);
		else if (nvideos < MAX_VIDEOS)
			urls[nvideos++] = argv[i];
		else
			die("at most %d videos", MAX_VIDEOS);
	}
	if (nvideos == 0 || frames < 1)
		die("usage: engine-c [-validate] [-hwdec] [-isq] [-frames N] [-tile WxH] [-bench N] [-draw WxH] [-controls] "
		    "[-out picture.png] video...");
	if (YK_ABI_MAJOR(yk_abi_version()) != YK_ABI_MAJOR(YK_ABI_VERSION))
		die("libycbcrkit ABI %u.%u, built against %u.%u", YK_ABI_MAJOR(yk_abi_version()),
		    YK_ABI_MINOR(yk_abi_version()), YK_ABI_MAJOR(YK_ABI_VERSION), YK_ABI_MINOR(YK_ABI_VERSION));

	struct engine e = {0};
	pthread_mutex_init(&e.lock, NULL);
	create_device(&e, validate, hwdec, isq);
	yk_engine_params ep = {.size = sizeof ep, .instance = e.instance, .physical_device = e.physical,
	                       .device = e.device, .queue = e.queue, .queue_family = e.family,
	                       .lock_queue = lock_queue, .unlock_queue = unlock_queue, .lock_user = &e.lock,
	                       .hardware_decoding = (uint32_t)hwdec, .validation = (uint32_t)validate,
	                       .internally_synchronized_queues = (uint32_t)isq};
	yk_engine eng;
	YK(yk_engine_create(&ep, &eng));
	e.yk = eng;

	// Open every video; the target holds them side by side at their own sizes, or in a grid of tiles.
	static struct video videos[MAX_VIDEOS];
	uint32_t cols = 1;
	while (cols * cols < (uint32_t)nvideos)
		cols++;
	for (int i = 0; i < nvideos; i++) {
		struct video *v = &videos[i];
		yk_open_params op = {.size = sizeof op, .loop = 1, .hwdec = hwdec ? YK_HWDEC_VULKAN : YK_HWDEC_AUTO,
		                     .target = target, .target_white = white};
		YK(yk_texture_open(eng, urls[i], &op, &v->tex));
		yk_stats st = {.size = sizeof st};
		YK(yk_texture_stats(v->tex, &st));
		if (hwdec)
			printf("video %d: %s, %s\n", i, st.decoder, st.route == YK_ROUTE_COPY ? "GPU copy" : "no route");
		if (tile_w) {
			v->x = (i % cols) * tile_w, v->y = (i / cols) * tile_h, v->width = tile_w, v->height = tile_h;
			if (v->x + tile_w > e.width)
				e.width = v->x + tile_w;
			if (v->y + tile_h > e.height)
				e.height = v->y + tile_h;
		} else {
			v->x = e.width, v->width = st.width, v->height = st.height;
			e.width += st.width;
			if (st.height > e.height)
				e.height = st.height;
		}
		v->acquire = semaphore(&e, 1);
		for (int k = 0; k < IN_FLIGHT; k++)
			v->release[k] = semaphore(&e, 0);
	}
	if (draw_w)
		e.width = draw_w, e.height = draw_h, e.storage = 1;
	create_target(&e);
	e.vert = shader(&e, vert_spv, sizeof vert_spv);
	e.frag = shader(&e, frag_spv, sizeof frag_spv);
	e.done = semaphore(&e, 1);
	VkCommandPoolCreateInfo cpci = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
	                                .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT, .queueFamilyIndex = e.family};
	VK(vkCreateCommandPool(e.device, &cpci, NULL, &e.cmd_pool));
	VkCommandBufferAllocateInfo cbai = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, .commandPool = e.cmd_pool,
	                                    .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY, .commandBufferCount = IN_FLIGHT};
	VK(vkAllocateCommandBuffers(e.device, &cbai, e.cbs));
	for (int i = 0; i < IN_FLIGHT; i++) {
		VkFenceCreateInfo fci = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
		VK(vkCreateFence(e.device, &fci, NULL, &e.fences[i]));
	}
	if (bench_frames > 0) {
		bench(&e, &videos[0], bench_frames);
		frames = 0;
	}
	int drawn = 0;
	if (draw_w) {
		draw_into(&e, &videos[0]);
		frames = 0, drawn = 1;
	}
	if (check_controls) {
		controls(&videos[0]);
		frames = 0;
	}

	for (int n = 0; n < frames; n++) {
		int slot = n % IN_FLIGHT;
		if (e.submitted[slot]) { // the command buffer and descriptor sets of this slot are free again
			VK(vkWaitForFences(e.device, 1, &e.fences[slot], VK_TRUE, UINT64_MAX));
			VK(vkResetFences(e.device, 1, &e.fences[slot]));
		}
		VkSemaphore waits[MAX_VIDEOS];
		uint64_t wait_values[MAX_VIDEOS];
		VkPipelineStageFlags stages[MAX_VIDEOS];
		for (int i = 0; i < nvideos; i++) {
			struct video *v = &videos[i];
			// Offline: one new picture per frame, in order (a frame loop would acquire on a clock).
			yk_result r = yk_texture_wait_ready(v->tex, 10000);
			if (r < 0 || r == YK_TIMEOUT)
				die("video %d: no picture: %s", i, r == YK_TIMEOUT ? "timeout" : yk_last_error());
			yk_acquire_params ap = {.size = sizeof ap, .mode = YK_ACQUIRE_STEP, .timeline = v->acquire,
			                        .timeline_value = ++v->acquire_value};
			yk_frame *f = &v->held[slot];
			*f = (yk_frame){.size = sizeof *f};
			YK(yk_texture_acquire(v->tex, &ap, f));
			v->holding[slot] = 1;
			if (target != YK_TARGET_SDR && !f->to_target)
				die("video %d: frame %lld not converted to the target", i, (long long)f->index);
			if (f->generation != v->generation)
				build(&e, v, f);
			VkDescriptorImageInfo ii = {.imageView = f->view, .imageLayout = f->layout};
			VkWriteDescriptorSet w = {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstSet = v->sets[slot],
			                          .descriptorCount = 1, .descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
			                          .pImageInfo = &ii};
			vkUpdateDescriptorSets(e.device, 1, &w, 0, NULL);
			waits[i] = f->wait_semaphore;
			wait_values[i] = f->wait_value;
			stages[i] = f->wait_stage;
		}
		VkCommandBuffer cb = e.cbs[slot];
		VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
		                               .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT};
		VK(vkBeginCommandBuffer(cb, &bi));
		VkClearValue clear = {.color = {{0, 0, 0, 1}}};
		VkRenderPassBeginInfo rbi = {.sType = VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO, .renderPass = e.pass,
		                             .framebuffer = e.framebuffer, .renderArea = {{0, 0}, {e.width, e.height}},
		                             .clearValueCount = 1, .pClearValues = &clear};
		vkCmdBeginRenderPass(cb, &rbi, VK_SUBPASS_CONTENTS_INLINE);
		for (int i = 0; i < nvideos; i++) {
			struct video *v = &videos[i];
			const yk_frame *f = &v->held[slot];
			VkViewport vp = {(float)v->x, (float)v->y, (float)v->width, (float)v->height, 0, 1};
			VkRect2D sc = {{(int32_t)v->x, (int32_t)v->y}, {v->width, v->height}};
			vkCmdSetViewport(cb, 0, 1, &vp);
			vkCmdSetScissor(cb, 0, 1, &sc);
			vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, v->pipeline);
			vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, v->layout, 0, 1, &v->sets[slot], 0, NULL);
			vkCmdPushConstants(cb, v->layout, VK_SHADER_STAGE_FRAGMENT_BIT, 0, sizeof f->uv_scale, f->uv_scale);
			vkCmdDraw(cb, 3, 1, 0, 0);
		}
		vkCmdEndRenderPass(cb);
		if (n == frames - 1) {
			VkBufferImageCopy region = {.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1},
			                            .imageExtent = {e.width, e.height, 1}};
			vkCmdCopyImageToBuffer(cb, e.target, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, e.readback, 1, &region);
			VkBufferMemoryBarrier bb = {.sType = VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER,
			                            .srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT, .dstAccessMask = VK_ACCESS_HOST_READ_BIT,
			                            .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
			                            .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED, .buffer = e.readback,
			                            .size = VK_WHOLE_SIZE};
			vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 0, NULL, 1, &bb, 0, NULL);
		}
		VK(vkEndCommandBuffer(cb));
		// Signals: the timeline the first video's release waits for, and each other video's
		// binary release semaphore of this slot.
		VkSemaphore signals[MAX_VIDEOS];
		uint64_t signal_values[MAX_VIDEOS];
		signals[0] = e.done, signal_values[0] = (uint64_t)n + 1;
		for (int i = 1; i < nvideos; i++)
			signals[i] = videos[i].release[slot], signal_values[i] = 0;
		VkTimelineSemaphoreSubmitInfo tsi = {.sType = VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO,
		                                     .waitSemaphoreValueCount = (uint32_t)nvideos, .pWaitSemaphoreValues = wait_values,
		                                     .signalSemaphoreValueCount = (uint32_t)nvideos, .pSignalSemaphoreValues = signal_values};
		VkSubmitInfo si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .pNext = &tsi, .waitSemaphoreCount = (uint32_t)nvideos,
		                   .pWaitSemaphores = waits, .pWaitDstStageMask = stages, .commandBufferCount = 1,
		                   .pCommandBuffers = &cb, .signalSemaphoreCount = (uint32_t)nvideos, .pSignalSemaphores = signals};
		engine_lock(&e);
		VkResult r = vkQueueSubmit(e.queue, 1, &si, e.fences[slot]);
		engine_unlock(&e);
		VK(r);
		e.submitted[slot] = 1;
		// Release on the GPU: the library reuses each image once the engine's submission is done.
		for (int i = 0; i < nvideos; i++) {
			struct video *v = &videos[i];
			yk_release_params rp = {.size = sizeof rp, .semaphore = signals[i], .value = signal_values[i]};
			YK(yk_frame_release(v->tex, &v->held[slot], &rp));
			v->holding[slot] = 0;
		}
	}
	YK(yk_engine_wait_idle(eng));

	if (frames > 0 || drawn) {
		void *pixels;
		VK(vkMapMemory(e.device, e.readback_mem, 0, VK_WHOLE_SIZE, 0, &pixels));
		if (png_write(out, pixels, e.width, e.height) != 0)
			die("write %s failed", out);
		vkUnmapMemory(e.device, e.readback_mem);
	}

	for (int i = 0; i < nvideos; i++) {
		struct video *v = &videos[i];
		YK(yk_texture_close(v->tex));
		destroy_pipeline(&e, v);
		vkDestroySemaphore(e.device, v->acquire, NULL);
		for (int k = 0; k < IN_FLIGHT; k++)
			vkDestroySemaphore(e.device, v->release[k], NULL);
	}
	YK(yk_engine_destroy(eng));
	for (int i = 0; i < IN_FLIGHT; i++)
		vkDestroyFence(e.device, e.fences[i], NULL);
	vkDestroyCommandPool(e.device, e.cmd_pool, NULL);
	vkDestroySemaphore(e.device, e.done, NULL);
	vkDestroyShaderModule(e.device, e.vert, NULL);
	vkDestroyShaderModule(e.device, e.frag, NULL);
	vkDestroyBuffer(e.device, e.readback, NULL);
	vkFreeMemory(e.device, e.readback_mem, NULL);
	vkDestroyFramebuffer(e.device, e.framebuffer, NULL);
	vkDestroyRenderPass(e.device, e.pass, NULL);
	vkDestroyImageView(e.device, e.target_view, NULL);
	vkDestroyImage(e.device, e.target, NULL);
	vkFreeMemory(e.device, e.target_mem, NULL);
	vkDestroyDevice(e.device, NULL);
	if (e.messenger) {
		PFN_vkDestroyDebugUtilsMessengerEXT destroy =
		    (PFN_vkDestroyDebugUtilsMessengerEXT)vkGetInstanceProcAddr(e.instance, "vkDestroyDebugUtilsMessengerEXT");
		destroy(e.instance, e.messenger, NULL);
	}
	vkDestroyInstance(e.instance, NULL);
	if (messages) {
		fprintf(stderr, "error: %d validation message(s)\n", messages);
		return 1;
	}
	if (isq) {
		long n = __atomic_load_n(&lock_calls, __ATOMIC_RELAXED);
		if (n)
			die("the library called lock_queue %ld times on internally synchronized queues", n);
		printf("queue lock calls: 0\n");
	}
	return 0;
}
