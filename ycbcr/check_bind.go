package ycbcr

import (
	"fmt"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/planes"
)

// BindConstants is ShaderPath.Bind with constants the caller computed. The conformance checker
// (ycbcr/check) uses it to inject faults into the constants on purpose, which proves that its
// comparison with the oracle catches a wrong siting, a Cb/Cr swap or a range mix-up.
func (sp *ShaderPath) BindConstants(im *planes.Image, c *ShaderConstants) (*Binding, error) {
	if len(im.Textures) == 0 {
		return nil, fmt.Errorf("ycbcr: shader path: image has no textures (made without the shader path)")
	}
	set, err := allocateSet(sp.dev.Device, sp.pool, sp.SetLayout)
	if err != nil {
		return nil, fmt.Errorf("ycbcr: shader path: %w", err)
	}
	views := make([]vk.ImageView, maxTextures)
	for i := range views { // as Bind: unused bindings repeat texture 0
		views[i] = im.Textures[min(i, len(im.Textures)-1)].View
	}
	writeImages(sp.dev.Device, set, views, sp.Sampler)
	return &Binding{set: set, pool: sp.pool, pipes: &sp.pipes, spec: c.Spec(), push: c.Bytes(), dev: sp.dev}, nil
}
