package ycbcr

import (
	"image"

	"github.com/ycbcrkit/ycbcrkit/formats"
)

// ConvertScaledDirect is ConvertScaled with scale.glsl's kernel evaluated per sample (DIRECT = 1),
// the pass as it was before the weight table: the table's reference.
func (c *Converter) ConvertScaledDirect(f *formats.Frame, p Params, path formats.Path, v ScaleView) (*image.RGBA, error) {
	return c.convertScaled(f, p, path, v, scaleDirect, 0)
}

// ConvertScaledMode is ConvertScaled filtered as mode says (ScaleFused …), tile being scale2d.comp's
// TILE.
func (c *Converter) ConvertScaledMode(f *formats.Frame, p Params, path formats.Path, v ScaleView, mode, tile int) (*image.RGBA, error) {
	return c.convertScaled(f, p, path, v, scaleMode(mode), tile)
}

// Scale modes for SetScalerMode: the pass (both axes in one dispatch), the two dispatches before
// it, and the kernel per sample.
const (
	ScaleFused    = int(scaleFused)
	ScaleSeparate = int(scaleSeparate)
	ScaleDirect   = int(scaleDirect)
)

// Scale2DRows is the player's ROWS for scale2d.comp.
const Scale2DRows = scale2DRows

// SetScalerMode makes s filter as mode says (benchmarks compare them), with rows output rows per
// invocation in the fused pass (0: the default) and its picture tile (tile 0: none, every tap
// fetched); before s's first Bind.
func SetScalerMode(s *Scaler, mode, rows, tile int) {
	s.mode = scaleMode(mode)
	if rows > 0 {
		s.rows = rows
	}
	s.tile = tile
}
