// vkx.h: the package's one header. Every C file of internal/vkx includes it (video.c through
// video.h) and nothing else of the package: the files form a star around loader.c, which fills the
// one table of entry points below. No C file calls another's functions except through this header's
// loader and table (doc.go draws the star).
#ifndef YCBCRKIT_VKX_H
#define YCBCRKIT_VKX_H
#define VK_NO_PROTOTYPES
#include <vulkan/vulkan.h>
#include <stddef.h>
#include <stdint.h>

// ---- loader.c: the table ------------------------------------------------------------------------
//
// Every core entry point the package calls, taken from the loader's exported trampolines (dlsym on
// libvulkan.so.1). A trampoline dispatches on its first handle, so one table is right for every
// instance and device in the process, whatever layers each was created with (Vulkan loader
// documentation, "LoaderInterfaceArchitecture": exported functions go through the dispatch table of
// the object passed). Extensions the loader does not export come from vkGetInstanceProcAddr (the
// instance's, vkx_instance_ext) or vkGetDeviceProcAddr (per device, vkx_device_ext).
#define VKX_CORE(X)                                                                                                  \
	X(GetInstanceProcAddr) X(GetDeviceProcAddr) X(EnumerateInstanceVersion) X(CreateDevice)                            \
	X(GetPhysicalDeviceProperties) X(GetPhysicalDeviceProperties2) X(GetPhysicalDeviceFeatures2)                       \
	X(GetPhysicalDeviceFormatProperties2) X(GetPhysicalDeviceImageFormatProperties2)                                   \
	X(GetPhysicalDeviceQueueFamilyProperties2) X(GetDeviceQueue2)                                                                         \
	X(CreateSamplerYcbcrConversion) X(DestroySamplerYcbcrConversion) X(GetImageMemoryRequirements2)                    \
	X(BindImageMemory2) X(CreateBuffer) X(DestroyBuffer) X(GetBufferMemoryRequirements) X(AllocateMemory)              \
	X(FreeMemory) X(BindBufferMemory) X(CreateImage) X(DestroyImage) X(GetImageSubresourceLayout)                      \
	X(CreateImageView) X(CreateShaderModule) X(DestroyShaderModule) X(CreateGraphicsPipelines)                         \
	X(CreateComputePipelines) X(DestroyPipeline) X(CreatePipelineCache) X(GetPipelineCacheData)                        \
	X(CreateDescriptorSetLayout) X(DestroyDescriptorSetLayout) X(CreatePipelineLayout) X(DestroyPipelineLayout)        \
	X(CreateDescriptorPool) X(DestroyDescriptorPool) X(AllocateDescriptorSets) X(FreeDescriptorSets)                   \
	X(UpdateDescriptorSets) X(QueueSubmit) X(QueuePresentKHR) X(DeviceWaitIdle) X(WaitSemaphores) X(GetSemaphoreCounterValue) X(SignalSemaphore) X(CreateSemaphore) X(CmdPipelineBarrier) \
	X(CmdCopyBufferToImage) X(CmdCopyImageToBuffer) X(CmdCopyImage) X(CmdCopyBuffer) X(CmdBeginRenderPass)             \
	X(CmdSetViewport) X(CmdSetScissor) X(CmdBindPipeline) X(CmdBindDescriptorSets) X(CmdPushConstants) X(CmdDispatch)

#define VKX_FIELD(name) PFN_vk##name name;
typedef struct {
	VKX_CORE(VKX_FIELD)
} VkxTable;
extern VkxTable vkx_fn;

// Instance extensions, from the last instance vkx_load_instance saw (NULL where not enabled).
typedef struct {
	PFN_vkCreateDebugUtilsMessengerEXT CreateDebugUtilsMessengerEXT;
	PFN_vkDestroyDebugUtilsMessengerEXT DestroyDebugUtilsMessengerEXT;
} VkxInstanceExt;
extern VkxInstanceExt vkx_instance_ext;

// Device extensions, looked up per device (NULL where not enabled).
typedef struct {
	VkDevice dev;
	PFN_vkGetMemoryHostPointerPropertiesEXT GetMemoryHostPointerPropertiesEXT;
	PFN_vkGetMemoryFdKHR GetMemoryFdKHR;
} VkxDeviceExt;
const VkxDeviceExt *vkx_device_ext(VkDevice d);

