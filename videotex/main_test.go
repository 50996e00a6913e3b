package videotex_test

import (
	"fmt"
	"os"
	"testing"

	"github.com/ycbcrkit/ycbcrkit/gpu"
	"github.com/ycbcrkit/ycbcrkit/internal/testkit/vktest"
)

// shared is the device every test lends to its textures, with validation on, open for the whole
// run: one device instead of one per test is faster, and it keeps the validation layer and the
// driver loaded throughout. internal/vkx caches device entry points by VkDevice handle value
// (import.c, device_fns) and never forgets them, so a device created at the address of a
// destroyed one gets its pointers; with the layer unloaded in between those point at unmapped
// code. Keeping one instance alive avoids that until vkx is fixed.
var shared *gpu.Device

func TestMain(m *testing.M) {
	d, err := gpu.Open(gpu.Options{Index: -1, Validation: true})
	if err != nil {
		fmt.Fprintf(os.Stderr, "no usable Vulkan device: %v\n", err)
		os.Exit(1)
	}
	shared = d
	code := m.Run()
	d.Close()
	os.Exit(code)
}

// testDevice is the shared device; validation messages a test causes fail that test.
func testDevice(t *testing.T) *gpu.Device {
	t.Helper()
	t.Cleanup(func() { vktest.Check(t, shared) })
	return shared
}
