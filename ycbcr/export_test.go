package ycbcr

import (
	"image"

	"github.com/ycbcrkit/ycbcrkit/formats"
)

// ConvertScaledDirect is ConvertScaled with scale.glsl's kernel evaluated per sample (DIRECT = 1),
// the pass as it was before the weight table: the table's reference.
func (c *Converter) ConvertScaledDirect(f *formats.Frame, p Params, path formats.Path, v ScaleView) (*image.RGBA, error) {
	return c.convertScaled(f, p, path, v, scaleKernel)
}

// ConvertScaledInto is ConvertScaled with the pass written by compute into the target (RecordInto)
// instead of drawn onto it.
func (c *Converter) ConvertScaledInto(f *formats.Frame, p Params, path formats.Path, v ScaleView) (*image.RGBA, error) {
	return c.convertScaled(f, p, path, v, scaleInto)
}

// SetScalerDirect makes s evaluate the kernel per sample (benchmarks compare it with the table).
func SetScalerDirect(s *Scaler, direct bool) {
	s.direct = 0
	if direct {
		s.direct = 1
	}
}
