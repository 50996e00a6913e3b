// import.c: zero-copy uploads. Host memory imported with VK_EXT_external_memory_host (as a buffer, or
// as the planes of a LINEAR image), and the per-frame copy recorder that avoids vulkan-go's
// per-call allocations (about 5 µs and 18 allocations per vk.CmdPipelineBarrier, against 0.5 µs for
// a direct C call).
#include "vkx.h"
#include <pthread.h>
#include <string.h>

// Device-level entry points, looked up once per device. Tests open devices one after the other, so
// a few slots are enough; the oldest is reused. (A new device that gets a destroyed one's handle
// value finds that device's table: the same driver's entry points, as vkx.c's globals assume too.)
typedef struct {
	VkDevice dev;
	PFN_vkCreateBuffer create_buffer;
	PFN_vkDestroyBuffer destroy_buffer;
	PFN_vkGetBufferMemoryRequirements buffer_reqs;
	PFN_vkAllocateMemory allocate;
	PFN_vkFreeMemory free_memory;
	PFN_vkBindBufferMemory bind_buffer;
	PFN_vkCreateImage create_image;
	PFN_vkDestroyImage destroy_image;
	PFN_vkGetImageSubresourceLayout subresource_layout;
	PFN_vkCmdPipelineBarrier barrier;
	PFN_vkCmdCopyBufferToImage copy;
	PFN_vkGetMemoryHostPointerPropertiesEXT host_ptr_props;
} Fns;

#define SLOTS 8
static pthread_mutex_t fns_mu = PTHREAD_MUTEX_INITIALIZER;
static Fns fns[SLOTS];
static int fns_next;

// vkx_import_forget_device drops the entry points cached for a device handle: a device created
// later at the same address must look its own up (the old ones may point into an unloaded layer).
void vkx_import_forget_device(VkDevice d) {
	pthread_mutex_lock(&fns_mu);
	for (int i = 0; i < SLOTS; i++) {
		if (fns[i].dev == d) memset(&fns[i], 0, sizeof fns[i]);
	}
	pthread_mutex_unlock(&fns_mu);
}

static Fns *device_fns(VkDevice d) {
	pthread_mutex_lock(&fns_mu);
	for (int i = 0; i < SLOTS; i++) {
		if (fns[i].dev == d) {
			pthread_mutex_unlock(&fns_mu);
			return &fns[i];
		}
	}
	Fns *f = &fns[fns_next];
	fns_next = (fns_next + 1) % SLOTS;
	memset(f, 0, sizeof *f);
#define GET(field, name) f->field = (void *)vkx_device_proc(d, name)
	GET(create_buffer, "vkCreateBuffer");
	GET(destroy_buffer, "vkDestroyBuffer");
	GET(buffer_reqs, "vkGetBufferMemoryRequirements");
	GET(allocate, "vkAllocateMemory");
	GET(free_memory, "vkFreeMemory");
	GET(bind_buffer, "vkBindBufferMemory");
	GET(create_image, "vkCreateImage");
	GET(destroy_image, "vkDestroyImage");
	GET(subresource_layout, "vkGetImageSubresourceLayout");
	GET(barrier, "vkCmdPipelineBarrier");
	GET(copy, "vkCmdCopyBufferToImage");
	GET(host_ptr_props, "vkGetMemoryHostPointerPropertiesEXT");
#undef GET
	f->dev = d;
	pthread_mutex_unlock(&fns_mu);
	return f;
}

VkResult vkx_import_alignment(VkInstance in, VkPhysicalDevice pd, VkDeviceSize *align) {
	PFN_vkGetPhysicalDeviceProperties2 props2 = (void *)vkx_instance_proc(in, "vkGetPhysicalDeviceProperties2");
	if (!props2)
		return VK_ERROR_INITIALIZATION_FAILED;
	VkPhysicalDeviceExternalMemoryHostPropertiesEXT host = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_MEMORY_HOST_PROPERTIES_EXT};
	VkPhysicalDeviceProperties2 p = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, .pNext = &host};
	props2(pd, &p);
	*align = host.minImportedHostPointerAlignment;
	return VK_SUCCESS;
}

