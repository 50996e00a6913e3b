package ycbcr

import (
	"fmt"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/internal/vkx"
	"github.com/ycbcrkit/ycbcrkit/planes"
	"github.com/ycbcrkit/ycbcrkit/present"
	"github.com/ycbcrkit/ycbcrkit/shaders"
)

// maxTextures is the number of texture bindings shader.frag declares.
const maxTextures = 3

// ShaderPath converts in the fragment shader from plain per-plane textures: every layout, matrix and
// siting the table and metadata describe, including what the Y′CbCr sampler cannot express.
type ShaderPath struct {
	Sampler   vk.Sampler // nearest, clamp to edge: the shader fetches texels and filters them itself
	SetLayout vk.DescriptorSetLayout
	pipes     pipelines
	pool      vk.DescriptorPool
	compute   *computeKit // made by the first BindCompute
	dev       *present.Device
}

// NewShaderPath creates the sampler, layouts and descriptor pool of the shader path.
func NewShaderPath(dev *present.Device) (*ShaderPath, error) {
	sp := &ShaderPath{dev: dev}
	if err := sp.init(); err != nil {
		sp.Destroy()
		return nil, fmt.Errorf("ycbcr: shader path: %w", err)
	}
	return sp, nil
}

func (sp *ShaderPath) init() error {
	d := sp.dev.Device
	si := &vk.SamplerCreateInfo{SType: vk.StructureTypeSamplerCreateInfo,
		MagFilter: vk.FilterNearest, MinFilter: vk.FilterNearest, MipmapMode: vk.SamplerMipmapModeNearest,
		AddressModeU: vk.SamplerAddressModeClampToEdge, AddressModeV: vk.SamplerAddressModeClampToEdge,
		AddressModeW: vk.SamplerAddressModeClampToEdge, BorderColor: vk.BorderColorFloatOpaqueBlack}
	var s vk.Sampler
	err := vkx.Check(vk.CreateSampler(d, si, nil, &s), "vkCreateSampler")
	si.Free()
	if err != nil {
		return err
	}
	sp.Sampler = s
	bindings := make([]vk.DescriptorSetLayoutBinding, maxTextures)
	for i := range bindings {
		bindings[i] = vk.DescriptorSetLayoutBinding{Binding: uint32(i), DescriptorType: vk.DescriptorTypeCombinedImageSampler,
			DescriptorCount: 1, StageFlags: vk.ShaderStageFlags(vk.ShaderStageFragmentBit)}
	}
	li := &vk.DescriptorSetLayoutCreateInfo{SType: vk.StructureTypeDescriptorSetLayoutCreateInfo,
		BindingCount: maxTextures, PBindings: bindings}
	var layout vk.DescriptorSetLayout
	err = vkx.Check(vk.CreateDescriptorSetLayout(d, li, nil, &layout), "vkCreateDescriptorSetLayout")
	li.Free()
	if err != nil {
		return err
	}
	sp.SetLayout = layout
	if sp.pipes.layout, err = newPipelineLayout(d, layout, shaders.ShaderParamsSize); err != nil {
		return err
	}
	sp.pipes.frag, sp.pipes.nspec = shaders.ShaderFrag, shaders.ShaderSpecConstants
	sp.pool, err = newPool(sp.dev, setsPerPool, setsPerPool*maxTextures)
	return err
}

// Bind makes a descriptor set for im's textures with the constants for params.
func (sp *ShaderPath) Bind(im *planes.Image, p Params) (*Binding, error) {
	consts, err := p.Shader(im.Format, im.Width, im.Height)
	if err != nil {
		return nil, err
	}
	return sp.BindConstants(im, consts)
}

// Destroy frees what NewShaderPath made. The GPU must be done with it.
func (sp *ShaderPath) Destroy() {
	d := sp.dev.Device
	if sp.compute != nil {
		sp.compute.destroy(d)
	}
	sp.pipes.destroy(d)
	if sp.pool != vk.NullDescriptorPool {
		vk.DestroyDescriptorPool(d, sp.pool, nil)
	}
	if sp.SetLayout != vk.NullDescriptorSetLayout {
		vk.DestroyDescriptorSetLayout(d, sp.SetLayout, nil)
	}
	if sp.Sampler != vk.NullSampler {
		vk.DestroySampler(d, sp.Sampler, nil)
	}
}
