package ycbcr

import (
	"encoding/binary"
	"fmt"
	"image"
	"math"
	"strings"
	"unsafe"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/gpu"
	"github.com/ycbcrkit/ycbcrkit/internal/vkx"
	"github.com/ycbcrkit/ycbcrkit/shaders"
)

// The scale pass: a converted picture (R′G′B′ at the picture's size, exact) resampled into a
// target of another size with a separable filter, rows first (scale.comp, into a float16 image of
// the output's width and the picture's height), then columns onto the target (scale.frag), turned
// for display on the way. It works on the non-linear R′G′B′ the conversion yields, as FFmpeg's
// scale and zscale do by default: docs/scaling.md says why and what linear light would change.

// Filter is the scale pass's filter.
type Filter int

const (
	// FilterLanczos is Lanczos with three lobes (Turkowski 1990).
	FilterLanczos Filter = iota
	// FilterCatmullRom is Keys' cubic convolution with a = −0.5 (Keys 1981), the Catmull-Rom spline:
	// Mitchell–Netravali B = 0, C = 0.5.
	FilterCatmullRom
	// FilterMitchell is Mitchell & Netravali's recommended cubic, B = C = 1/3 (Mitchell & Netravali
	// 1988): softer, with less ringing.
	FilterMitchell
	// FilterBilinear is the triangle filter (stretched when downscaling, so it averages).
	FilterBilinear
)

// DefaultFilter is the player's -scale default.
const DefaultFilter = FilterLanczos

var filterNames = [...]string{"lanczos", "catmull-rom", "mitchell", "bilinear"}

func (f Filter) String() string {
	if f >= 0 && int(f) < len(filterNames) {
		return filterNames[f]
	}
	return fmt.Sprintf("Filter(%d)", int(f))
}

// ParseFilter reads a filter name: lanczos, catmull-rom (or bicubic), mitchell, bilinear.
func ParseFilter(s string) (Filter, error) {
	if s == "bicubic" {
		return FilterCatmullRom, nil
	}
	for i, n := range filterNames {
		if s == n {
			return Filter(i), nil
		}
	}
	return 0, fmt.Errorf("ycbcr: scale filter %q: want %s (bicubic is catmull-rom)", s, strings.Join(filterNames[:], ", "))
}

// kernel is the filter as scale.glsl takes it: kind, radius at unit scale, B and C.
func (f Filter) kernel() (kind int32, radius, b, c float32) {
	switch f {
	case FilterCatmullRom:
		return 1, 2, 0, 0.5
	case FilterMitchell:
		return 1, 2, 1.0 / 3, 1.0 / 3
	case FilterBilinear:
		return 0, 1, 0, 0
	}
	return 2, 3, 0, 0
}

// ScaleView is how a picture of SrcW×SrcH pixels is shown: a picture-aligned output grid of
// OutW×OutH pixels whose column i is centred at source x = OffX + (i + 0.5)·StepX and row j at
// source y = OffY + (j + 0.5)·StepY, turned by Orient onto the viewport (OutW×OutH, or OutH×OutW
// when Orient transposes).
type ScaleView struct {
	SrcW, SrcH   int
	OutW, OutH   int
	OffX, OffY   float64
	StepX, StepY float64
	Orient       formats.Orientation
	Filter       Filter
}

// Fit is the view that shows the whole w×h picture, turned by o, in a viewport of vw×vh (display
// orientation).
func Fit(w, h, vw, vh int, o formats.Orientation, f Filter) ScaleView {
	ow, oh := vw, vh
	if o.Transposed() {
		ow, oh = vh, vw
	}
	return ScaleView{SrcW: w, SrcH: h, OutW: ow, OutH: oh, StepX: float64(w) / float64(ow), StepY: float64(h) / float64(oh),
		Orient: o, Filter: f}
}

// Exact says the view shows the picture's pixels unchanged, as stored: the scale pass is not needed.
func (v ScaleView) Exact() bool {
	return v.Orient.Identity() && v.OutW == v.SrcW && v.OutH == v.SrcH && v.OffX == 0 && v.OffY == 0 &&
		v.StepX == 1 && v.StepY == 1
}

