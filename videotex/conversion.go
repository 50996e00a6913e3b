package videotex

import (
	vk "github.com/vulkan-go/vulkan"
)

// Conversion is the VkSamplerYcbcrConversionCreateInfo behind a sampler-path Frame's Sampler and
// View, as plain values (what Dawn's YCbCrVkDescriptor carries): an engine that makes its own
// immutable sampler (its own VkSamplerYcbcrConversion, identically defined, as Vulkan requires of a
// sampler used with the view: VUID-VkWriteDescriptorSet-descriptorType-01948) builds it from these.
type Conversion struct {
	Format                      vk.Format
	Model                       vk.SamplerYcbcrModelConversion
	Range                       vk.SamplerYcbcrRange
	Components                  [4]vk.ComponentSwizzle // r, g, b, a
	XChromaOffset               vk.ChromaLocation
	YChromaOffset               vk.ChromaLocation
	ChromaFilter                vk.Filter
	ForceExplicitReconstruction bool
}

// Conversion describes the frame's Y′CbCr conversion; ok is false on the shader path, whose
// sampler is a plain one (no conversion: an RGBA8 image).
func (f *Frame) Conversion() (c Conversion, ok bool) {
	k, ok := f.t.eng.paths.Cache.BySampler(f.Sampler)
	if !ok {
		return Conversion{}, false
	}
	c = Conversion{Format: vk.Format(k.Format), Model: vk.SamplerYcbcrModelConversion(k.Model),
		Range: vk.SamplerYcbcrRange(k.Range), XChromaOffset: vk.ChromaLocation(k.XOffset),
		YChromaOffset: vk.ChromaLocation(k.YOffset), ChromaFilter: k.ChromaFilter,
		ForceExplicitReconstruction: k.ForceExplicit}
	if k.SwapCbCr { // ycbcr.Key.createInfo's swizzle: Cb and Cr swapped
		c.Components = [4]vk.ComponentSwizzle{vk.ComponentSwizzleB, vk.ComponentSwizzleIdentity, vk.ComponentSwizzleR, vk.ComponentSwizzleIdentity}
	}
	return c, true
}
