package gpu

import (
	"sync"

	vk "github.com/vulkan-go/vulkan"
)

// MemoryStats is the device memory the toolkit allocated on a Device through Allocate (images,
// buffers, staging; not memory imported from host pointers, which is the decoder's own, nor what
// FFmpeg allocates on the device for hardware decoding: decode.HWMemory counts that).
type MemoryStats struct {
	Bytes       int64 // allocated now
	PeakBytes   int64 // the most allocated at once
	Allocations int   // live allocations now
	// HostVisibleBytes is the part of Bytes that is host-visible (staging buffers): system memory
	// on a discrete GPU, where a driver may count it in the process's resident set.
	HostVisibleBytes int64
}

// memAccount keeps each allocation's size so that Free can take it off.
type memAccount struct {
	mu    sync.Mutex
	sizes map[vk.DeviceMemory]allocation
	stats MemoryStats
}

type allocation struct {
	size int64
	host bool
}

func (a *memAccount) add(mem vk.DeviceMemory, size int64, host bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.sizes == nil {
		a.sizes = map[vk.DeviceMemory]allocation{}
	}
	a.sizes[mem] = allocation{size, host}
	a.stats.Bytes += size
	if host {
		a.stats.HostVisibleBytes += size
	}
	a.stats.Allocations++
	a.stats.PeakBytes = max(a.stats.PeakBytes, a.stats.Bytes)
}

func (a *memAccount) remove(mem vk.DeviceMemory) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if al, ok := a.sizes[mem]; ok {
		delete(a.sizes, mem)
		a.stats.Bytes -= al.size
		if al.host {
			a.stats.HostVisibleBytes -= al.size
		}
		a.stats.Allocations--
	}
}

// MemoryStats reports the memory Allocate gave out and Free has not taken back.
func (d *Device) MemoryStats() MemoryStats {
	d.mem.mu.Lock()
	defer d.mem.mu.Unlock()
	return d.mem.stats
}

// MemorySize is the size of an allocation Allocate made (0 for other memory).
func (d *Device) MemorySize(mem vk.DeviceMemory) int64 {
	d.mem.mu.Lock()
	defer d.mem.mu.Unlock()
	return d.mem.sizes[mem].size
}

// Count adds memory allocated outside Allocate (shared images: vkx.ExportMemory) to MemoryStats
// until Free.
func (d *Device) Count(mem vk.DeviceMemory, size int64) { d.mem.add(mem, size, false) }

// LocalTypes are the device-local memory types, as a bit mask of their indices.
func (d *Device) LocalTypes() uint32 {
	var bits uint32
	for i := uint32(0); i < d.Memory.MemoryTypeCount; i++ {
		if vk.MemoryPropertyFlagBits(d.Memory.MemoryTypes[i].PropertyFlags)&vk.MemoryPropertyDeviceLocalBit != 0 {
			bits |= 1 << i
		}
	}
	return bits
}

// Free frees memory Allocate made (unmapping it) and takes it off MemoryStats. Null is ignored.
func (d *Device) Free(mem vk.DeviceMemory) {
	if mem == vk.NullDeviceMemory {
		return
	}
	d.mem.remove(mem)
	vk.FreeMemory(d.Device, mem, nil)
}