// DisplaySize is the viewport's size for v.
func (v ScaleView) DisplaySize() (int, int) { return v.Orient.DisplaySize(v.OutW, v.OutH) }

func (v ScaleView) push(horizontal bool) []byte {
	kind, radius, b, c := v.Filter.kernel()
	off, step, src := v.OffY, v.StepY, v.SrcH
	if horizontal {
		off, step, src = v.OffX, v.StepX, v.SrcW
	}
	f := func(buf []byte, x float32) []byte { return binary.LittleEndian.AppendUint32(buf, math.Float32bits(x)) }
	i := func(buf []byte, x int) []byte { return binary.LittleEndian.AppendUint32(buf, uint32(int32(x))) }
	p := f(f(f(f(f(nil, float32(off)), float32(step)), radius), b), c)
	p = i(i(p, int(kind)), src)
	if horizontal {
		return i(i(p, v.OutW), v.SrcH)
	}
	flip := 0
	if v.Orient.Flip {
		flip = 1
	}
	return i(i(i(i(p, v.OutW), v.OutH), v.Orient.Rotate%4), flip)
}

// Scaler is the scale pass's pipelines, sampler and descriptor pools, shared by its targets.
type Scaler struct {
	sampler   vk.Sampler
	rows      *computeKit
	setLayout vk.DescriptorSetLayout
	cols      pipelines
	pool      vk.DescriptorPool
	dev       *gpu.Device
}

// scaleSets is how many scale targets one Scaler's pools hold at once (per slot, plus those retired
// and not yet freed).
const scaleSets = 64

// NewScaler prepares the scale pass.
func NewScaler(dev *gpu.Device) (*Scaler, error) {
	s := &Scaler{dev: dev}
	if err := s.init(); err != nil {
		s.Destroy()
		return nil, fmt.Errorf("ycbcr: scale: %w", err)
	}
	return s, nil
}

func (s *Scaler) init() error {
	d := s.dev.Device
	var err error
	if s.sampler, err = newNearestSampler(d); err != nil {
		return err
	}
	if s.rows, err = newComputeKit(s.dev, textureBindings(1, vk.ShaderStageComputeBit), 1, shaders.ScaleComp, shaders.ScaleCompParamsSize, 0); err != nil {
		return err
	}
	if s.setLayout, err = newSetLayout(d, textureBindings(1, vk.ShaderStageFragmentBit)); err != nil {
		return err
	}
	if s.cols.layout, err = newPipelineLayout(d, s.setLayout, shaders.ScaleFragParamsSize); err != nil {
		return err
	}
	s.cols.frag = shaders.ScaleFrag
	s.pool, err = newPool(s.dev, scaleSets, scaleSets)
	return err
}

// Destroy frees what NewScaler made. The GPU must be done with it and its targets destroyed.
func (s *Scaler) Destroy() {
	d := s.dev.Device
	s.cols.destroy(d)
	if s.rows != nil {
		s.rows.destroy(d)
	}
	if s.pool != vk.NullDescriptorPool {
		vk.DestroyDescriptorPool(d, s.pool, nil)
	}
	if s.setLayout != vk.NullDescriptorSetLayout {
		vk.DestroyDescriptorSetLayout(d, s.setLayout, nil)
	}
	if s.sampler != vk.NullSampler {
		vk.DestroySampler(d, s.sampler, nil)
	}
}

// ScaleTarget is one picture's scale pass: the float16 image of its rows resampled (Width × the
// picture's Height) and the descriptor sets of both halves.
type ScaleTarget struct {
	Width, Height int
	picture       vk.ImageView
	image         vk.Image
	memory        vk.DeviceMemory
	view          vk.ImageView
	rowsSet       vk.DescriptorSet
	colsSet       vk.DescriptorSet
	s             *Scaler
}

