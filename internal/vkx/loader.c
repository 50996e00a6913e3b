// loader.c: the centre of the package's C files (vkx.h): the one table of entry points every other
// file calls through, filled from the Vulkan loader that internal/dl opens.
#include "vkx.h"
#include <pthread.h>
#include <string.h>

VkxTable vkx_fn;
VkxInstanceExt vkx_instance_ext;

#define VKX_NAME(name) "vk" #name,
char *const vkx_funcs[] = {VKX_CORE(VKX_NAME) NULL};

void vkx_bind(void *const *fns) {
	int i = 0;
#define VKX_BIND(name) vkx_fn.name = (PFN_vk##name)fns[i++];
	VKX_CORE(VKX_BIND)
#undef VKX_BIND
}

void vkx_load_instance(VkInstance in) {
	// Optional: absent is not an error here; callers check before use.
	vkx_instance_ext.CreateDebugUtilsMessengerEXT =
		(PFN_vkCreateDebugUtilsMessengerEXT)vkx_fn.GetInstanceProcAddr(in, "vkCreateDebugUtilsMessengerEXT");
	vkx_instance_ext.DestroyDebugUtilsMessengerEXT =
		(PFN_vkDestroyDebugUtilsMessengerEXT)vkx_fn.GetInstanceProcAddr(in, "vkDestroyDebugUtilsMessengerEXT");
}

uint32_t vkx_instance_version(void) {
	uint32_t v = VK_API_VERSION_1_0;
	if (vkx_fn.EnumerateInstanceVersion(&v) != VK_SUCCESS) v = VK_API_VERSION_1_0;
	return v;
}

// Device extensions per device. Tests open devices one after the other, so a few slots are enough;
// the oldest is reused.
#define DEVICE_SLOTS 8
static pthread_mutex_t ext_mu = PTHREAD_MUTEX_INITIALIZER;
static VkxDeviceExt ext[DEVICE_SLOTS];
static int ext_next;

static VkxDeviceExt *lookup(VkDevice d) {
	VkxDeviceExt *e = &ext[ext_next];
	ext_next = (ext_next + 1) % DEVICE_SLOTS;
	e->dev = d;
	e->GetMemoryHostPointerPropertiesEXT =
		(PFN_vkGetMemoryHostPointerPropertiesEXT)vkx_fn.GetDeviceProcAddr(d, "vkGetMemoryHostPointerPropertiesEXT");
	e->GetMemoryFdKHR = (PFN_vkGetMemoryFdKHR)vkx_fn.GetDeviceProcAddr(d, "vkGetMemoryFdKHR");
	return e;
}

// vkx_load_device looks d's extensions up afresh: a device created at a destroyed one's address must
// not find that one's (which may point into an unloaded layer).
void vkx_load_device(VkDevice d) {
	pthread_mutex_lock(&ext_mu);
	for (int i = 0; i < DEVICE_SLOTS; i++)
		if (ext[i].dev == d) memset(&ext[i], 0, sizeof ext[i]);
	lookup(d);
	pthread_mutex_unlock(&ext_mu);
}

const VkxDeviceExt *vkx_device_ext(VkDevice d) {
	pthread_mutex_lock(&ext_mu);
	VkxDeviceExt *e = NULL;
	for (int i = 0; i < DEVICE_SLOTS && !e; i++)
		if (ext[i].dev == d) e = &ext[i];
	if (!e) e = lookup(d);
	pthread_mutex_unlock(&ext_mu);
	return e;
}
