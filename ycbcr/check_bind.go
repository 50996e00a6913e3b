package ycbcr

import (
	"fmt"

	"github.com/ycbcrkit/ycbcrkit/planes"
)

// BindConstants is ShaderPath.Bind with constants the caller computed. The conformance checker
// (ycbcr/check) uses it to inject faults into the constants on purpose, which proves that its
// comparison with the oracle catches a wrong siting, a Cb/Cr swap or a range mix-up.
func (sp *ShaderPath) BindConstants(im *planes.Image, c *ShaderConstants) (*Binding, error) {
	views, err := textureViews(im)
	if err != nil {
		return nil, err
	}
	set, err := allocateSet(sp.dev.Device, sp.pool, sp.SetLayout)
	if err != nil {
		return nil, fmt.Errorf("ycbcr: shader path: %w", err)
	}
	writeImages(sp.dev.Device, set, views, sp.Sampler)
	return &Binding{set: set, pool: sp.pool, pipes: &sp.pipes, spec: c.Spec(), push: c.Bytes(), dev: sp.dev}, nil
}
