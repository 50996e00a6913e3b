package ycbcr

import (
	"encoding/binary"
	"fmt"
	"math"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/gpu"
	"github.com/ycbcrkit/ycbcrkit/shaders"
)

// Blend draws the mix of two converted pictures of the target's size (in
// SHADER_READ_ONLY_OPTIMAL) by a weight: the player's frame blending (mpv's tscale), where a
// display refresh falls between two frames. Each target pixel samples its own texel (NEAREST), so
// a weight of 0 or 1 draws one picture unchanged.
type Blend struct{ pairPass }

// NewBlend prepares the pass.
func NewBlend(dev *gpu.Device) (*Blend, error) {
	b := &Blend{}
	if err := b.init(dev, "blend", shaders.BlendFrag, shaders.BlendParamsSize); err != nil {
		b.Destroy()
		return nil, fmt.Errorf("ycbcr: blend: %w", err)
	}
	return b, nil
}

// Bind makes the descriptor set for a pair of pictures, the earlier first.
func (b *Blend) Bind(before, after vk.ImageView) (*Binding, error) {
	return b.bind(before, after, make([]byte, 4))
}

// Draw records the pair bound in pair, mixed with weight w (0..1) of the later picture, into t's
// render pass, begun on cb with the viewport set.
func (b *Blend) Draw(cb vk.CommandBuffer, t Target, pair *Binding, w float32) error {
	binary.LittleEndian.PutUint32(pair.push, math.Float32bits(min(max(w, 0), 1)))
	return pair.DrawWith(cb, t, pair.dither)
}
