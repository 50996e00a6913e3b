package gpu

import (
	"fmt"
	"strings"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/internal/vkx"
)

// Wrap makes a Device of handles that an engine created and owns (package videotex uses it), so
// that the toolkit's code (planes, ycbcr) runs on the engine's device unchanged. extensions are
// the device extensions the engine enabled (with or without a trailing NUL).
//
// Wrap loads the toolkit's own entry points (the Vulkan 1.1 calls vulkan-go lacks) for instance and
// device, and creates a command pool on family. Those entry points are process-wide: one device at
// a time. Free a wrapped Device with Release, never with Close: Close destroys the device and the
// instance, which belong to the engine.
func Wrap(instance vk.Instance, physical vk.PhysicalDevice, device vk.Device, queue vk.Queue, family uint32, extensions []string) (*Device, error) {
	if instance == nil || physical == nil || device == nil || queue == nil {
		return nil, fmt.Errorf("gpu: wrap: instance, physical device, device and queue must all be set")
	}
	if err := vkx.Load(); err != nil {
		return nil, fmt.Errorf("gpu: wrap: %w", err)
	}
	if err := vkx.LoadInstance(instance); err != nil {
		return nil, fmt.Errorf("gpu: wrap: %w", err)
	}
	vkx.LoadDevice(device)
	d := &Device{Instance: instance, Physical: physical, Device: device, Queue: queue, Queues: []vk.Queue{queue}, QueueFamily: family,
		Extensions: map[string]bool{}}
	props := d.readPhysical()
	d.Info = DeviceInfo{Index: -1, Name: vk.ToString(props.DeviceName[:]), Type: deviceTypeName(props.DeviceType),
		APIVersion: apiString(props.ApiVersion),
		Ycbcr:      props.ApiVersion >= vk.MakeVersion(1, 1, 0) && vkx.YcbcrConversionFeature(physical)}
	var nq uint32
	vk.GetPhysicalDeviceQueueFamilyProperties(physical, &nq, nil)
	if family >= nq {
		return nil, fmt.Errorf("gpu: wrap: queue family %d: %s has %d", family, d.Info.Name, nq)
	}
	for _, e := range extensions {
		d.Extensions[strings.TrimRight(e, "\x00")] = true
	}
	pci := &vk.CommandPoolCreateInfo{
		SType:            vk.StructureTypeCommandPoolCreateInfo,
		Flags:            vk.CommandPoolCreateFlags(vk.CommandPoolCreateResetCommandBufferBit),
		QueueFamilyIndex: family,
	}
	var pool vk.CommandPool
	err := vkx.Check(vk.CreateCommandPool(device, pci, nil, &pool), "vkCreateCommandPool")
	pci.Free()
	if err != nil {
		return nil, fmt.Errorf("gpu: wrap: %w", err)
	}
	d.pool = pool
	// An engine's own pipeline cache is not reachable through the handles: the toolkit's pipelines
	// go through one of its own, in memory.
	if err := d.openPipelineCache(""); err != nil {
		d.Release()
		return nil, fmt.Errorf("gpu: wrap: %w", err)
	}
	return d, nil
}

// Release frees what Wrap made (the command pool, the pipeline cache) and leaves the engine's device, queue and
// instance alone. The GPU must be done with the pool's command buffers.
func (d *Device) Release() {
	d.closePipelineCache()
	if d.pool != vk.NullCommandPool {
		vk.DestroyCommandPool(d.Device, d.pool, nil)
		d.pool = vk.NullCommandPool
	}
	d.Device, d.Instance = nil, nil
}
