package ycbcr

import (
	"encoding/binary"
	"image"
	"math"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/internal/vkx"
)

// ConvertScaledDirect is ConvertScaled with scale.glsl's kernel evaluated per sample (DIRECT = 1),
// the pass as it was before the weight table: the table's reference.
func (c *Paths) ConvertScaledDirect(f *formats.Frame, p Params, path formats.Path, v ScaleView) (*image.RGBA, error) {
	return c.convertScaled(f, p, path, v, scaleKernel)
}

// ConvertScaledInto is ConvertScaled with the pass written by compute into the target (RecordInto)
// instead of drawn onto it.
func (c *Paths) ConvertScaledInto(f *formats.Frame, p Params, path formats.Path, v ScaleView) (*image.RGBA, error) {
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
func (c *Paths) MeasurePeak(f *formats.Frame, p Params) (PeakMeasure, error) {
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

// DebandFloats converts f through path at its own size, debands it with prm and reads the
// rgba32f result back as R′G′B′ (0..1), for tests.
func (c *Paths) DebandFloats(f *formats.Frame, p Params, path formats.Path, prm DebandParams) ([][3]float64, error) {
	pic, err := c.drawnPicture(f, p, path)
	if err != nil {
		return nil, err
	}
	defer pic.Destroy()
	d, err := NewDebander(c.Dev)
	if err != nil {
		return nil, err
	}
	defer d.Destroy()
	t, err := d.Bind(pic.View, f.Width, f.Height)
	if err != nil {
		return nil, err
	}
	defer t.Destroy()
	out, err := c.Dev.NewBuffer(f.Width*f.Height*16, vk.BufferUsageTransferDstBit, vk.MemoryPropertyHostVisibleBit|vk.MemoryPropertyHostCoherentBit)
	if err != nil {
		return nil, err
	}
	defer out.Destroy()
	var recErr error
	err = c.Dev.Submit(func(cb vk.CommandBuffer) {
		recErr = t.Record(cb, prm)
		vkx.CmdBarrier(cb, vk.PipelineStageComputeShaderBit, vk.PipelineStageTransferBit, 0, 0,
			layoutBarrier(t.Image, vk.ImageLayoutShaderReadOnlyOptimal, vk.ImageLayoutTransferSrcOptimal, vk.AccessShaderWriteBit, vk.AccessTransferReadBit))
		vkx.CmdCopyImageToBuffer(cb, t.Image, vk.ImageLayoutTransferSrcOptimal, out.Handle, f.Width, f.Height)
		vkx.CmdMemoryBarrier(cb, vk.PipelineStageTransferBit, vk.AccessTransferWriteBit, vk.PipelineStageHostBit, vk.AccessHostReadBit)
	})
	if err == nil {
		err = recErr
	}
	if err != nil {
		return nil, err
	}
	mem := out.Bytes()
	rgb := make([][3]float64, f.Width*f.Height)
	for i := range rgb {
		for k := 0; k < 3; k++ {
			rgb[i][k] = float64(math.Float32frombits(binary.LittleEndian.Uint32(mem[16*i+4*k:])))
		}
	}
	return rgb, nil
}
