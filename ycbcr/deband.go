package ycbcr

import (
	"encoding/binary"
	"fmt"
	"image"
	"math"
	"strconv"
	"strings"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/gpu"
	"github.com/ycbcrkit/ycbcrkit/internal/vkx"
	"github.com/ycbcrkit/ycbcrkit/shaders"
)

// DebandParams are the debanding pass's settings (shaders/deband.comp), libplacebo's
// pl_deband_params: Iterations steps, the i-th of which replaces a pixel's component by the mean of
// 4·Samples samples at distances below i·Radius pixels where it is within Threshold/(1000·i) of it;
// then Grain/1000 of noise. Samples is this toolkit's: libplacebo's algorithm is Samples 1, whose
// mean is too noisy to take a band's steps away (see deband.comp). Iterations 0 is off.
type DebandParams struct {
	Iterations int
	Samples    int     // directions per iteration, stratified (libplacebo: 1, random)
	Threshold  float64 // 1/1000 of the full range
	Radius     float64 // pixels
	Grain      float64 // 1/1000 of the full range, peak to peak
}

// DefaultDeband is libplacebo's default (pl_deband_default_params: iterations 1, threshold 4,
// radius 16, grain 6) with four directions per step and no grain. Grain is noise added to hide the
// steps left when the smooth result is rounded to the target's codes; here the target's dither does
// that (ycbcrplay's -dither auto dithers debanded pictures), and grain 6 on top costs about 4 dB of
// PSNR against the smooth picture (TestDeband). grain=6 gives libplacebo's.
var DefaultDeband = DebandParams{Iterations: 1, Samples: 4, Threshold: 4, Radius: 16}

func (d DebandParams) String() string {
	if d.Iterations <= 0 {
		return "off"
	}
	return fmt.Sprintf("iterations=%d:samples=%d:threshold=%g:radius=%g:grain=%g", d.Iterations, d.Samples, d.Threshold, d.Radius, d.Grain)
}

// ParseDeband reads -deband's value: "" or "on" for DefaultDeband, "off", or settings that replace
// the defaults' ("iterations=2:threshold=6", any of iterations, samples, threshold, radius, grain).
func ParseDeband(s string) (DebandParams, error) {
	switch s {
	case "", "on", "yes":
		return DefaultDeband, nil
	case "off", "no":
		return DebandParams{}, nil
	}
	d := DefaultDeband
	for _, kv := range strings.Split(s, ":") {
		k, v, ok := strings.Cut(kv, "=")
		f, err := strconv.ParseFloat(v, 64)
		if !ok || err != nil || math.IsNaN(f) || math.IsInf(f, 0) || f < 0 {
			return d, fmt.Errorf("bad deband setting %q: name=value, a number ≥ 0", kv)
		}
		switch k {
		case "iterations":
			if f != math.Trunc(f) || f > 16 {
				return d, fmt.Errorf("bad deband iterations %q: a whole number up to 16", v)
			}
			d.Iterations = int(f)
		case "samples":
			if f != math.Trunc(f) || f < 1 || f > 16 {
				return d, fmt.Errorf("bad deband samples %q: a whole number from 1 to 16", v)
			}
			d.Samples = int(f)
		case "threshold":
			d.Threshold = f
		case "radius":
			if f > 256 {
				return d, fmt.Errorf("bad deband radius %q: up to 256 pixels", v)
			}
			d.Radius = f
		case "grain":
			d.Grain = f
		default:
			return d, fmt.Errorf("bad deband setting %q: iterations, samples, threshold, radius or grain", k)
		}
	}
	return d, nil
}

func (d DebandParams) push() []byte {
	p := binary.LittleEndian.AppendUint32(nil, uint32(int32(d.Iterations)))
	p = binary.LittleEndian.AppendUint32(p, uint32(int32(max(d.Samples, 1))))
	for _, f := range []float64{d.Threshold, d.Radius, d.Grain} {
		p = binary.LittleEndian.AppendUint32(p, math.Float32bits(float32(f)))
	}
	return p
}

// Debander is the debanding pass's pipeline, sampler, layouts and descriptor pool, shared by its
// targets.
type Debander struct {
	sampler vk.Sampler // linear, clamped to the edge: the pass samples between pixels
	pass    *gpu.Kit
	pipe    vk.Pipeline
	dev     *gpu.Device
}

