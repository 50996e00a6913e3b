package ycbcr

import (
	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/gpu"
)

// pairPass is a fragment pass over two pictures of the target's size, each target pixel sampling
// its own texel (NEAREST): what Blend and Diff draw with, each with a shader and push constants of
// its own.
type pairPass struct {
	Sampler vk.Sampler
	pass    *gpu.Kit
	dev     *gpu.Device
}

// init makes the sampler and the pass of frag, whose parameters are paramsSize bytes.
func (p *pairPass) init(dev *gpu.Device, name string, frag []byte, paramsSize uint32) error {
	p.dev = dev
	var err error
	if p.Sampler, err = dev.NewSampler(vk.FilterNearest); err != nil {
		return err
	}
	p.pass, err = drawPass(dev, name, gpu.Textures(2, vk.ShaderStageFragmentBit), nil, frag, paramsSize)
	return err
}

// bind makes the descriptor set for the two pictures (in SHADER_READ_ONLY_OPTIMAL), with push as
// the binding's push constants.
func (p *pairPass) bind(a, b vk.ImageView, push []byte) (*Binding, error) {
	set, err := p.pass.Allocate()
	if err != nil {
		return nil, err
	}
	writeImages(p.dev.Device, set.Set, []vk.ImageView{a, b}, p.Sampler)
	return &Binding{set: set, pass: p.pass, push: push, dev: p.dev}, nil
}

// Destroy frees the pass (NewBlend, NewDiff). The GPU must be done with it.
func (p *pairPass) Destroy() {
	p.pass.Destroy()
	if p.Sampler != vk.NullSampler {
		vk.DestroySampler(p.dev.Device, p.Sampler, nil)
	}
}
