// share.c: images two devices of one GPU share (VK_KHR_external_memory_fd, opaque fds): one device
// writes what the other reads, each through an image of its own bound to the same memory. Opaque
// fds need the same driver and device on both sides (Vulkan spec, "External Memory Handle Types":
// deviceUUID and driverUUID must match), which two VkDevices of one physical device have.
#include "vkx.h"

VkResult vkx_share_memory(VkDevice d, VkImage img, uint32_t allowed, int fd_in, VkDeviceMemory *mem, int *fd_out,
                          VkDeviceSize *size) {
	*mem = VK_NULL_HANDLE;
	*fd_out = -1;
	VkImageMemoryRequirementsInfo2 ri = {.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_REQUIREMENTS_INFO_2, .image = img};
	VkMemoryRequirements2 req = {.sType = VK_STRUCTURE_TYPE_MEMORY_REQUIREMENTS_2};
	vkx_fn.GetImageMemoryRequirements2(d, &ri, &req);
	uint32_t bits = req.memoryRequirements.memoryTypeBits & allowed;
	if (!bits)
		return VK_ERROR_FEATURE_NOT_PRESENT;
	*size = req.memoryRequirements.size;
	// A dedicated allocation on both sides: NVIDIA reports opaque-fd images as dedicated only
	// (VkExternalMemoryProperties), and the importer must match the exporter's allocation.
	VkMemoryDedicatedAllocateInfo ded = {.sType = VK_STRUCTURE_TYPE_MEMORY_DEDICATED_ALLOCATE_INFO, .image = img};
	VkExportMemoryAllocateInfo exp = {.sType = VK_STRUCTURE_TYPE_EXPORT_MEMORY_ALLOCATE_INFO, .pNext = &ded,
	                                  .handleTypes = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT};
	VkImportMemoryFdInfoKHR imp = {.sType = VK_STRUCTURE_TYPE_IMPORT_MEMORY_FD_INFO_KHR, .pNext = &ded,
	                               .handleType = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT, .fd = fd_in};
	VkMemoryAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
	                           .pNext = fd_in >= 0 ? (void *)&imp : (void *)&exp,
	                           .allocationSize = req.memoryRequirements.size,
	                           .memoryTypeIndex = (uint32_t)__builtin_ctz(bits)};
	VkResult r = vkx_fn.AllocateMemory(d, &ai, NULL, mem);
	if (r != VK_SUCCESS) {
		*mem = VK_NULL_HANDLE;
		return r;
	}
	VkBindImageMemoryInfo bi = {.sType = VK_STRUCTURE_TYPE_BIND_IMAGE_MEMORY_INFO, .image = img, .memory = *mem};
	if ((r = vkx_fn.BindImageMemory2(d, 1, &bi)) == VK_SUCCESS && fd_in < 0) {
		PFN_vkGetMemoryFdKHR get = vkx_device_ext(d)->GetMemoryFdKHR;
		if (!get) {
			r = VK_ERROR_EXTENSION_NOT_PRESENT;
		} else {
			VkMemoryGetFdInfoKHR gi = {.sType = VK_STRUCTURE_TYPE_MEMORY_GET_FD_INFO_KHR, .memory = *mem,
			                           .handleType = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT};
			r = get(d, &gi, fd_out);
		}
	}
	if (r != VK_SUCCESS) {
		vkx_fn.FreeMemory(d, *mem, NULL);
		*mem = VK_NULL_HANDLE;
		*fd_out = -1;
	}
	return r;
}

// vkx_cmd_copy_planes copies the top-left widths[i]×heights[i] texels of plane i of src (in
// TRANSFER_SRC_OPTIMAL) to dst's (in TRANSFER_DST_OPTIMAL): multi-planar images of one format.
void vkx_cmd_copy_planes(VkCommandBuffer cb, VkImage src, VkImage dst, uint32_t planes, const uint32_t *widths,
                         const uint32_t *heights) {
	VkImageCopy rs[3];
	if (planes > 3) planes = 3;
	for (uint32_t i = 0; i < planes; i++) {
		VkImageAspectFlags a = planes == 1 ? VK_IMAGE_ASPECT_COLOR_BIT : (VkImageAspectFlags)(VK_IMAGE_ASPECT_PLANE_0_BIT << i);
		rs[i] = (VkImageCopy){.srcSubresource = {.aspectMask = a, .layerCount = 1},
		                      .dstSubresource = {.aspectMask = a, .layerCount = 1},
		                      .extent = {widths[i], heights[i], 1}};
	}
	vkx_fn.CmdCopyImage(cb, src, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, dst, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
	                    planes, rs);
}

// vkx_device_uuids reads pd's deviceUUID and driverUUID (VkPhysicalDeviceIDProperties).
void vkx_device_uuids(VkPhysicalDevice pd, uint8_t *dev, uint8_t *drv) {
	VkPhysicalDeviceIDProperties id = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES};
	VkPhysicalDeviceProperties2 p = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, .pNext = &id};
	vkx_fn.GetPhysicalDeviceProperties2(pd, &p);
	for (int i = 0; i < VK_UUID_SIZE; i++) {
		dev[i] = id.deviceUUID[i];
		drv[i] = id.driverUUID[i];
	}
}