extern char *const vkx_funcs[];  // the table's entry points by name, ending in NULL (for internal/dl)
void vkx_bind(void *const *fns); // fills the table with their addresses, in vkx_funcs' order
void vkx_load_instance(VkInstance instance);
void vkx_load_device(VkDevice device); // a new device: forget what an earlier one at its address had
uint32_t vkx_instance_version(void);

// ---- device.c: what a physical device offers, device creation, images and conversions -----------
int vkx_ycbcr_feature(VkPhysicalDevice pd, VkBool32 *ycbcr);
// VK_KHR_internally_synchronized_queues (extension 505, device, Vulkan 1.1, ratified): queues
// created with the flag below may be used from several threads without external synchronization.
// Neither the installed headers (1.3.239) nor FFmpeg's (1.4.309) define it; the values are the
// Khronos registry's (Vulkan-Headers registry/vk.xml and vulkan_core.h, from 1.4.340 on, read at
// 1.4.359): offset 0 of extension 505 (1000000000 + 504 * 1000) and bitpos 2 of
// VkDeviceQueueCreateFlagBits. VKX_ names, so that a newer header's own cannot clash.
#define VKX_EXT_INTERNALLY_SYNCHRONIZED_QUEUES "VK_KHR_internally_synchronized_queues"
#define VKX_STRUCTURE_TYPE_INTERNALLY_SYNCHRONIZED_QUEUES_FEATURES ((VkStructureType)1000504000)
#define VKX_DEVICE_QUEUE_CREATE_INTERNALLY_SYNCHRONIZED_BIT ((VkDeviceQueueCreateFlags)0x00000004)
typedef struct { // VkPhysicalDeviceInternallySynchronizedQueuesFeaturesKHR
	VkStructureType sType;
	void *pNext;
	VkBool32 internallySynchronizedQueues;
} VkxInternallySynchronizedQueuesFeatures;
// vkx_isq_feature reads the feature (vkGetPhysicalDeviceFeatures2); only for a device that lists the
// extension (its struct in the chain is valid usage there alone).
int vkx_isq_feature(VkPhysicalDevice pd, VkBool32 *on);
// vkx_isq_feature_chain returns, in malloc'd memory, the feature struct with the feature on,
// followed by next: for VkDeviceCreateInfo.pNext.
void *vkx_isq_feature_chain(void *next);
// vkx_get_device_queue2 is vkGetDeviceQueue2 (Vulkan 1.1): the queue created with flags.
VkQueue vkx_get_device_queue2(VkDevice dev, uint32_t family, uint32_t index, VkDeviceQueueCreateFlags flags);
void vkx_format_properties(VkPhysicalDevice pd, VkFormat f, VkFormatFeatureFlags *linear,
                           VkFormatFeatureFlags *optimal, VkFormatFeatureFlags *buffer);
VkResult vkx_image_format_properties(VkPhysicalDevice pd, VkFormat f, VkImageType type,
                                     VkImageTiling tiling, VkImageUsageFlags usage, VkImageCreateFlags flags,
                                     VkExternalMemoryHandleTypeFlagBits handle, VkImageFormatProperties *out,
                                     uint32_t *combined_count, VkExternalMemoryFeatureFlags *ext_features);
void vkx_driver_properties(VkPhysicalDevice pd, char *name, char *info);
void vkx_pci_bus_info(VkPhysicalDevice pd, uint32_t out[4]);
VkResult vkx_create_device(VkPhysicalDevice pd, uint32_t family, uint32_t queues, const char *const *exts, uint32_t next,
                           VkBool32 ycbcr, VkDevice *out);
VkResult vkx_create_conversion(VkDevice dev, const VkSamplerYcbcrConversionCreateInfo *info,
                               VkSamplerYcbcrConversion *out);
