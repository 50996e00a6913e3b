package ycbcr

import (
	"encoding/binary"
	"fmt"
	"math"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/gpu"
	"github.com/ycbcrkit/ycbcrkit/shaders"
)

// Diff draws the amplified absolute difference of two pictures: the sampler path's and the shader
// path's of the same frame, so a viewer sees where, and how much, they disagree.
type Diff struct {
	Sampler   vk.Sampler
	SetLayout vk.DescriptorSetLayout
	pipes     pipelines
	pools     *setPools
	dev       *gpu.Device
}

// NewDiff prepares the difference pass.
func NewDiff(dev *gpu.Device) (*Diff, error) {
	df := &Diff{dev: dev}
	if err := df.init(); err != nil {
		df.Destroy()
		return nil, fmt.Errorf("ycbcr: diff: %w", err)
	}
	return df, nil
}

func (df *Diff) init() error {
	var err error
	if df.Sampler, err = df.dev.NewSampler(vk.FilterNearest); err != nil {
		return err
	}
	if df.SetLayout, err = df.dev.NewSetLayout(textureBindings(2, vk.ShaderStageFragmentBit)); err != nil {
		return err
	}
	if df.pipes.layout, err = df.dev.NewPipelineLayout(df.SetLayout, vk.ShaderStageFragmentBit, shaders.DiffParamsSize); err != nil {
		return err
	}
	df.pipes.frag = shaders.DiffFrag
	df.pools, err = newSetPools(df.dev, 2)
	return err
}

// Bind makes the descriptor set for two pictures (in SHADER_READ_ONLY_OPTIMAL) and a gain.
func (df *Diff) Bind(samplerPath, shaderPath vk.ImageView, gain float32) (*Binding, error) {
	set, pool, err := df.pools.allocate(df.SetLayout)
	if err != nil {
		return nil, fmt.Errorf("ycbcr: diff: %w", err)
	}
	writeImages(df.dev.Device, set, []vk.ImageView{samplerPath, shaderPath}, df.Sampler)
	push := binary.LittleEndian.AppendUint32(nil, math.Float32bits(gain))
	return &Binding{set: set, pool: pool, pools: df.pools, pipes: &df.pipes, push: push, dev: df.dev}, nil
}

// Destroy frees what NewDiff made. The GPU must be done with it.
func (df *Diff) Destroy() {
	d := df.dev.Device
	df.pipes.destroy(d)
	if df.pools != nil {
		df.pools.destroy()
	}
	if df.SetLayout != vk.NullDescriptorSetLayout {
		vk.DestroyDescriptorSetLayout(d, df.SetLayout, nil)
	}
	if df.Sampler != vk.NullSampler {
		vk.DestroySampler(d, df.Sampler, nil)
	}
}