// NewDebander prepares the pass.
func NewDebander(dev *gpu.Device) (*Debander, error) {
	d := &Debander{dev: dev}
	if err := d.init(); err != nil {
		d.Destroy()
		return nil, fmt.Errorf("ycbcr: deband: %w", err)
	}
	return d, nil
}

func (d *Debander) init() error {
	var err error
	if d.sampler, err = d.dev.NewSampler(vk.FilterLinear); err != nil {
		return err
	}
	comp := vk.ShaderStageFlags(vk.ShaderStageComputeBit)
	if d.pass, err = d.dev.NewKit(gpu.KitDesc{Name: "ycbcr: deband",
		Bindings: []vk.DescriptorSetLayoutBinding{
			{Binding: 0, DescriptorType: vk.DescriptorTypeCombinedImageSampler, DescriptorCount: 1, StageFlags: comp},
			{Binding: 1, DescriptorType: vk.DescriptorTypeStorageImage, DescriptorCount: 1, StageFlags: comp}},
		PushStages: vk.ShaderStageComputeBit, PushBytes: shaders.DebandParamsSize,
		Shaders: []gpu.Shader{{Kind: gpu.Compute, Code: shaders.DebandComp}}}); err != nil {
		return err
	}
	// Made now, not at the first frame: the pass has one pipeline.
	d.pipe, err = d.pass.Pipeline(0, vk.NullRenderPass, 0, nil)
	return err
}

// Destroy frees what NewDebander made. The GPU must be done with it and its targets destroyed.
func (d *Debander) Destroy() {
	d.pass.Destroy()
	if d.sampler != vk.NullSampler {
		vk.DestroySampler(d.dev.Device, d.sampler, nil)
	}
}

// DebandTarget is one picture's debanding: the converted picture it reads and the rgba32f image of
// the picture's size it writes, which the scale pass or a blit then reads (View).
type DebandTarget struct {
	Width, Height int
	Image         vk.Image
	View          vk.ImageView
	memory        vk.DeviceMemory
	set           gpu.Set
	d             *Debander
}

// Bind makes the debanding of picture (a width×height RGBA image, in SHADER_READ_ONLY_OPTIMAL when
// the pass runs).
func (d *Debander) Bind(picture vk.ImageView, width, height int) (*DebandTarget, error) {
	t := &DebandTarget{Width: width, Height: height, d: d}
	var err error
	usage := vk.ImageUsageStorageBit | vk.ImageUsageSampledBit | vk.ImageUsageTransferSrcBit
	if t.Image, t.memory, t.View, err = d.dev.NewImage2D(vk.FormatR32g32b32a32Sfloat, width, height, usage); err != nil {
		return nil, fmt.Errorf("ycbcr: deband: %w", err)
	}
	if t.set, err = d.pass.Allocate(); err != nil {
		t.Destroy()
		return nil, err
	}
	writeImages(d.dev.Device, t.set.Set, []vk.ImageView{picture}, d.sampler)
	vkx.WriteStorageImage(d.dev.Device, t.set.Set, 1, t.View)
	return t, nil
}

// Record records the pass with settings prm, outside a render pass, after the picture was written
// (by a compute conversion or a render pass) in this command buffer or an earlier submission. t's
// image is left in SHADER_READ_ONLY_OPTIMAL for the compute and fragment stages.
func (t *DebandTarget) Record(cb vk.CommandBuffer, prm DebandParams) error {
	if prm.Iterations <= 0 && prm.Grain <= 0 {
		return fmt.Errorf("ycbcr: deband: recorded with debanding off")
	}
	// The picture's writes before the reads; the previous frame's reads of t's image before this
	// frame's writes.
	vkx.CmdBarrier(cb, vk.PipelineStageComputeShaderBit|vk.PipelineStageColorAttachmentOutputBit|vk.PipelineStageFragmentShaderBit,
		vk.PipelineStageComputeShaderBit, vk.AccessShaderWriteBit|vk.AccessColorAttachmentWriteBit, vk.AccessShaderReadBit,
		layoutBarrier(t.Image, vk.ImageLayoutUndefined, vk.ImageLayoutGeneral, 0, vk.AccessShaderWriteBit))
	push := prm.push()
	t.d.pass.Bind(cb, t.d.pipe, t.set.Set, push)
	g := shaders.ComputeGroup
	vk.CmdDispatch(cb, uint32((t.Width+g[0]-1)/g[0]), uint32((t.Height+g[1]-1)/g[1]), 1)
	vkx.CmdBarrier(cb, vk.PipelineStageComputeShaderBit, vk.PipelineStageComputeShaderBit|vk.PipelineStageFragmentShaderBit, 0, 0,
		layoutBarrier(t.Image, vk.ImageLayoutGeneral, vk.ImageLayoutShaderReadOnlyOptimal, vk.AccessShaderWriteBit, vk.AccessShaderReadBit))
	return nil
}