void vkx_destroy_conversion(VkDevice dev, VkSamplerYcbcrConversion c);
VkSamplerYcbcrConversionInfo *vkx_new_conversion_info(VkSamplerYcbcrConversion c);
void vkx_image_plane_requirements(VkDevice dev, VkImage image, VkImageAspectFlagBits aspect,
                                  VkMemoryRequirements *out);
VkResult vkx_bind_image_planes(VkDevice dev, VkImage image, uint32_t n, const VkDeviceMemory *mem,
                               const VkDeviceSize *offsets, const VkImageAspectFlagBits *aspects);
VkResult vkx_create_view(VkDevice d, VkImage img, VkFormat format, VkImageAspectFlags aspect,
                         VkSamplerYcbcrConversion conv, VkImageUsageFlags usage, VkImageView *out);
VkResult vkx_set_hdr_metadata(VkDevice d, VkSwapchainKHR sc, const float m[12]);

// ---- import.c: host-pointer import (VK_EXT_external_memory_host) and external images ------------
void vkx_import_alignment(VkPhysicalDevice pd, VkDeviceSize *align);
VkResult vkx_import_buffer(VkDevice d, uintptr_t ptr, VkDeviceSize size, VkBufferUsageFlags usage, VkBuffer *buf,
                           VkDeviceMemory *mem);
void vkx_import_free(VkDevice d, VkBuffer b, VkDeviceMemory m);
VkResult vkx_host_pointer_types(VkDevice d, uintptr_t ptr, uint32_t *type_bits);
VkResult vkx_create_external_image(VkDevice d, VkFormat f, uint32_t w, uint32_t h, VkImageTiling tiling,
                                   VkImageUsageFlags usage, VkImageCreateFlags flags,
                                   VkExternalMemoryHandleTypeFlagBits handle, VkImageLayout initial, VkImage *out);
void vkx_destroy_image(VkDevice d, VkImage img);
void vkx_subresource_layout(VkDevice d, VkImage img, VkImageAspectFlagBits aspect, VkSubresourceLayout *out);

// ---- share.c: images shared by two devices of one GPU (VK_KHR_external_memory_fd) ---------------
// vkx_share_memory allocates img's memory (a dedicated allocation of a type in allowed) and binds it:
// exportable as an opaque fd (written to *fd_out) when fd_in < 0, else imported from fd_in, which
// the driver then owns.
VkResult vkx_share_memory(VkDevice d, VkImage img, uint32_t allowed, int fd_in, VkDeviceMemory *mem, int *fd_out,
                          VkDeviceSize *size);
void vkx_cmd_copy_planes(VkCommandBuffer cb, VkImage src, VkImage dst, uint32_t planes, const uint32_t *widths,
                         const uint32_t *heights);
void vkx_device_uuids(VkPhysicalDevice pd, uint8_t *dev, uint8_t *drv);

// ---- messages.c: validation messages ------------------------------------------------------------
VkResult vkx_create_debug_messenger(VkInstance instance, VkDebugUtilsMessengerEXT *out);
void vkx_destroy_debug_messenger(VkInstance instance, VkDebugUtilsMessengerEXT m);
// Copies queued validation messages (NUL-separated) into buf; returns bytes needed.
int vkx_take_messages(char *buf, int cap, int *count, int *errors);
void vkx_foreign_image(uint64_t img);