// Bind makes the scale pass of picture (an RGBA image in SHADER_READ_ONLY_OPTIMAL when the pass
// runs) into an output width outW; pictureH is the picture's height.
func (s *Scaler) Bind(picture vk.ImageView, outW, pictureH int) (*ScaleTarget, error) {
	t := &ScaleTarget{Width: outW, Height: pictureH, picture: picture, s: s}
	var err error
	if t.image, t.memory, t.view, err = s.dev.NewImage2D(vk.FormatR16g16b16a16Sfloat, outW, pictureH,
		vk.ImageUsageStorageBit|vk.ImageUsageSampledBit); err != nil {
		return nil, fmt.Errorf("ycbcr: scale: %dx%d: %w", outW, pictureH, err)
	}
	if t.rowsSet, err = s.rows.bind(s.dev, []vk.ImageView{picture}, s.sampler, t.view); err != nil {
		t.Destroy()
		return nil, fmt.Errorf("ycbcr: scale: %w", err)
	}
	if t.colsSet, err = allocateSet(s.dev.Device, s.pool, s.setLayout); err != nil {
		t.Destroy()
		return nil, fmt.Errorf("ycbcr: scale: %w", err)
	}
	writeImages(s.dev.Device, t.colsSet, []vk.ImageView{t.view}, s.sampler)
	return t, nil
}

// Fits says whether t serves view v of picture.
func (t *ScaleTarget) Fits(picture vk.ImageView, v ScaleView) bool {
	return t.picture == picture && t.Width == v.OutW && t.Height == v.SrcH
}

// Record records the first half, outside a render pass: the picture's rows resampled into t's
// image, left for the second half's fragment shader. The picture was written just before, by a
// compute conversion or a render pass, in this command buffer or an earlier submission.
func (t *ScaleTarget) Record(cb vk.CommandBuffer, v ScaleView) error {
	if v.OutW != t.Width || v.SrcH != t.Height {
		return fmt.Errorf("ycbcr: scale: view %dx%d on a target of %dx%d", v.OutW, v.SrcH, t.Width, t.Height)
	}
	pipe, err := t.s.rows.pipeline(t.s.dev, Spec{})
	if err != nil {
		return err
	}
	// The picture's writes (a compute conversion, or a pass's colour output) before the reads; the
	// previous frame's reads of t's image (a fragment shader) before this frame's writes.
	mb := vk.MemoryBarrier{SType: vk.StructureTypeMemoryBarrier,
		SrcAccessMask: vk.AccessFlags(vk.AccessShaderWriteBit | vk.AccessColorAttachmentWriteBit),
		DstAccessMask: vk.AccessFlags(vk.AccessShaderReadBit)}
	ib := t.layoutBarrier(vk.ImageLayoutUndefined, vk.ImageLayoutGeneral, 0, vk.AccessShaderWriteBit)
	vkx.NoGC(func() { // vulkan-go frees its copy of slice arguments from a finalizer (vkx.NoGC says why)
		vk.CmdPipelineBarrier(cb,
			vk.PipelineStageFlags(vk.PipelineStageComputeShaderBit|vk.PipelineStageColorAttachmentOutputBit|vk.PipelineStageFragmentShaderBit),
			vk.PipelineStageFlags(vk.PipelineStageComputeShaderBit), 0, 1, []vk.MemoryBarrier{mb}, 0, nil, 1, []vk.ImageMemoryBarrier{ib})
	})
	push := v.push(true)
	vk.CmdBindPipeline(cb, vk.PipelineBindPointCompute, pipe)
	vkx.NoGC(func() {
		vk.CmdBindDescriptorSets(cb, vk.PipelineBindPointCompute, t.s.rows.layout, 0, 1, []vk.DescriptorSet{t.rowsSet}, 0, nil)
		vk.CmdPushConstants(cb, t.s.rows.layout, vk.ShaderStageFlags(vk.ShaderStageComputeBit), 0, uint32(len(push)), unsafe.Pointer(&push[0]))
	})
	g := shaders.ComputeGroup
	vk.CmdDispatch(cb, uint32((t.Width+g[0]-1)/g[0]), uint32((t.Height+g[1]-1)/g[1]), 1)
	ib = t.layoutBarrier(vk.ImageLayoutGeneral, vk.ImageLayoutShaderReadOnlyOptimal, vk.AccessShaderWriteBit, vk.AccessShaderReadBit)
	vkx.NoGC(func() {
		vk.CmdPipelineBarrier(cb, vk.PipelineStageFlags(vk.PipelineStageComputeShaderBit), vk.PipelineStageFlags(vk.PipelineStageFragmentShaderBit),
			0, 0, nil, 0, nil, 1, []vk.ImageMemoryBarrier{ib})
	})
	return nil
}

