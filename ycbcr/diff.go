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
type Diff struct{ pairPass }

// NewDiff prepares the difference pass.
func NewDiff(dev *gpu.Device) (*Diff, error) {
	df := &Diff{}
	if err := df.init(dev, "diff", shaders.DiffFrag, shaders.DiffParamsSize); err != nil {
		df.Destroy()
		return nil, fmt.Errorf("ycbcr: diff: %w", err)
	}
	return df, nil
}

// Bind makes the descriptor set for two pictures (in SHADER_READ_ONLY_OPTIMAL) and a gain.
func (df *Diff) Bind(samplerPath, shaderPath vk.ImageView, gain float32) (*Binding, error) {
	return df.bind(samplerPath, shaderPath, binary.LittleEndian.AppendUint32(nil, math.Float32bits(gain)))
}