// ---- queue.c: the queue lock and everything that takes it ---------------------------------------
//
// One mutex per (family, index), taken by the toolkit around its vkQueueSubmit, vkQueuePresentKHR
// and vkDeviceWaitIdle and by FFmpeg through AVVulkanDeviceContext.lock_queue (hwcontext_vulkan.h:
// "Locks a queue, preventing other threads from submitting any command buffers to this queue").
#define VKX_MAX_QUEUE_FAMILIES 16
#define VKX_MAX_QUEUES 32
void vkx_queue_lock(uint32_t family, uint32_t index);
void vkx_queue_unlock(uint32_t family, uint32_t index);
void *vkx_queue_lock_fn(void);
void *vkx_queue_unlock_fn(void);
// A queue the toolkit submits to by handle: its submissions take the lock of its (family, index).
void vkx_queue_register(VkQueue q, uint32_t family, uint32_t index);
void vkx_queue_unregister(VkQueue q);
// VkxBatch is one VkSubmitInfo of vkx_queue_submit_batches: one command buffer, its waits and
// signals (binary or timeline semaphores), kept inline so that Go can pass an array of them (8
// waits: an engine frame that samples six videotex textures waits on six Frames and its image).
#define VKX_MAX_SEMAPHORES 8
#define VKX_MAX_BATCHES 256
typedef struct {
	VkCommandBuffer cb;
	uint32_t nwait, nsignal;
	VkSemaphore wait[VKX_MAX_SEMAPHORES];
	uint64_t wait_value[VKX_MAX_SEMAPHORES];
	VkPipelineStageFlags stage[VKX_MAX_SEMAPHORES];
	VkSemaphore signal[VKX_MAX_SEMAPHORES];
	uint64_t signal_value[VKX_MAX_SEMAPHORES];
} VkxBatch;
VkResult vkx_queue_submit(VkQueue q, VkCommandBuffer cb, VkSemaphore wait, VkPipelineStageFlags stage,
                          VkSemaphore signal, VkFence fence);
VkResult vkx_queue_submit_batches(VkQueue q, const VkxBatch *b, uint32_t n, VkFence fence);
// VkxPoints are up to 8 timeline points (semaphore s[i] at value v[i], i < n), passed by value: a
// Go array whose address went to C would be put on Go's heap at every call.
typedef struct {
	VkSemaphore s[8];
	uint64_t v[8];
	uint32_t n;
} VkxPoints;
// vkx_wait_semaphores waits until every point of p is reached (vkWaitSemaphores, Vulkan 1.2), at
// most timeout nanoseconds: no queue is touched, so it takes no lock.
VkResult vkx_wait_semaphores(VkDevice dev, VkxPoints p, uint64_t timeout);
// vkx_semaphores_reached says, without waiting, whether every point of p is reached: VK_SUCCESS
// yes, VK_TIMEOUT not yet, else the error. It reads the counters (vkGetSemaphoreCounterValue), or
// with wait set asks one vkWaitSemaphores of them all with a zero timeout.
VkResult vkx_semaphores_reached(VkDevice dev, VkxPoints p, int wait);
// vkx_signal_semaphore sets the timeline semaphore s to value from the host (vkSignalSemaphore).
VkResult vkx_signal_semaphore(VkDevice dev, VkSemaphore s, uint64_t value);
// vkx_create_timeline makes a timeline semaphore at initial (VkSemaphoreTypeCreateInfo, Vulkan 1.2).
VkResult vkx_create_timeline(VkDevice dev, uint64_t initial, VkSemaphore *out);
VkResult vkx_queue_present(VkQueue q, VkSwapchainKHR sc, uint32_t index, VkSemaphore wait);
VkResult vkx_device_wait_idle(VkDevice dev);
// vkx_device_wait_idle_unlocked: without the locks, for internally synchronized queues.
VkResult vkx_device_wait_idle_unlocked(VkDevice dev);

// ---- pipeline.c: pipelines and the pipeline cache -----------------------------------------------
VkResult vkx_fullscreen_pipeline(VkDevice d, VkPipelineCache cache, VkPipelineLayout layout, VkRenderPass rp,
                                 VkShaderModule vs, VkShaderModule fs, const int32_t *spec, uint32_t nspec,
                                 VkPipeline *out);
VkResult vkx_blended_pipeline(VkDevice d, VkPipelineCache cache, VkPipelineLayout layout, VkRenderPass rp,
                              VkShaderModule vs, VkShaderModule fs, VkPipeline *out);
VkResult vkx_compute_pipeline(VkDevice d, VkPipelineCache cache, VkPipelineLayout layout, VkShaderModule cs,
                              const int32_t *spec, uint32_t nspec, VkPipeline *out);
VkResult vkx_spirv_compute_pipeline(VkDevice d, VkPipelineCache cache, VkPipelineLayout layout, const uint32_t *spv,
                                    size_t size, const int32_t *spec, uint32_t nspec, VkPipeline *out);
