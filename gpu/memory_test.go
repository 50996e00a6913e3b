package gpu

import (
	"testing"

	vk "github.com/vulkan-go/vulkan"
)

// TestMemoryStats: what Allocate gives out is counted, its host-visible part apart, until Free;
// the peak stays.
func TestMemoryStats(t *testing.T) {
	d, err := Open(Options{Index: -1, Validation: true})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	base := d.MemoryStats()
	b, err := d.NewBuffer(1<<20, vk.BufferUsageTransferSrcBit, vk.MemoryPropertyHostVisibleBit|vk.MemoryPropertyHostCoherentBit)
	if err != nil {
		t.Fatal(err)
	}
	img, mem, view, err := d.NewImage2D(TargetFormat, 256, 128, vk.ImageUsageSampledBit)
	if err != nil {
		t.Fatal(err)
	}
	m := d.MemoryStats()
	imgBytes := d.MemorySize(mem)
	if imgBytes < 256*128*4 || d.MemorySize(b.Memory) < 1<<20 {
		t.Errorf("sizes: image %d bytes (want at least %d), buffer %d (want at least %d)", imgBytes, 256*128*4, d.MemorySize(b.Memory), 1<<20)
	}
	if got, want := m.Bytes-base.Bytes, imgBytes+d.MemorySize(b.Memory); got != want || m.Allocations != base.Allocations+2 {
		t.Errorf("after two allocations: %d bytes in %d allocations, want %d in %d", got, m.Allocations, want, base.Allocations+2)
	}
	if got := m.HostVisibleBytes - base.HostVisibleBytes; got != d.MemorySize(b.Memory) {
		t.Errorf("host-visible: %d bytes, want the buffer's %d", got, d.MemorySize(b.Memory))
	}
	b.Destroy()
	d.DestroyImage2D(img, mem, view)
	end := d.MemoryStats()
	if end.Bytes != base.Bytes || end.HostVisibleBytes != base.HostVisibleBytes || end.Allocations != base.Allocations {
		t.Errorf("after Free: %+v, want the start's %+v", end, base)
	}
	if end.PeakBytes < m.Bytes {
		t.Errorf("peak %d below the %d allocated at once", end.PeakBytes, m.Bytes)
	}
}
