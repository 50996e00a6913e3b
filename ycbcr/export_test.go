package ycbcr

import (
	"image"

	vk "github.com/vulkan-go/vulkan"

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

// MeasurePeak uploads f and runs the peak pass on it (the shader path's textures), for tests.
func (c *Converter) MeasurePeak(f *formats.Frame, p Params) (PeakMeasure, error) {
	im, err := c.staged(f, formats.PathShader)
	if err != nil {
		return PeakMeasure{}, err
	}
	defer im.Destroy()
	b, err := c.Shader.BindPeak(im, p)
	if err != nil {
		return PeakMeasure{}, err
	}
	defer b.Destroy()
	var recErr error
	if err := c.Dev.Submit(func(cb vk.CommandBuffer) {
		im.RecordUpload(cb)
		recErr = b.Record(cb, f.Width, f.Height)
	}); err != nil {
		return PeakMeasure{}, err
	}
	return b.Result(), recErr
}
