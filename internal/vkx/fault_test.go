package vkx

import (
	"errors"
	"testing"

	vk "github.com/vulkan-go/vulkan"
)

func TestInjectFault(t *testing.T) {
	t.Cleanup(ClearFaults)
	InjectFault("vkQueueSubmit", vk.ErrorDeviceLost, 2)
	for i, want := range []bool{false, false, true, true} {
		err := Check(vk.Success, "vkQueueSubmit")
		if (err != nil) != want {
			t.Fatalf("check %d: %v, want fault %v", i, err, want)
		}
		if want && (!IsDeviceLost(err) || err.Error() != "vkQueueSubmit: VK_ERROR_DEVICE_LOST") {
			t.Fatalf("check %d: %q", i, err)
		}
	}
	if err := Check(vk.Success, "vkWaitForFences"); err != nil {
		t.Fatalf("another call failed: %v", err)
	}
	// A real failure is reported as it is; a qualified name matches its plain name.
	InjectFault("vkAllocateMemory", vk.ErrorOutOfDeviceMemory, 0)
	var e *Error
	if err := Check(vk.ErrorOutOfHostMemory, "vkAllocateMemory"); !errors.As(err, &e) || e.Result != vk.ErrorOutOfHostMemory {
		t.Fatalf("real failure: %v", err)
	}
	if err := Check(vk.Success, "vkAllocateMemory(VkImportMemoryHostPointerInfoEXT)"); !errors.As(err, &e) || e.Result != vk.ErrorOutOfDeviceMemory {
		t.Fatalf("qualified name: %v", err)
	}
	if Checks("vkQueueSubmit") != 4 || Fired("vkQueueSubmit") != 2 || Fired("vkAllocateMemory") != 1 {
		t.Fatalf("counts: %d checks, %d/%d fired", Checks("vkQueueSubmit"), Fired("vkQueueSubmit"), Fired("vkAllocateMemory"))
	}
	ClearFaults()
	if err := Check(vk.Success, "vkQueueSubmit"); err != nil {
		t.Fatalf("after ClearFaults: %v", err)
	}
}