func (t *ScaleTarget) layoutBarrier(from, to vk.ImageLayout, src, dst vk.AccessFlagBits) vk.ImageMemoryBarrier {
	return vk.ImageMemoryBarrier{SType: vk.StructureTypeImageMemoryBarrier,
		SrcAccessMask: vk.AccessFlags(src), DstAccessMask: vk.AccessFlags(dst), OldLayout: from, NewLayout: to,
		SrcQueueFamilyIndex: vk.QueueFamilyIgnored, DstQueueFamilyIndex: vk.QueueFamilyIgnored, Image: t.image,
		SubresourceRange: vk.ImageSubresourceRange{AspectMask: vk.ImageAspectFlags(vk.ImageAspectColorBit), LevelCount: 1, LayerCount: 1}}
}

// Draw records the second half inside target's render pass: the viewport (set by the caller, of
// v.DisplaySize()) gets the columns resampled and the picture turned.
func (t *ScaleTarget) Draw(cb vk.CommandBuffer, target Target, v ScaleView) error {
	pipe, err := t.s.cols.get(t.s.dev, target, Spec{})
	if err != nil {
		return err
	}
	push := v.push(false)
	vkx.NoGC(func() { draw(cb, pipe, t.s.cols.layout, t.colsSet, push) })
	return nil
}

// Destroy frees t's image and descriptor sets. The GPU must be done with them.
func (t *ScaleTarget) Destroy() {
	d := t.s.dev.Device
	if t.rowsSet != vk.NullDescriptorSet {
		set := t.rowsSet
		vk.FreeDescriptorSets(d, t.s.rows.pool, 1, &set)
	}
	if t.colsSet != vk.NullDescriptorSet {
		set := t.colsSet
		vk.FreeDescriptorSets(d, t.s.pool, 1, &set)
	}
	t.s.dev.DestroyImage2D(t.image, t.memory, t.view)
}

// ConvertScaled converts f through path at its own size, then scales it into a target of v's
// display size with the scale pass, and reads the result back: the player's pipeline for one frame
// (tests compare it with FFmpeg's scale; screenshots of turned pictures use it at 1:1).
func (c *Converter) ConvertScaled(f *formats.Frame, p Params, path formats.Path, v ScaleView) (*image.RGBA, error) {
	im, err := c.staged(f, path)
	if err != nil {
		return nil, err
	}
	defer im.Destroy()
	b, err := c.Bind(im, p, path)
	if err != nil {
		return nil, err
	}
	defer b.Destroy()
	pic, err := c.Dev.NewSampledOffscreen(f.Width, f.Height)
	if err != nil {
		return nil, err
	}
	defer pic.Destroy()
	dw, dh := v.DisplaySize()
	target, err := c.Dev.NewOffscreen(dw, dh)
	if err != nil {
		return nil, err
	}
	defer target.Destroy()
	s, err := NewScaler(c.Dev)
	if err != nil {
		return nil, err
	}
	defer s.Destroy()
	st, err := s.Bind(pic.View, v.OutW, f.Height)
	if err != nil {
		return nil, err
	}
	defer st.Destroy()
	var recErr error
	err = c.Dev.Submit(func(cb vk.CommandBuffer) {
		im.RecordUpload(cb)
		pic.Begin(cb)
		if recErr = b.Draw(cb, pic); recErr != nil {
			vk.CmdEndRenderPass(cb)
			return
		}
		vk.CmdEndRenderPass(cb)
		if recErr = st.Record(cb, v); recErr != nil {
			return
		}
		target.Begin(cb)
		recErr = st.Draw(cb, target, v)
		target.End(cb)
	})
	if err == nil {
		err = recErr
	}
	if err != nil {
		return nil, fmt.Errorf("ycbcr: convert %s scaled to %dx%d (%s): %w", f.Format.Name, dw, dh, v.Filter, err)
	}
	return target.RGBA(), nil
}