// import_memory allocates memory of a type in bits that the host pointer can be imported as.
static VkResult import_memory(Fns *f, uintptr_t ptr, VkDeviceSize size, uint32_t bits, VkDeviceMemory *out) {
	if (!f->host_ptr_props)
		return VK_ERROR_EXTENSION_NOT_PRESENT;
	VkMemoryHostPointerPropertiesEXT hp = {.sType = VK_STRUCTURE_TYPE_MEMORY_HOST_POINTER_PROPERTIES_EXT};
	VkResult r = f->host_ptr_props(f->dev, VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT, (void *)ptr, &hp);
	if (r != VK_SUCCESS)
		return r;
	bits &= hp.memoryTypeBits;
	if (!bits)
		return VK_ERROR_INVALID_EXTERNAL_HANDLE;
	uint32_t type = (uint32_t)__builtin_ctz(bits);
	VkImportMemoryHostPointerInfoEXT imp = {
		.sType = VK_STRUCTURE_TYPE_IMPORT_MEMORY_HOST_POINTER_INFO_EXT,
		.handleType = VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT,
		.pHostPointer = (void *)ptr};
	VkMemoryAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, .pNext = &imp,
	                           .allocationSize = size, .memoryTypeIndex = type};
	return f->allocate(f->dev, &ai, NULL, out);
}

VkResult vkx_import_memory(VkDevice d, uintptr_t ptr, VkDeviceSize size, uint32_t type_bits, VkDeviceMemory *out) {
	return import_memory(device_fns(d), ptr, size, type_bits, out);
}

VkResult vkx_import_buffer(VkDevice d, uintptr_t ptr, VkDeviceSize size, VkBufferUsageFlags usage, VkBuffer *buf,
                           VkDeviceMemory *mem) {
	Fns *f = device_fns(d);
	*buf = VK_NULL_HANDLE;
	*mem = VK_NULL_HANDLE;
	VkExternalMemoryBufferCreateInfo ext = {.sType = VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_BUFFER_CREATE_INFO,
	                                        .handleTypes = VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT};
	VkBufferCreateInfo ci = {.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, .pNext = &ext, .size = size,
	                         .usage = usage, .sharingMode = VK_SHARING_MODE_EXCLUSIVE};
	VkResult r = f->create_buffer(d, &ci, NULL, buf);
	if (r != VK_SUCCESS)
		return r;
	VkMemoryRequirements req;
	f->buffer_reqs(d, *buf, &req);
	if (req.size > size) { // the import is exactly `size` bytes: a driver wanting more cannot bind it
		r = VK_ERROR_INVALID_EXTERNAL_HANDLE;
	} else if ((r = import_memory(f, ptr, size, req.memoryTypeBits, mem)) == VK_SUCCESS) {
		r = f->bind_buffer(d, *buf, *mem, 0);
	}
	if (r != VK_SUCCESS) {
		vkx_import_free(d, *buf, *mem);
		*buf = VK_NULL_HANDLE;
		*mem = VK_NULL_HANDLE;
	}
	return r;
}

// Pointers travel as integers: a rounded-down pointer may land in Go memory that cgo must not inspect.
VkResult vkx_host_pointer_types(VkDevice d, uintptr_t ptr, uint32_t *type_bits) {
	Fns *f = device_fns(d);
	*type_bits = 0;
	if (!f->host_ptr_props)
		return VK_ERROR_EXTENSION_NOT_PRESENT;
	VkMemoryHostPointerPropertiesEXT hp = {.sType = VK_STRUCTURE_TYPE_MEMORY_HOST_POINTER_PROPERTIES_EXT};
	VkResult r = f->host_ptr_props(d, VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT, (void *)ptr, &hp);
	*type_bits = hp.memoryTypeBits;
	return r;
}

