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
	Sampler vk.Sampler
	pass    *gpu.Kit
	dev     *gpu.Device
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
	df.pass, err = drawPass(df.dev, "diff", gpu.Textures(2, vk.ShaderStageFragmentBit), nil, shaders.DiffFrag, shaders.DiffParamsSize)
	return err
}

// Bind makes the descriptor set for two pictures (in SHADER_READ_ONLY_OPTIMAL) and a gain.
func (df *Diff) Bind(samplerPath, shaderPath vk.ImageView, gain float32) (*Binding, error) {
	set, err := df.pass.Allocate()
	if err != nil {
		return nil, err
	}
	writeImages(df.dev.Device, set.Set, []vk.ImageView{samplerPath, shaderPath}, df.Sampler)
	push := binary.LittleEndian.AppendUint32(nil, math.Float32bits(gain))
	return &Binding{set: set, pass: df.pass, push: push, dev: df.dev}, nil
}

// Destroy frees what NewDiff made. The GPU must be done with it.
func (df *Diff) Destroy() {
	df.pass.Destroy()
	if df.Sampler != vk.NullSampler {
		vk.DestroySampler(df.dev.Device, df.Sampler, nil)
	}
}
