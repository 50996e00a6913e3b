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

// NewCommandBuffer allocates a primary command buffer from the device's resettable pool.
func (d *Device) NewCommandBuffer() (vk.CommandBuffer, error) {
	ai := &vk.CommandBufferAllocateInfo{SType: vk.StructureTypeCommandBufferAllocateInfo, CommandPool: d.pool,
		Level: vk.CommandBufferLevelPrimary, CommandBufferCount: 1}
	cbs := make([]vk.CommandBuffer, 1)
	err := vkx.Check(vk.AllocateCommandBuffers(d.Device, ai, cbs), "vkAllocateCommandBuffers")
	ai.Free()
	if err == nil {
		d.commandBuffers.Add(1)
	}
	return cbs[0], err
}

// FreeCommandBuffer returns a command buffer to the pool.
func (d *Device) FreeCommandBuffer(cb vk.CommandBuffer) {
	vk.FreeCommandBuffers(d.Device, d.pool, 1, []vk.CommandBuffer{cb})
	d.commandBuffers.Add(-1)
}

// CommandBuffers is how many command buffers NewCommandBuffer made that FreeCommandBuffer has not
// given back: a user that keeps them (stream.Options.Replay) leaks none when it is back to where
// it started.
func (d *Device) CommandBuffers() int64 { return d.commandBuffers.Load() }

// WaitFence waits for a fence without a time limit and resets it. A lost device is an error.
func (d *Device) WaitFence(f vk.Fence) error {
	fs := []vk.Fence{f}
	if err := vkx.Check(vk.WaitForFences(d.Device, 1, fs, vk.True, ^uint64(0)), "vkWaitForFences"); err != nil {
		return fmt.Errorf("gpu: %w", err)
	}
	return vkx.Check(vk.ResetFences(d.Device, 1, fs), "vkResetFences")
}

// Begin starts recording cb for one submission.
func Begin(cb vk.CommandBuffer) error {
	return begin(cb, vk.CommandBufferUsageOneTimeSubmitBit)
}

// BeginReused starts recording cb for any number of submissions, one at a time.
func BeginReused(cb vk.CommandBuffer) error { return begin(cb, 0) }

func begin(cb vk.CommandBuffer, flags vk.CommandBufferUsageFlagBits) error {
	// No vkResetCommandBuffer: the toolkit's pools have RESET_COMMAND_BUFFER, so beginning resets
	// (vkBeginCommandBuffer, "implicitly reset"), and each call to NVIDIA's driver takes a
	// device-wide lock that decoding threads contend for (docs/performance.md, "Live walls").
	bi := &vk.CommandBufferBeginInfo{SType: vk.StructureTypeCommandBufferBeginInfo,
		Flags: vk.CommandBufferUsageFlags(flags)}
	err := vkx.Check(vk.BeginCommandBuffer(cb, bi), "vkBeginCommandBuffer")
	bi.Free()
	return err
}
