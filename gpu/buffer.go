package gpu

import (
	"fmt"
	"unsafe"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/internal/vkx"
)

// Buffer is a VkBuffer with its own memory; host-visible buffers stay mapped for their lifetime.
type Buffer struct {
	Handle vk.Buffer
	Memory vk.DeviceMemory
	Size   int
	// Mapped is the persistent mapping of a host-visible buffer (nil otherwise).
	Mapped unsafe.Pointer
	dev    *Device
}

// Bytes is the mapped memory as a slice (nil for device-local buffers).
func (b *Buffer) Bytes() []byte {
	if b.Mapped == nil {
		return nil
	}
	return unsafe.Slice((*byte)(b.Mapped), b.Size)
}

// NewBuffer creates a buffer with memory of the wanted properties; host-visible ones are mapped.
func (d *Device) NewBuffer(size int, usage vk.BufferUsageFlagBits, props vk.MemoryPropertyFlagBits) (*Buffer, error) {
	ci := &vk.BufferCreateInfo{SType: vk.StructureTypeBufferCreateInfo, Size: vk.DeviceSize(size),
		Usage: vk.BufferUsageFlags(usage), SharingMode: vk.SharingModeExclusive}
	var h vk.Buffer
	err := vkx.Check(vk.CreateBuffer(d.Device, ci, nil, &h), "vkCreateBuffer")
	ci.Free()
	if err != nil {
		return nil, fmt.Errorf("gpu: buffer of %d bytes: %w", size, err)
	}
	b := &Buffer{Handle: h, Size: size, dev: d}
	var req vk.MemoryRequirements
	vk.GetBufferMemoryRequirements(d.Device, h, &req)
	req.Deref()
	mem, err := d.Allocate(req.Size, req.MemoryTypeBits, props)
	if err != nil {
		b.Destroy()
		return nil, fmt.Errorf("gpu: buffer of %d bytes: %w", size, err)
	}
	b.Memory = mem
	if err := vkx.Check(vk.BindBufferMemory(d.Device, h, mem, 0), "vkBindBufferMemory"); err != nil {
		b.Destroy()
		return nil, fmt.Errorf("gpu: %w", err)
	}
	if props&vk.MemoryPropertyHostVisibleBit != 0 {
		var p unsafe.Pointer
		if err := vkx.Check(vk.MapMemory(d.Device, mem, 0, vk.DeviceSize(size), 0, &p), "vkMapMemory"); err != nil {
			b.Destroy()
			return nil, fmt.Errorf("gpu: %w", err)
		}
		b.Mapped = p
	}
	return b, nil
}

// Destroy frees the buffer and its memory.
func (b *Buffer) Destroy() {
	if b == nil || b.dev == nil {
		return
	}
	if b.Handle != vk.NullBuffer {
		vk.DestroyBuffer(b.dev.Device, b.Handle, nil)
	}
	b.dev.Free(b.Memory) // unmaps too
	b.dev = nil
}

// Allocate allocates device memory of a type in typeBits with the wanted properties, counted in
// MemoryStats until Free.
func (d *Device) Allocate(size vk.DeviceSize, typeBits uint32, props vk.MemoryPropertyFlagBits) (vk.DeviceMemory, error) {
	idx, err := d.MemoryType(typeBits, props)
	if err != nil {
		return vk.NullDeviceMemory, err
	}
	ai := &vk.MemoryAllocateInfo{SType: vk.StructureTypeMemoryAllocateInfo, AllocationSize: size, MemoryTypeIndex: idx}
	var mem vk.DeviceMemory
	err = vkx.Check(vk.AllocateMemory(d.Device, ai, nil, &mem), "vkAllocateMemory")
	ai.Free()
	if err == nil {
		d.mem.add(mem, int64(size), props&vk.MemoryPropertyHostVisibleBit != 0)
	}
	return mem, err
}