void vkx_destroy_pipeline(VkDevice d, VkPipeline p);
VkResult vkx_pipeline_cache(VkDevice d, const void *data, size_t size, VkPipelineCache *out);
VkResult vkx_pipeline_cache_data(VkDevice d, VkPipelineCache cache, size_t *size, void *data);

// ---- commands.c: what per-frame code records, and descriptor writes -----------------------------
// VkxImageBarrier is one image memory barrier on an image's colour aspect (every plane).
typedef struct {
	VkImage image;
	VkImageLayout from, to;
	VkAccessFlags src_access, dst_access;
	uint32_t src_family, dst_family;
} VkxImageBarrier;
#define VKX_MAX_IMAGE_BARRIERS 8
void vkx_cmd_barrier(VkCommandBuffer cb, VkPipelineStageFlags src_stage, VkPipelineStageFlags dst_stage,
                     VkAccessFlags src_access, VkAccessFlags dst_access, const VkxImageBarrier *images, uint32_t n);
typedef struct {
	VkBuffer buffer;
	VkImage image;
	uint32_t first, count; // regions[first .. first+count)
} VkxCopy;
void vkx_cmd_upload(VkCommandBuffer cb, const VkImage *images, uint32_t nimages, uint32_t nreaders,
                    VkImageLayout from, const VkxCopy *copies, uint32_t ncopies, const VkBufferImageCopy *regions);
typedef struct {
	VkImageAspectFlags src_aspect, dst_aspect;
	uint32_t width, height;
} VkxPlaneCopy;
void vkx_cmd_upload_image(VkCommandBuffer cb, const VkImage *images, uint32_t nimages, uint32_t nreaders,
                          VkImageLayout from, VkImage src, const VkxCopy *copies, uint32_t ncopies,
                          const VkxPlaneCopy *planes);
void vkx_cmd_copy_image_region(VkCommandBuffer cb, VkImage src, VkImageLayout src_layout, int32_t sx, int32_t sy,
                                VkImage dst, VkImageLayout dst_layout, int32_t dx, int32_t dy, uint32_t w, uint32_t h);
void vkx_cmd_copy_buffer_to_image(VkCommandBuffer cb, VkBuffer buf, VkImage img, VkImageLayout layout, uint32_t w,
                                  uint32_t h);
void vkx_cmd_copy_image_to_buffer(VkCommandBuffer cb, VkImage img, VkImageLayout layout, VkBuffer buf, uint32_t w,
                                  uint32_t h);
void vkx_cmd_copy_buffer(VkCommandBuffer cb, VkBuffer src, VkBuffer dst, VkDeviceSize src_offset,
                         VkDeviceSize dst_offset, VkDeviceSize size);
void vkx_cmd_begin_render_pass(VkCommandBuffer cb, VkRenderPass rp, VkFramebuffer fb, uint32_t w, uint32_t h,
                               const float clear[4], const float *depth);
void vkx_cmd_begin_render_area(VkCommandBuffer cb, VkRenderPass rp, VkFramebuffer fb, int32_t x, int32_t y, uint32_t w,
                               uint32_t h);
void vkx_set_viewport(VkCommandBuffer cb, int32_t x, int32_t y, uint32_t w, uint32_t h, int32_t sx, int32_t sy,
                      uint32_t sw, uint32_t sh);
void vkx_write_buffer(VkDevice d, VkDescriptorSet set, uint32_t binding, VkBuffer buffer);
void vkx_write_images(VkDevice d, VkDescriptorSet set, const VkImageView *views, uint32_t n, VkSampler sampler,
                      VkImageLayout layout);
void vkx_write_storage(VkDevice d, VkDescriptorSet set, uint32_t binding, VkImageView view);

// ---- pass.c: the per-frame recording of compute passes over storage buffers ----------------------
#define VKX_PASS_MAX_BUFFERS 8
void vkx_cmd_bind_buffers(VkDevice d, VkCommandBuffer cb, VkPipelineLayout layout, VkPipeline pipeline,
                          VkDescriptorSet set, const VkBuffer *buffers, uint32_t n, int update);
void vkx_cmd_dispatch_groups(VkCommandBuffer cb, VkPipelineLayout layout, const void *push, uint32_t push_bytes,
                             uint32_t groups);
#endif
