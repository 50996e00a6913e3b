package gpu

import (
	vk "github.com/vulkan-go/vulkan"
	"strings"
	"testing"
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
