// vkx.h: the Vulkan 1.1+ and extension entry points vulkan-go lacks, loaded at run time.
#ifndef YCBCRKIT_VKX_H
#define YCBCRKIT_VKX_H
#define VK_NO_PROTOTYPES
#include <vulkan/vulkan.h>
#include <stdint.h>

int vkx_load(const char *lib);                 // dlopen + vkGetInstanceProcAddr; 0 on success
void *vkx_get_instance_proc_addr(void);        // for vulkan-go's SetGetInstanceProcAddr
int vkx_load_instance(VkInstance instance);    // instance-level entry points; returns count missing
void vkx_load_device(VkDevice device);

VkResult vkx_create_debug_messenger(VkInstance instance, VkDebugUtilsMessengerEXT *out);
void vkx_destroy_debug_messenger(VkInstance instance, VkDebugUtilsMessengerEXT m);
// Copies queued validation messages (NUL-separated) into buf; returns bytes needed.
int vkx_take_messages(char *buf, int cap, int *count, int *errors);
int vkx_message_count(void);
// video.c: validation messages FFmpeg's own queries cause with this layer version (not counted).
int vkx_ffmpeg_known_message(const char *id, const char *text);
int vkx_ffmpeg_known_count(void);

int vkx_ycbcr_feature(VkPhysicalDevice pd, VkBool32 *ycbcr);
void vkx_format_properties(VkPhysicalDevice pd, VkFormat f, VkFormatFeatureFlags *linear,
                           VkFormatFeatureFlags *optimal, VkFormatFeatureFlags *buffer);
VkResult vkx_image_format_properties(VkPhysicalDevice pd, VkFormat f, VkImageType type,
                                     VkImageTiling tiling, VkImageUsageFlags usage, VkImageCreateFlags flags,
                                     VkExternalMemoryHandleTypeFlagBits handle, VkImageFormatProperties *out,
                                     uint32_t *combined_count, VkExternalMemoryFeatureFlags *ext_features);
VkResult vkx_create_device(VkPhysicalDevice pd, uint32_t family, const char *const *exts, uint32_t next,
                           VkBool32 ycbcr, VkDevice *out);
VkResult vkx_create_conversion(VkDevice dev, const VkSamplerYcbcrConversionCreateInfo *info,
                               VkSamplerYcbcrConversion *out);
void vkx_destroy_conversion(VkDevice dev, VkSamplerYcbcrConversion c);
void vkx_image_plane_requirements(VkDevice dev, VkImage image, VkImageAspectFlagBits aspect,
                                  VkMemoryRequirements *out);
VkResult vkx_bind_image_planes(VkDevice dev, VkImage image, uint32_t n, const VkDeviceMemory *mem,
                               const VkDeviceSize *offsets, const VkImageAspectFlagBits *aspects);
VkResult vkx_host_pointer_properties(VkDevice dev, const void *ptr, uint32_t *type_bits);
VkResult vkx_create_headless_surface(VkInstance instance, VkSurfaceKHR *out);
VkSamplerYcbcrConversionInfo *vkx_new_conversion_info(VkSamplerYcbcrConversion c);

// Entry-point lookups for the package's other C files.
void *vkx_instance_proc(VkInstance in, const char *name);
void *vkx_device_proc(VkDevice d, const char *name);

// import.c: host-pointer import (VK_EXT_external_memory_host), LINEAR external images and the
// per-frame upload recorder.
typedef struct {
	VkBuffer buffer;
	VkImage image;
	uint32_t first, count; // regions[first .. first+count)
} VkxCopy;
VkResult vkx_import_alignment(VkInstance in, VkPhysicalDevice pd, VkDeviceSize *align);
VkResult vkx_import_memory(VkDevice d, uintptr_t ptr, VkDeviceSize size, uint32_t type_bits, VkDeviceMemory *out);
VkResult vkx_import_buffer(VkDevice d, uintptr_t ptr, VkDeviceSize size, VkBufferUsageFlags usage, VkBuffer *buf,
                           VkDeviceMemory *mem);
void vkx_import_free(VkDevice d, VkBuffer b, VkDeviceMemory m);
VkResult vkx_host_pointer_types(VkDevice d, uintptr_t ptr, uint32_t *type_bits);
VkResult vkx_create_external_image(VkDevice d, VkFormat f, uint32_t w, uint32_t h, VkImageTiling tiling,
                                   VkImageUsageFlags usage, VkImageCreateFlags flags,
                                   VkExternalMemoryHandleTypeFlagBits handle, VkImageLayout initial, VkImage *out);
void vkx_destroy_image(VkDevice d, VkImage img);
void vkx_subresource_layout(VkDevice d, VkImage img, VkImageAspectFlagBits aspect, VkSubresourceLayout *out);
void vkx_cmd_upload(VkDevice d, VkCommandBuffer cb, const VkImage *images, uint32_t nimages, uint32_t nreaders,
                    VkImageLayout from, const VkxCopy *copies, uint32_t ncopies, const VkBufferImageCopy *regions);
