// import.c: zero-copy uploads' memory: host memory imported with VK_EXT_external_memory_host (as a
// buffer, or as the planes of a LINEAR image), and images created with external memory.
#include "vkx.h"

void vkx_import_alignment(VkPhysicalDevice pd, VkDeviceSize *align) {
	VkPhysicalDeviceExternalMemoryHostPropertiesEXT host = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_MEMORY_HOST_PROPERTIES_EXT};
	VkPhysicalDeviceProperties2 p = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, .pNext = &host};
	vkx_fn.GetPhysicalDeviceProperties2(pd, &p);
	*align = host.minImportedHostPointerAlignment;
}

// import_memory allocates memory of a type in bits that the host pointer can be imported as.
static VkResult import_memory(VkDevice d, uintptr_t ptr, VkDeviceSize size, uint32_t bits, VkDeviceMemory *out) {
	PFN_vkGetMemoryHostPointerPropertiesEXT props = vkx_device_ext(d)->GetMemoryHostPointerPropertiesEXT;
	if (!props)
		return VK_ERROR_EXTENSION_NOT_PRESENT;
	VkMemoryHostPointerPropertiesEXT hp = {.sType = VK_STRUCTURE_TYPE_MEMORY_HOST_POINTER_PROPERTIES_EXT};
	VkResult r = props(d, VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT, (void *)ptr, &hp);
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
	return vkx_fn.AllocateMemory(d, &ai, NULL, out);
}

VkResult vkx_import_buffer(VkDevice d, uintptr_t ptr, VkDeviceSize size, VkBufferUsageFlags usage, VkBuffer *buf,
                           VkDeviceMemory *mem) {
	*buf = VK_NULL_HANDLE;
	*mem = VK_NULL_HANDLE;
	VkExternalMemoryBufferCreateInfo ext = {.sType = VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_BUFFER_CREATE_INFO,
	                                        .handleTypes = VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT};
	VkBufferCreateInfo ci = {.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, .pNext = &ext, .size = size,
	                         .usage = usage, .sharingMode = VK_SHARING_MODE_EXCLUSIVE};
	VkResult r = vkx_fn.CreateBuffer(d, &ci, NULL, buf);
	if (r != VK_SUCCESS)
		return r;
	VkMemoryRequirements req;
	vkx_fn.GetBufferMemoryRequirements(d, *buf, &req);
	if (req.size > size) { // the import is exactly `size` bytes: a driver wanting more cannot bind it
		r = VK_ERROR_INVALID_EXTERNAL_HANDLE;
	} else if ((r = import_memory(d, ptr, size, req.memoryTypeBits, mem)) == VK_SUCCESS) {
		r = vkx_fn.BindBufferMemory(d, *buf, *mem, 0);
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
		*type_bits = 0;
	PFN_vkGetMemoryHostPointerPropertiesEXT props = vkx_device_ext(d)->GetMemoryHostPointerPropertiesEXT;
	if (!props)
		return VK_ERROR_EXTENSION_NOT_PRESENT;
	VkMemoryHostPointerPropertiesEXT hp = {.sType = VK_STRUCTURE_TYPE_MEMORY_HOST_POINTER_PROPERTIES_EXT};
	VkResult r = props(d, VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT, (void *)ptr, &hp);
	*type_bits = hp.memoryTypeBits;
	return r;
}

void vkx_import_free(VkDevice d, VkBuffer b, VkDeviceMemory m) {
		if (b)
		vkx_fn.DestroyBuffer(d, b, NULL);
	if (m)
		vkx_fn.FreeMemory(d, m, NULL);
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
	return vkx_fn.CreateImage(d, &ci, NULL, out);
}

void vkx_destroy_image(VkDevice d, VkImage img) {
	if (img)
		vkx_fn.DestroyImage(d, img, NULL);
}

void vkx_subresource_layout(VkDevice d, VkImage img, VkImageAspectFlagBits aspect, VkSubresourceLayout *out) {
	VkImageSubresource sub = {.aspectMask = aspect};
	vkx_fn.GetImageSubresourceLayout(d, img, &sub, out);
}
