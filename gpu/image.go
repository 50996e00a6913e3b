package gpu

import (
	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/internal/vkx"
)

// NewImage2D creates a width×height optimal-tiling image with its own device-local memory and a
// colour view: the shape of every render and storage target. On error nothing is left behind.
func (d *Device) NewImage2D(format vk.Format, width, height int, usage vk.ImageUsageFlagBits) (vk.Image, vk.DeviceMemory, vk.ImageView, error) {
	ci := &vk.ImageCreateInfo{
		SType: vk.StructureTypeImageCreateInfo, ImageType: vk.ImageType2d, Format: format,
		Extent: vk.Extent3D{Width: uint32(width), Height: uint32(height), Depth: 1}, MipLevels: 1, ArrayLayers: 1,
		Samples: vk.SampleCount1Bit, Tiling: vk.ImageTilingOptimal, Usage: vk.ImageUsageFlags(usage),
		SharingMode: vk.SharingModeExclusive, InitialLayout: vk.ImageLayoutUndefined,
	}
	// Locals, not fields, receive handles: cgo refuses a pointer into a struct holding Go pointers.
	var img vk.Image
	err := vkx.Check(vk.CreateImage(d.Device, ci, nil, &img), "vkCreateImage")
	ci.Free()
	if err != nil {
		return vk.NullImage, vk.NullDeviceMemory, vk.NullImageView, err
	}
	var req vk.MemoryRequirements
	vk.GetImageMemoryRequirements(d.Device, img, &req)
	req.Deref()
	mem, err := d.Allocate(req.Size, req.MemoryTypeBits, vk.MemoryPropertyDeviceLocalBit)
	var view vk.ImageView
	if err == nil {
		if err = vkx.Check(vk.BindImageMemory(d.Device, img, mem, 0), "vkBindImageMemory"); err == nil {
			view, err = d.NewView(img, format, vk.ImageAspectColorBit, nil)
		}
	}
	if err != nil {
		d.DestroyImage2D(img, mem, vk.NullImageView)
		return vk.NullImage, vk.NullDeviceMemory, vk.NullImageView, err
	}
	return img, mem, view, nil
}

// DestroyImage2D destroys what NewImage2D made (null handles are skipped).
func (d *Device) DestroyImage2D(img vk.Image, mem vk.DeviceMemory, view vk.ImageView) {
	if view != vk.NullImageView {
		vk.DestroyImageView(d.Device, view, nil)
	}
	if img != vk.NullImage {
		vk.DestroyImage(d.Device, img, nil)
	}
	d.Free(mem)
}

// NewSampler creates the toolkit's one plain sampler shape: filter for magnification and
// minification, one level, clamped to the edge (no border colour is ever read). NEAREST fetches
// whole texels (the shader path filters in its own arithmetic; text is placed texel for pixel),
// LINEAR samples between them (a picture scaled or sampled off-centre, as the Y′CbCr sampler's LINEAR
// filter does).
func (d *Device) NewSampler(filter vk.Filter) (vk.Sampler, error) {
	si := &vk.SamplerCreateInfo{SType: vk.StructureTypeSamplerCreateInfo,
		MagFilter: filter, MinFilter: filter, MipmapMode: vk.SamplerMipmapModeNearest,
		AddressModeU: vk.SamplerAddressModeClampToEdge, AddressModeV: vk.SamplerAddressModeClampToEdge,
		AddressModeW: vk.SamplerAddressModeClampToEdge, BorderColor: vk.BorderColorFloatOpaqueBlack}
	var s vk.Sampler
	err := vkx.Check(vk.CreateSampler(d.Device, si, nil, &s), "vkCreateSampler")
	si.Free()
	return s, err
}
