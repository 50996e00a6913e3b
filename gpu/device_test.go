package gpu

import (
	"io"
	"strings"
	"testing"

	vk "github.com/vulkan-go/vulkan"
)

func TestOpenLavapipeWithValidation(t *testing.T) {
	d, err := Open(Options{Index: -1, Validation: true})
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	defer d.Close()
	if !d.Info.Ycbcr {
		t.Fatalf("picked %s without Y′CbCr", d.Info)
	}
	if !d.Validation {
		t.Fatal("validation not on")
	}
	if err := d.Submit(func(cb vk.CommandBuffer) {}); err != nil {
		t.Fatal(err)
	}
	if msgs := d.ValidationMessages(); len(msgs) > 0 {
		t.Fatalf("validation: %v", msgs)
	}
	t.Logf("device: %s", d.Info)
}

func TestPickErrors(t *testing.T) {
	if _, err := pick(nil, -1); err == nil || !strings.Contains(err.Error(), "no Vulkan device") {
		t.Fatalf("empty: %v", err)
	}
	infos := []DeviceInfo{{Index: 0, Name: "old", Type: "CPU"}, {Index: 1, Name: "gpu", Type: "discrete GPU", Ycbcr: true}, {Index: 2, Name: "cpu", Type: "CPU", Ycbcr: true}}
	if i, err := pick(infos, -1); err != nil || i != 1 {
		t.Fatalf("auto: %d %v", i, err)
	}
	if _, err := pick(infos, 0); err == nil || !strings.Contains(err.Error(), "cannot sample") {
		t.Fatalf("index 0: %v", err)
	}
	if _, err := pick(infos, 7); err == nil || !strings.Contains(err.Error(), "no device 7") {
		t.Fatalf("index 7: %v", err)
	}
}

// TestValidationError: a message the validation layer reports (a buffer of size 0,
// VUID-VkBufferCreateInfo-size-00912) comes out as one "validation: " line and an error counting
// it; drained, the next call has nothing.
func TestValidationError(t *testing.T) {
	d, err := Open(Options{Index: -1, Validation: true})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if err := d.ValidationError(io.Discard); err != nil {
		t.Fatalf("before the misuse: %v", err)
	}
	ci := &vk.BufferCreateInfo{SType: vk.StructureTypeBufferCreateInfo, Size: 0,
		Usage: vk.BufferUsageFlags(vk.BufferUsageTransferSrcBit), SharingMode: vk.SharingModeExclusive}
	var b vk.Buffer
	if vk.CreateBuffer(d.Device, ci, nil, &b) == vk.Success {
		vk.DestroyBuffer(d.Device, b, nil)
	}
	ci.Free()
	var out strings.Builder
	err = d.ValidationError(&out)
	if err == nil || !strings.HasPrefix(err.Error(), "1 validation message") {
		t.Errorf("error %v, want one validation message counted", err)
	}
	if !strings.HasPrefix(out.String(), "validation: ") || !strings.Contains(out.String(), "00912") || strings.Count(out.String(), "\n") != 1 {
		t.Errorf("written %q, want one line naming VUID-VkBufferCreateInfo-size-00912", out.String())
	}
	if err := d.ValidationError(io.Discard); err != nil {
		t.Errorf("after draining: %v", err)
	}
}
