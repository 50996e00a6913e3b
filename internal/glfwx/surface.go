//go:build !nowindow

package glfwx

/*
#include <stdint.h>

typedef struct GLFWwindow GLFWwindow;
typedef struct VkInstance_T *VkInstance;
typedef struct VkAllocationCallbacks VkAllocationCallbacks;
// VkSurfaceKHR is a non-dispatchable handle: 64 bits on every platform (vulkan_core.h).
int32_t glfwCreateWindowSurface(VkInstance instance, GLFWwindow *window,
	const VkAllocationCallbacks *allocator, uint64_t *surface);

static int32_t glfwx_create_surface(uintptr_t instance, void *window, uint64_t *surface) {
	return glfwCreateWindowSurface((VkInstance)instance, (GLFWwindow *)window, 0, surface);
}
*/
import "C"

import (
	"unsafe"

	"github.com/go-gl/glfw/v3.3/glfw"
	vk "github.com/vulkan-go/vulkan"
)

// CreateSurface is glfwCreateWindowSurface for win on instance. The VkResult is returned as is.
func CreateSurface(instance vk.Instance, win *glfw.Window) (vk.Surface, vk.Result) {
	var s C.uint64_t
	// A vulkan-go handle is the C handle's 8 bytes (amd64 and arm64).
	inst := *(*C.uintptr_t)(unsafe.Pointer(&instance))
	r := vk.Result(C.glfwx_create_surface(inst, win.Handle(), &s))
	return *(*vk.Surface)(unsafe.Pointer(&s)), r
}
