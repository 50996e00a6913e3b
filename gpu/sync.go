package gpu

import (
	"fmt"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/internal/vkx"
)

// NewSemaphore creates a binary semaphore.
func (d *Device) NewSemaphore() (vk.Semaphore, error) {
	ci := &vk.SemaphoreCreateInfo{SType: vk.StructureTypeSemaphoreCreateInfo}
	var s vk.Semaphore
	err := vkx.Check(vk.CreateSemaphore(d.Device, ci, nil, &s), "vkCreateSemaphore")
	ci.Free()
	return s, err
}

// NewFence creates a fence, signalled if asked (so the first wait on a frame slot returns at once).
func (d *Device) NewFence(signalled bool) (vk.Fence, error) {
	ci := &vk.FenceCreateInfo{SType: vk.StructureTypeFenceCreateInfo}
	if signalled {
		ci.Flags = vk.FenceCreateFlags(vk.FenceCreateSignaledBit)
	}
	var f vk.Fence
	err := vkx.Check(vk.CreateFence(d.Device, ci, nil, &f), "vkCreateFence")
	ci.Free()
	return f, err
}

// NewCommandBuffer allocates a primary command buffer from the device's resettable pool (tests,
// examples), under a lock. Recording into it while another goroutine records a command buffer of
// the same pool is not allowed (the pool is externally synchronized): what records side by side
// takes a pool of its own (NewCommandPool), as each stream's ring does.
func (d *Device) NewCommandBuffer() (vk.CommandBuffer, error) {
	d.poolMu.Lock()
	defer d.poolMu.Unlock()
	return allocateCommandBuffer(d.Device, d.pool)
}

// FreeCommandBuffer returns a command buffer to the pool.
func (d *Device) FreeCommandBuffer(cb vk.CommandBuffer) {
	d.poolMu.Lock()
	defer d.poolMu.Unlock()
	vk.FreeCommandBuffers(d.Device, d.pool, 1, []vk.CommandBuffer{cb})
}

func allocateCommandBuffer(dev vk.Device, pool vk.CommandPool) (vk.CommandBuffer, error) {
	ai := &vk.CommandBufferAllocateInfo{SType: vk.StructureTypeCommandBufferAllocateInfo, CommandPool: pool,
		Level: vk.CommandBufferLevelPrimary, CommandBufferCount: 1}
	cbs := make([]vk.CommandBuffer, 1)
	err := vkx.Check(vk.AllocateCommandBuffers(dev, ai, cbs), "vkAllocateCommandBuffers")
	ai.Free()
	return cbs[0], err
}

// newCommandPool creates a pool of resettable command buffers on family.
func newCommandPool(dev vk.Device, family uint32) (vk.CommandPool, error) {
	pci := &vk.CommandPoolCreateInfo{
		SType:            vk.StructureTypeCommandPoolCreateInfo,
		Flags:            vk.CommandPoolCreateFlags(vk.CommandPoolCreateResetCommandBufferBit),
		QueueFamilyIndex: family,
	}
	var pool vk.CommandPool
	err := vkx.Check(vk.CreateCommandPool(dev, pci, nil, &pool), "vkCreateCommandPool")
	pci.Free()
	return pool, err
}

// CommandPool is a pool of resettable command buffers on the device's queue family, for one
// goroutine at a time: a command pool is externally synchronized (Vulkan spec, "Command Pools":
// recording into any of its command buffers needs host access to the pool), so streams recorded
// side by side (a wall's display step spread over workers) each record from a pool of their own.
type CommandPool struct {
	dev  *Device
	pool vk.CommandPool
}

// NewCommandPool makes a command pool of the caller's own.
func (d *Device) NewCommandPool() (*CommandPool, error) {
	pool, err := newCommandPool(d.Device, d.QueueFamily)
	if err != nil {
		return nil, fmt.Errorf("gpu: %w", err)
	}
	return &CommandPool{dev: d, pool: pool}, nil
}

// NewCommandBuffer allocates a primary command buffer from the pool.
func (p *CommandPool) NewCommandBuffer() (vk.CommandBuffer, error) {
	return allocateCommandBuffer(p.dev.Device, p.pool)
}

// Destroy frees the pool and every command buffer allocated from it; the GPU must be done with
// them. A nil pool is a no-op.
func (p *CommandPool) Destroy() {
	if p == nil || p.pool == vk.NullCommandPool {
		return
	}
	vk.DestroyCommandPool(p.dev.Device, p.pool, nil)
	p.pool = vk.NullCommandPool
}

// WaitFence waits for a fence without a time limit and resets it. A lost device is an error.
func (d *Device) WaitFence(f vk.Fence) error {
	fs := []vk.Fence{f}
	if err := vkx.Check(vk.WaitForFences(d.Device, 1, fs, vk.True, ^uint64(0)), "vkWaitForFences"); err != nil {
		return fmt.Errorf("gpu: %w", err)
	}
	return vkx.Check(vk.ResetFences(d.Device, 1, fs), "vkResetFences")
}

// Begin starts recording cb, from one of the toolkit's pools (all made with
// RESET_COMMAND_BUFFER_BIT: the begin resets it), for one submission.
func Begin(cb vk.CommandBuffer) error { return vkx.BeginCommandBuffer(cb) }
