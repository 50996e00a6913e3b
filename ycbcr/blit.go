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
	Sampler   vk.Sampler
	SetLayout vk.DescriptorSetLayout
	pipes     pipelines
	pools     *setPools
	dev       *gpu.Device
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
	if b.SetLayout, err = b.dev.NewSetLayout(textureBindings(1, vk.ShaderStageFragmentBit)); err != nil {
		return err
	}
	if b.pipes.layout, err = b.dev.NewPipelineLayout(b.SetLayout, vk.ShaderStageFragmentBit, 0); err != nil {
		return err
	}
	b.pipes.frag, b.pipes.nspec = shaders.BlitFrag, shaders.ShaderSpecConstants // dither.glsl's
	b.pools, err = newSetPools(b.dev, 1)
	return err
}

// Bind makes the descriptor set for one picture.
func (b *Blit) Bind(picture vk.ImageView) (*Binding, error) {
	set, pool, err := b.pools.allocate(b.SetLayout)
	if err != nil {
		return nil, fmt.Errorf("ycbcr: blit: %w", err)
	}
	writeImages(b.dev.Device, set, []vk.ImageView{picture}, b.Sampler)
	return &Binding{set: set, pool: pool, pools: b.pools, pipes: &b.pipes, dev: b.dev}, nil
}

// Destroy frees what NewBlit made. The GPU must be done with it.
func (b *Blit) Destroy() {
	d := b.dev.Device
	b.pipes.destroy(d)
	if b.pools != nil {
		b.pools.destroy()
	}
	if b.SetLayout != vk.NullDescriptorSetLayout {
		vk.DestroyDescriptorSetLayout(d, b.SetLayout, nil)
	}
	if b.Sampler != vk.NullSampler {
		vk.DestroySampler(d, b.Sampler, nil)
	}
}