// Destroy frees t's image and descriptor set. The GPU must be done with them.
func (t *DebandTarget) Destroy() {
	t.d.pass.Free(t.set)
	t.d.dev.DestroyImage2D(t.Image, t.memory, t.View)
}

// ConvertDebanded is Convert with the picture debanded with d at its own size, then written through
// view v's scale pass (at the picture's size when v is Exact), rounded with p.Dither: the picture a
// stream with Config.Deband shows, for screenshots.
func (c *Paths) ConvertDebanded(f *formats.Frame, p Params, path formats.Path, d DebandParams, v ScaleView) (*image.RGBA, error) {
	img, err := c.convertDebanded(f, p, path, d, v)
	if err != nil {
		return nil, fmt.Errorf("ycbcr: convert %s through %s, debanded: %w", f.Format.Name, path, err)
	}
	return img, nil
}

func (c *Paths) convertDebanded(f *formats.Frame, p Params, path formats.Path, d DebandParams, v ScaleView) (*image.RGBA, error) {
	pic, err := c.drawnPicture(f, p, path)
	if err != nil {
		return nil, err
	}
	defer pic.Destroy()
	return Debanded(c.Dev, pic.View, f.Width, f.Height, d, p.Dither, v)
}

// Debanded debands a width×height converted picture (picture: a sampled view of it, written by an
// earlier submission to the device's queue, in SHADER_READ_ONLY_OPTIMAL) with d, writes it through
// view v's scale pass (at its own size when v is Exact), rounded with dither, and reads the result
// back: screenshots of debanded streams, of uploaded and hardware-decoded pictures alike. It submits
// and waits.
func Debanded(dev *gpu.Device, picture vk.ImageView, width, height int, d DebandParams, dither Dither, v ScaleView) (*image.RGBA, error) {
	db, err := NewDebander(dev)
	if err != nil {
		return nil, err
	}
	defer db.Destroy()
	dt, err := db.Bind(picture, width, height)
	if err != nil {
		return nil, err
	}
	defer dt.Destroy()
	dw, dh := width, height
	if !v.Exact() {
		dw, dh = v.DisplaySize()
	}
	target, err := dev.NewOffscreen(dw, dh)
	if err != nil {
		return nil, err
	}
	defer target.Destroy()
	// before: what is recorded before the target's pass (the debanding, the scale pass's first
	// step); draw: what is drawn in it (the blit, or the scale pass's last step).
	before := func(cb vk.CommandBuffer) error { return dt.Record(cb, d) }
	var draw func(cb vk.CommandBuffer) error
	if v.Exact() {
		bl, err := NewBlit(dev)
		if err != nil {
			return nil, err
		}
		defer bl.Destroy()
		bb, err := bl.Bind(dt.View)
		if err != nil {
			return nil, err
		}
		defer bb.Destroy()
		draw = func(cb vk.CommandBuffer) error { return bb.DrawWith(cb, target, dither) }
	} else {
		sc, err := NewScaler(dev)
		if err != nil {
			return nil, err
		}
		defer sc.Destroy()
		st, err := sc.Bind(dt.View, v)
		if err != nil {
			return nil, err
		}
		defer st.Destroy()
		st.Dither = dither
		before = func(cb vk.CommandBuffer) error {
			if err := dt.Record(cb, d); err != nil {
				return err
			}
			return st.Record(cb, v)
		}
		draw = func(cb vk.CommandBuffer) error { return st.Draw(cb, target, v) }
	}
	var recErr error
	if err := dev.Submit(func(cb vk.CommandBuffer) {
		if recErr = before(cb); recErr != nil {
			return
		}
		target.Begin(cb)
		recErr = draw(cb)
		target.End(cb)
	}); err != nil {
		return nil, err
	}
	if recErr != nil {
		return nil, recErr
	}
	return target.RGBA(), nil
}