// foreign.c
typedef struct {
	VkImageAspectFlags src_aspect, dst_aspect;
	uint32_t width, height;
} VkxPlaneCopy;
void vkx_foreign_load(void *lib);
void vkx_foreign_image(uint64_t img);
int vkx_foreign_known_message(const char *id, const char *text);
int vkx_foreign_known_count(void);
// VkxBatch is one VkSubmitInfo of vkx_queue_submit_batches: one command buffer, its waits and
// signals (binary or timeline semaphores), kept inline so that Go can pass an array of them.
#define VKX_MAX_SEMAPHORES 4
#define VKX_MAX_BATCHES 2
typedef struct {
	VkCommandBuffer cb;
	uint32_t nwait, nsignal;
	VkSemaphore wait[VKX_MAX_SEMAPHORES];
	uint64_t wait_value[VKX_MAX_SEMAPHORES];
	VkPipelineStageFlags stage[VKX_MAX_SEMAPHORES];
	VkSemaphore signal[VKX_MAX_SEMAPHORES];
	uint64_t signal_value[VKX_MAX_SEMAPHORES];
} VkxBatch;
VkResult vkx_queue_submit_batches(VkQueue q, const VkxBatch *b, uint32_t n, VkFence fence);
VkResult vkx_create_view(VkDevice d, VkImage img, VkFormat format, VkImageAspectFlags aspect,
                         VkSamplerYcbcrConversion conv, VkImageUsageFlags usage, VkImageView *out);
void vkx_cmd_image_barrier(VkCommandBuffer cb, VkImage img, VkImageLayout from, VkImageLayout to,
                           VkAccessFlags src_access, VkAccessFlags dst_access, VkPipelineStageFlags src_stage,
                           VkPipelineStageFlags dst_stage, uint32_t src_family, uint32_t dst_family);
void vkx_cmd_copy_planes(VkCommandBuffer cb, VkImage src, VkImage dst, const VkxPlaneCopy *p, uint32_t n);
// calls.c
void vkx_calls_load(void *lib);
// vkx_submit_locked is vkQueueSubmit of one VkSubmitInfo under q's queue lock (video.h).
VkResult vkx_submit_locked(VkQueue q, const VkSubmitInfo *si, VkFence fence);
VkResult vkx_submit_locked_n(VkQueue q, uint32_t n, const VkSubmitInfo *si, VkFence fence);
VkResult vkx_queue_submit(VkQueue q, VkCommandBuffer cb, VkSemaphore wait, VkPipelineStageFlags stage,
                          VkSemaphore signal, VkFence fence);
VkResult vkx_fullscreen_pipeline(VkDevice d, VkPipelineCache cache, VkPipelineLayout layout, VkRenderPass rp,
                                 VkShaderModule vs, VkShaderModule fs, const int32_t *spec, uint32_t nspec,
                                 VkPipeline *out);
VkResult vkx_blended_pipeline(VkDevice d, VkPipelineCache cache, VkPipelineLayout layout, VkRenderPass rp,
                              VkShaderModule vs, VkShaderModule fs, VkPipeline *out);
VkResult vkx_pipeline_cache(VkDevice d, const void *data, size_t size, VkPipelineCache *out);
VkResult vkx_pipeline_cache_data(VkDevice d, VkPipelineCache cache, size_t *size, void *data);
void vkx_write_buffer(VkDevice d, VkDescriptorSet set, uint32_t binding, VkBuffer buffer);
void vkx_write_images(VkDevice d, VkDescriptorSet set, const VkImageView *views, uint32_t n, VkSampler sampler,
                      VkImageLayout layout);
void vkx_set_viewport(VkCommandBuffer cb, int32_t x, int32_t y, uint32_t w, uint32_t h, int32_t sx, int32_t sy,
                      uint32_t sw, uint32_t sh);
void vkx_import_forget_device(VkDevice d);
VkResult vkx_set_hdr_metadata(VkDevice d, VkSwapchainKHR sc, const float m[12]);
VkResult vkx_compute_pipeline(VkDevice d, VkPipelineCache cache, VkPipelineLayout layout, VkShaderModule cs,
                              const int32_t *spec, uint32_t nspec, VkPipeline *out);
void vkx_write_storage(VkDevice d, VkDescriptorSet set, uint32_t binding, VkImageView view);
// pass.c
#define VKX_PASS_MAX_BUFFERS 8
typedef struct {
	VkDescriptorSetLayout set_layout;
	VkPipelineLayout layout;
	VkDescriptorPool pool;
	uint32_t nbuffers, push_bytes;
} VkxPass;
void vkx_pass_load(void *lib);
VkResult vkx_pass_create(VkDevice d, uint32_t nbuffers, uint32_t push_bytes, uint32_t max_sets, VkxPass *s);
VkResult vkx_pass_pipeline(VkDevice d, VkPipelineCache cache, const VkxPass *s, const uint32_t *spv, size_t size,
                           const int32_t *spec, uint32_t nspec, VkPipeline *out);
void vkx_pass_destroy_pipeline(VkDevice d, VkPipeline p);
VkResult vkx_pass_alloc_set(VkDevice d, const VkxPass *s, VkDescriptorSet *out);
void vkx_pass_free_set(VkDevice d, const VkxPass *s, VkDescriptorSet set);
void vkx_pass_destroy(VkDevice d, VkxPass *s);
void vkx_cmd_pass_bind(VkDevice d, VkCommandBuffer cb, const VkxPass *s, VkPipeline pipeline, VkDescriptorSet set,
                       const VkBuffer *buffers, int update);
void vkx_cmd_pass_dispatch(VkCommandBuffer cb, const VkxPass *s, const void *push, uint32_t groups);
void vkx_cmd_memory_barrier(VkCommandBuffer cb, VkPipelineStageFlags src_stage, VkAccessFlags src_access,
                            VkPipelineStageFlags dst_stage, VkAccessFlags dst_access);
#endif
