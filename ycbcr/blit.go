package ycbcr

import (
	"fmt"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/gpu"
	"github.com/ycbcrkit/ycbcrkit/shaders"
)

// Blit draws a compute conversion's picture (an RGBA8 image of the picture's size, in
// SHADER_READ_ONLY_OPTIMAL) into a render target, so that the compute variant reaches the targets
// the drawn variant draws into (swapchain images, offscreen targets) through the same render pass.
// At the picture's size the target gets the converted picture unchanged; scaled, it is filtered
// bilinearly, as the sampler path's planes are.
type Blit struct {
	Sampler vk.Sampler
	pass    *gpu.Kit
	dev     *gpu.Device
}

// NewBlit prepares the pass.
func NewBlit(dev *gpu.Device) (*Blit, error) {
	b := &Blit{dev: dev}
	if err := b.init(); err != nil {
		b.Destroy()
		return nil, fmt.Errorf("ycbcr: blit: %w", err)
	}
	return b, nil
}

func (b *Blit) init() error {
	var err error
	if b.Sampler, err = b.dev.NewSampler(vk.FilterLinear); err != nil {
		return err
	}
	b.pass, err = drawPass(b.dev, "blit", gpu.Textures(1, vk.ShaderStageFragmentBit), nil, shaders.BlitFrag, 0)
	return err
}

// Bind makes the descriptor set for one picture.
func (b *Blit) Bind(picture vk.ImageView) (*Binding, error) {
	set, err := b.pass.Allocate()
	if err != nil {
		return nil, err
	}
	writeImages(b.dev.Device, set.Set, []vk.ImageView{picture}, b.Sampler)
	// dither.glsl's constants
	return &Binding{set: set, pass: b.pass, nspec: shaders.ShaderSpecConstants, dev: b.dev}, nil
}

// Destroy frees what NewBlit made. The GPU must be done with it.
func (b *Blit) Destroy() {
	b.pass.Destroy()
	if b.Sampler != vk.NullSampler {
		vk.DestroySampler(b.dev.Device, b.Sampler, nil)
	}
}