void vkx_import_free(VkDevice d, VkBuffer b, VkDeviceMemory m) {
	Fns *f = device_fns(d);
	if (b)
		f->destroy_buffer(d, b, NULL);
	if (m)
		f->free_memory(d, m, NULL);
}

VkResult vkx_create_external_image(VkDevice d, VkFormat fmt, uint32_t w, uint32_t h, VkImageTiling tiling,
                                   VkImageUsageFlags usage, VkImageCreateFlags flags,
                                   VkExternalMemoryHandleTypeFlagBits handle, VkImageLayout initial, VkImage *out) {
	VkExternalMemoryImageCreateInfo ext = {.sType = VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_IMAGE_CREATE_INFO,
	                                       .handleTypes = handle};
	VkImageCreateInfo ci = {.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO, .pNext = handle ? &ext : NULL,
	                        .flags = flags, .imageType = VK_IMAGE_TYPE_2D, .format = fmt,
	                        .extent = {w, h, 1}, .mipLevels = 1, .arrayLayers = 1,
	                        .samples = VK_SAMPLE_COUNT_1_BIT, .tiling = tiling, .usage = usage,
	                        .sharingMode = VK_SHARING_MODE_EXCLUSIVE, .initialLayout = initial};
	return device_fns(d)->create_image(d, &ci, NULL, out);
}

void vkx_destroy_image(VkDevice d, VkImage img) {
	if (img)
		device_fns(d)->destroy_image(d, img, NULL);
}

void vkx_subresource_layout(VkDevice d, VkImage img, VkImageAspectFlagBits aspect, VkSubresourceLayout *out) {
	VkImageSubresource sub = {.aspectMask = aspect};
	device_fns(d)->subresource_layout(d, img, &sub, out);
}

#define MAX_IMAGES 8

// vkx_cmd_upload records what every upload is: images to TRANSFER_DST (contents discarded when
// from is UNDEFINED), buffer-to-image copies, images to SHADER_READ_ONLY for the fragment or compute
// shader that converts them.
//
// The last nreaders of the images are not written: they alias the memory the others' copies write
// (ALIAS_BIT plane images). They go from UNDEFINED to SHADER_READ_ONLY before the copies (the whole
// memory is rewritten after it), and the barrier after the copies makes the writes visible to them.
void vkx_cmd_upload(VkDevice d, VkCommandBuffer cb, const VkImage *images, uint32_t nimages, uint32_t nreaders,
                    VkImageLayout from, const VkxCopy *copies, uint32_t ncopies, const VkBufferImageCopy *regions) {
	Fns *f = device_fns(d);
	VkImageMemoryBarrier pre[MAX_IMAGES], post[MAX_IMAGES];
	if (nimages > MAX_IMAGES)
		nimages = MAX_IMAGES;
	if (nreaders > nimages)
		nreaders = nimages;
	for (uint32_t i = 0; i < nimages; i++) {
		VkImageMemoryBarrier b = {.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER,
		                          .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
		                          .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED, .image = images[i],
		                          .subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1}};
		pre[i] = b;
		pre[i].dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
		pre[i].oldLayout = from;
		pre[i].newLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
		post[i] = b;
		post[i].srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
		post[i].dstAccessMask = VK_ACCESS_SHADER_READ_BIT;
		post[i].oldLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
		post[i].newLayout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
		if (i >= nimages - nreaders) {
			pre[i].oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
			pre[i].newLayout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
			pre[i].dstAccessMask = 0;
			post[i].oldLayout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
		}
	}
	f->barrier(cb, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, NULL, 0, NULL,
	           nimages, pre);
	for (uint32_t i = 0; i < ncopies; i++)
		f->copy(cb, copies[i].buffer, copies[i].image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, copies[i].count,
		        regions + copies[i].first);
	// Both conversions read the images: drawn (fragment) and dispatched (compute).
	f->barrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT,
	           VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 0, NULL, 0, NULL,
	           nimages, post);
}
