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
// target of another size with a separable filter, rows first (scale.comp, into a float32 image of
// the output's width and the picture's height), then columns (scale.comp again, into a float32
// image of the output's size), then drawn onto the target (scale.frag, one fetch per pixel), turned
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

// weight is the filter's kernel at distance x (source pixels at unit scale) in float64, the
// function scale.glsl's kernel evaluates in float32, and its radius.
func (f Filter) weight(x float64) float64 {
	x = math.Abs(x)
	switch f {
	case FilterCatmullRom, FilterMitchell:
		b, c := 0.0, 0.5
		if f == FilterMitchell {
			b, c = 1.0/3, 1.0/3
		}
		if x < 1 {
			return ((12-9*b-6*c)*x*x*x + (-18+12*b+6*c)*x*x + (6 - 2*b)) / 6
		}
		if x < 2 {
			return ((-b-6*c)*x*x*x + (6*b+30*c)*x*x + (-12*b-48*c)*x + (8*b + 24*c)) / 6
		}
		return 0
	case FilterBilinear:
		return max(0, 1-x)
	}
	const a = 3
	if x >= a {
		return 0
	}
	if x < 1e-9 {
		return 1
	}
	px := math.Pi * x
	return a * math.Sin(px) * math.Sin(px/a) / (px * px)
}

// table is the weight table of one axis of v (horizontal: along the rows), the scale pass's
// polyphase filter bank: for output index i, the first source index lo and taps weights for
// lo..lo+taps−1 (normalised to sum 1; zero past an output's own support), packed as lo, w0, …;
// indices past the picture's edge are clamped to it by the shader. Output i is centred at source
// c = off + (i + ½)·step; a downscale by f stretches the kernel by f; at 1:1 on whole pixels the
// weight is the pixel's alone (scale.glsl's kernel, per sample, computes the same).
func (v ScaleView) table(horizontal bool) (taps int, tab []float32) {
	off, step, n := v.OffY, v.StepY, v.OutH
	if horizontal {
		off, step, n = v.OffX, v.StepX, v.OutW
	}
	_, radius, _, _ := v.Filter.kernel()
	f := max(step, 1)
	r := float64(radius) * f
	type span struct {
		lo int
		w  []float64
	}
	spans := make([]span, n)
	for i := range spans {
		c := off + (float64(i)+0.5)*step - 0.5
		if step == 1 && c == math.Floor(c) {
			spans[i] = span{int(c), []float64{1}}
			continue
		}
		lo, hi := int(math.Floor(c-r))+1, int(math.Floor(c+r))
		w := make([]float64, 0, hi-lo+1)
		sum := 0.0
		for t := lo; t <= hi; t++ {
			w = append(w, v.Filter.weight((float64(t)-c)/f))
			sum += w[len(w)-1]
		}
		if sum == 0 { // cannot happen with these kernels (support ≥ 1 pixel); the nearest pixel then
			lo, w, sum = int(math.Round(c)), []float64{1}, 1
		}
		for k := range w {
			w[k] /= sum
		}
		spans[i] = span{lo, w}
		taps = max(taps, len(w))
	}
	taps = max(taps, 1)
	tab = make([]float32, n*(taps+1))
	for i, s := range spans {
		e := tab[i*(taps+1):]
		e[0] = float32(s.lo)
		for k, w := range s.w {
			e[1+k] = float32(w)
		}
	}
	return taps, tab
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

// Letterbox fits a picture of display aspect aspect (width/height) centred in a w×h target: the
// viewport at (x, y) of vw×vh that Fit then fills. The player and videotex's DrawInto place the
// picture with it.
func Letterbox(w, h int, aspect float64) (x, y, vw, vh int) {
	if w <= 0 || h <= 0 || aspect <= 0 {
		return 0, 0, w, h
	}
	if float64(w)/float64(h) > aspect {
		vw = max(1, int(float64(h)*aspect+0.5))
		return (w - vw) / 2, 0, vw, h
	}
	vh = max(1, int(float64(w)/aspect+0.5))
	return 0, (h - vh) / 2, w, vh
}

// Exact says the view shows the picture's pixels unchanged, as stored: the scale pass is not needed.
func (v ScaleView) Exact() bool {
	return v.Orient.Identity() && v.OutW == v.SrcW && v.OutH == v.SrcH && v.OffX == 0 && v.OffY == 0 &&
		v.StepX == 1 && v.StepY == 1
}

// DisplaySize is the viewport's size for v.
func (v ScaleView) DisplaySize() (int, int) { return v.Orient.DisplaySize(v.OutW, v.OutH) }

// push is scale.comp's push constants for one axis of v.
func (v ScaleView) push(horizontal bool, taps, base int) []byte {
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
		return i(i(i(i(p, v.OutW), v.SrcH), taps), base)
	}
	return i(i(i(i(p, v.OutW), v.OutH), taps), base)
}

// drawPush is scale.frag's push constants for v.
func (v ScaleView) drawPush() []byte {
	p := v.push(false, 0, 0)[:36]
	flip := 0
	if v.Orient.Flip {
		flip = 1
	}
	p = binary.LittleEndian.AppendUint32(p, uint32(v.Orient.Rotate%4))
	return binary.LittleEndian.AppendUint32(p, uint32(flip))
}

// Scaler is the scale pass's pipelines, sampler, layouts and descriptor pool, shared by its
// targets.
type Scaler struct {
	sampler vk.Sampler
	// comp: the compute steps, set 0: source, 1: weights, 2: storage image; its shaders scale.comp
	// (by scale.glsl's DIRECT and scale.comp's AXIS) and scale_target.comp (the columns written
	// turned into the target, by dither). draw: the fragment step, set 0: the filtered picture.
	comp, draw *gpu.Kit
	direct     int32 // scale.glsl's DIRECT: 1 evaluates the kernel per sample (tests, benchmarks)
	dev        *gpu.Device
}

// scaleSets is how many scale targets one Scaler's pools hold before they grow (per slot, plus
// those retired and not yet freed).
const scaleSets = 64

// The comp pass's shaders.
const (
	scaleComp = iota
	scaleTargetComp
)

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
	var err error
	if s.sampler, err = s.dev.NewSampler(vk.FilterNearest); err != nil {
		return err
	}
	comp := vk.ShaderStageFlags(vk.ShaderStageComputeBit)
	if s.comp, err = s.dev.NewKit(gpu.KitDesc{Name: "ycbcr: scale", SetsPerPool: 3 * scaleSets,
		Bindings: []vk.DescriptorSetLayoutBinding{
			{Binding: 0, DescriptorType: vk.DescriptorTypeCombinedImageSampler, DescriptorCount: 1, StageFlags: comp},
			{Binding: 1, DescriptorType: vk.DescriptorTypeStorageBuffer, DescriptorCount: 1, StageFlags: comp},
			{Binding: 2, DescriptorType: vk.DescriptorTypeStorageImage, DescriptorCount: 1, StageFlags: comp}},
		PushStages: vk.ShaderStageComputeBit, PushBytes: max(shaders.ScaleCompParamsSize, shaders.ScaleTargetParamsSize),
		Shaders: []gpu.Shader{{Kind: gpu.Compute, Code: shaders.ScaleComp}, {Kind: gpu.Compute, Code: shaders.ScaleTargetComp}}}); err != nil {
		return err
	}
	// DIRECT at 0, dither.glsl's at 26..27
	s.draw, err = drawPass(s.dev, "scale", gpu.Textures(1, vk.ShaderStageFragmentBit), nil, shaders.ScaleFrag, shaders.ScaleFragParamsSize)
	return err
}

func (s *Scaler) compPipeline(axis int32) (vk.Pipeline, error) {
	return s.comp.Pipeline(scaleComp, vk.NullRenderPass, 0, []int32{s.direct, axis})
}

// intoPipeline is scale_target.comp's pipeline with dither d into an rgba8 target, made on first
// use (targets that allow storage).
func (s *Scaler) intoPipeline(d Dither) (vk.Pipeline, error) {
	spec := withDither(Spec{}, d, vk.FormatR8g8b8a8Unorm)
	return s.comp.Pipeline(scaleTargetComp, vk.NullRenderPass, 0, spec[:])
}

// Destroy frees what NewScaler made. The GPU must be done with it and its targets destroyed.
func (s *Scaler) Destroy() {
	s.draw.Destroy()
	s.comp.Destroy()
	if s.sampler != vk.NullSampler {
		vk.DestroySampler(s.dev.Device, s.sampler, nil)
	}
}

// image2D is a float32 image of the scale pass with its memory and view.
type image2D struct {
	image  vk.Image
	memory vk.DeviceMemory
	view   vk.ImageView
}

// ScaleTarget is one picture's scale pass: the float32 images of its rows resampled (Width × the
// picture's Height) and of its rows and columns resampled (Width × OutH), the weight table of its
// view, and the descriptor sets of the three steps. Views up to its sizes fit it (Fits).
type ScaleTarget struct {
	Width, Height, OutH int
	picture             vk.ImageView
	rows, out           image2D
	rowsSet, colsSet    gpu.Set     // compute: picture → rows, rows → out
	intoSet             gpu.Set     // compute: rows → the target (RecordInto), made on first use
	drawSet             gpu.Set     // fragment: out (rows with DIRECT)
	weights             *gpu.Buffer // both axes' tables, host-visible, rewritten when the view changes
	tabView             ScaleView   // the view the table is of
	taps                [2]int      // taps per output along the rows and the columns
	base                int         // the columns' table's first float
	s                   *Scaler
	// Dither is how the pass's last step rounds to the target's depth (the picture's own dither,
	// Params.Dither, as the stream sets it).
	Dither Dither
}

// Bind makes the scale pass of picture (an RGBA image in SHADER_READ_ONLY_OPTIMAL when the pass
// runs) for view v and the views that fit in it.
func (s *Scaler) Bind(picture vk.ImageView, v ScaleView) (*ScaleTarget, error) {
	t := &ScaleTarget{Width: v.OutW, Height: v.SrcH, OutH: v.OutH, picture: picture, s: s}
	if err := t.init(); err != nil {
		t.Destroy()
		return nil, fmt.Errorf("ycbcr: scale: %dx%d from %dx%d: %w", v.OutW, v.OutH, v.SrcW, v.SrcH, err)
	}
	return t, nil
}

func (t *ScaleTarget) init() error {
	s := t.s
	d := s.dev.Device
	var err error
	usage := vk.ImageUsageStorageBit | vk.ImageUsageSampledBit
	if t.rows.image, t.rows.memory, t.rows.view, err = s.dev.NewImage2D(vk.FormatR32g32b32a32Sfloat, t.Width, t.Height, usage); err != nil {
		return err
	}
	if t.rowsSet, err = s.comp.Allocate(); err != nil {
		return err
	}
	writeImages(d, t.rowsSet.Set, []vk.ImageView{t.picture}, s.sampler)
	vkx.WriteStorageImage(d, t.rowsSet.Set, 2, t.rows.view)
	if t.drawSet, err = s.draw.Allocate(); err != nil {
		return err
	}
	if s.direct != 0 {
		writeImages(d, t.drawSet.Set, []vk.ImageView{t.rows.view}, s.sampler)
		return nil
	}
	if t.out.image, t.out.memory, t.out.view, err = s.dev.NewImage2D(vk.FormatR32g32b32a32Sfloat, t.Width, t.OutH, usage); err != nil {
		return err
	}
	if t.colsSet, err = s.comp.Allocate(); err != nil {
		return err
	}
	writeImages(d, t.colsSet.Set, []vk.ImageView{t.rows.view}, s.sampler)
	vkx.WriteStorageImage(d, t.colsSet.Set, 2, t.out.view)
	writeImages(d, t.drawSet.Set, []vk.ImageView{t.out.view}, s.sampler)
	return nil
}

// Fits says whether t serves view v of picture: the same picture, and v's output no larger.
func (t *ScaleTarget) Fits(picture vk.ImageView, v ScaleView) bool {
	return t.picture == picture && v.OutW <= t.Width && v.SrcH == t.Height && v.OutH <= t.OutH
}

// prepare makes t's weight table v's, rewriting it (or replacing its buffer, when it grows) if it
// was another view's. The GPU must be done with t's earlier frames: a stream's targets are its
// slots', and a slot is begun after its fence.
func (t *ScaleTarget) prepare(v ScaleView) error {
	if t.weights != nil && t.tabView == v {
		return nil
	}
	tx, x := v.table(true)
	ty, y := v.table(false)
	size := 4 * (len(x) + len(y))
	if t.weights == nil || t.weights.Size < size {
		t.weights.Destroy()
		t.weights = nil
		b, err := t.s.newTable(size + size/2) // room for views that need a few more taps
		if err != nil {
			return fmt.Errorf("ycbcr: scale: weights: %w", err)
		}
		t.weights = b
		for _, set := range []gpu.Set{t.rowsSet, t.colsSet, t.intoSet} {
			if set.Set != vk.NullDescriptorSet {
				vkx.WriteBuffer(t.s.dev.Device, set.Set, 1, b.Handle)
			}
		}
	}
	mem := unsafe.Slice((*float32)(t.weights.Mapped), t.weights.Size/4)
	copy(mem, x)
	copy(mem[len(x):], y)
	t.tabView, t.taps, t.base = v, [2]int{tx, ty}, len(x)
	return nil
}

// newTable makes a weight table's buffer: host-visible and coherent (written between frames, no
// flush), device-local where the device has such memory (read by every sample).
func (s *Scaler) newTable(size int) (*gpu.Buffer, error) {
	const host = vk.MemoryPropertyHostVisibleBit | vk.MemoryPropertyHostCoherentBit
	b, err := s.dev.NewBuffer(size, vk.BufferUsageStorageBufferBit, host|vk.MemoryPropertyDeviceLocalBit)
	if err != nil {
		b, err = s.dev.NewBuffer(size, vk.BufferUsageStorageBufferBit, host)
	}
	return b, err
}

// Record records the filtering, outside a render pass: the picture's rows resampled into t's rows
// image, then its columns into t's output image, left for Draw's fragment shader. The picture was
// written just before, by a compute conversion or a render pass, in this command buffer or an
// earlier submission. When v is not the view of t's last Record, t's weight table is rewritten:
// the GPU must be done with t's earlier frames.
func (t *ScaleTarget) Record(cb vk.CommandBuffer, v ScaleView) error {
	if !t.Fits(t.picture, v) {
		return fmt.Errorf("ycbcr: scale: view %dx%d of a %d-row picture on a target of %dx%d of %d rows",
			v.OutW, v.OutH, v.SrcH, t.Width, t.OutH, t.Height)
	}
	if err := t.prepare(v); err != nil {
		return err
	}
	direct := t.s.direct != 0
	// The picture's writes (a compute conversion, or a pass's colour output) before the reads; the
	// previous frame's reads of t's images (compute, fragment shaders) before this frame's writes.
	ibs := []vkx.Transition{layoutBarrier(t.rows.image, vk.ImageLayoutUndefined, vk.ImageLayoutGeneral, 0, vk.AccessShaderWriteBit)}
	if !direct {
		ibs = append(ibs, layoutBarrier(t.out.image, vk.ImageLayoutUndefined, vk.ImageLayoutGeneral, 0, vk.AccessShaderWriteBit))
	}
	vkx.CmdBarrier(cb, vk.PipelineStageComputeShaderBit|vk.PipelineStageColorAttachmentOutputBit|vk.PipelineStageFragmentShaderBit,
		vk.PipelineStageComputeShaderBit, vk.AccessShaderWriteBit|vk.AccessColorAttachmentWriteBit, vk.AccessShaderReadBit, ibs...)
	if err := t.dispatch(cb, 0, t.rowsSet, v.push(true, t.taps[0], 0), v.OutW, v.SrcH); err != nil {
		return err
	}
	next, dst := vk.PipelineStageComputeShaderBit, t.rows.image
	if direct {
		next = vk.PipelineStageFragmentShaderBit
	}
	for {
		ib := layoutBarrier(dst, vk.ImageLayoutGeneral, vk.ImageLayoutShaderReadOnlyOptimal, vk.AccessShaderWriteBit, vk.AccessShaderReadBit)
		vkx.CmdBarrier(cb, vk.PipelineStageComputeShaderBit, next, 0, 0, ib)
		if direct || dst == t.out.image {
			return nil
		}
		if err := t.dispatch(cb, 1, t.colsSet, v.push(false, t.taps[1], t.base), v.OutW, v.OutH); err != nil {
			return err
		}
		next, dst = vk.PipelineStageFragmentShaderBit, t.out.image
	}
}

// StorageTarget is a target image that compute shaders can write (STORAGE usage, a format that
// CanScaleInto takes, on a device where gpu.Device.StorageFormat says so), for RecordInto.
type StorageTarget struct {
	Image         vk.Image
	View          vk.ImageView
	Format        vk.Format
	Width, Height int
}

// CanScaleInto says whether RecordInto can write a target of format: scale_target.comp declares its
// storage image rgba8, which only R8G8B8A8_UNORM views match (Vulkan spec, "Compatibility Between
// SPIR-V Image Formats and Vulkan Formats"; B8G8R8A8 would need shaderStorageImageWriteWithoutFormat).
// The device must also allow storage images of it (gpu.Device.StorageFormat).
func CanScaleInto(format vk.Format) bool { return format == vk.FormatR8g8b8a8Unorm }

// RecordInto records the whole pass for view v outside a render pass, written by compute straight
// into dst: the picture's rows resampled into t's rows image (as Record), then its columns resampled
// and turned into dst (scale_target.comp), whose viewport of v.DisplaySize() is at (x, y) and whose
// every other pixel gets the clear colour (black). It replaces Record and Draw: no fragment shader
// runs, and dst is left in GENERAL with the compute writes for a pass that loads it
// (gpu.Device.NewLoadPass) to draw the on-screen display over it and take it to its final layout.
// dst's earlier uses (an earlier frame's render pass and copy-out; for a swapchain image, the
// acquire semaphore waited at COLOR_ATTACHMENT_OUTPUT) finish before the writes: the barrier's
// source stages chain with them (Vulkan spec, "Semaphore Waiting": the wait's dependency chains
// with a barrier whose first scope includes the waited stage). t's descriptor of dst is rewritten
// on each call: t must not be recorded twice in one command buffer (a slot's target is not).
func (t *ScaleTarget) RecordInto(cb vk.CommandBuffer, v ScaleView, dst StorageTarget, x, y int) error {
	s := t.s
	if s.direct != 0 {
		return fmt.Errorf("ycbcr: scale: RecordInto needs the weight table (a scaler without DIRECT)")
	}
	if !CanScaleInto(dst.Format) {
		return fmt.Errorf("ycbcr: scale: RecordInto cannot write format %d (scale_target.comp writes rgba8)", dst.Format)
	}
	if !t.Fits(t.picture, v) {
		return fmt.Errorf("ycbcr: scale: view %dx%d of a %d-row picture on a target of %dx%d of %d rows",
			v.OutW, v.OutH, v.SrcH, t.Width, t.OutH, t.Height)
	}
	d := s.dev.Device
	if t.intoSet.Set == vk.NullDescriptorSet {
		set, err := s.comp.Allocate()
		if err != nil {
			return fmt.Errorf("ycbcr: scale into the target: %w", err)
		}
		t.intoSet = set
		writeImages(d, set.Set, []vk.ImageView{t.rows.view}, s.sampler)
		if t.weights != nil { // prepare writes the buffer into every set only when it makes one
			vkx.WriteBuffer(d, set.Set, 1, t.weights.Handle)
		}
	}
	if err := t.prepare(v); err != nil {
		return err
	}
	pipe, err := s.intoPipeline(t.Dither)
	if err != nil {
		return err
	}
	vkx.WriteStorageImage(d, t.intoSet.Set, 2, dst.View)
	vkx.CmdBarrier(cb, vk.PipelineStageComputeShaderBit|vk.PipelineStageColorAttachmentOutputBit|vk.PipelineStageFragmentShaderBit,
		vk.PipelineStageComputeShaderBit, vk.AccessShaderWriteBit|vk.AccessColorAttachmentWriteBit, vk.AccessShaderReadBit,
		layoutBarrier(t.rows.image, vk.ImageLayoutUndefined, vk.ImageLayoutGeneral, 0, vk.AccessShaderWriteBit))
	if err := t.dispatch(cb, 0, t.rowsSet, v.push(true, t.taps[0], 0), v.OutW, v.SrcH); err != nil {
		return err
	}
	// The rows' writes before the columns read them; dst's earlier uses before its writes, its
	// contents discarded (UNDEFINED: every pixel is written).
	vkx.CmdBarrier(cb, vk.PipelineStageComputeShaderBit|vk.PipelineStageColorAttachmentOutputBit|vk.PipelineStageTransferBit,
		vk.PipelineStageComputeShaderBit, 0, 0,
		layoutBarrier(t.rows.image, vk.ImageLayoutGeneral, vk.ImageLayoutShaderReadOnlyOptimal, vk.AccessShaderWriteBit, vk.AccessShaderReadBit),
		layoutBarrier(dst.Image, vk.ImageLayoutUndefined, vk.ImageLayoutGeneral,
			vk.AccessShaderWriteBit|vk.AccessColorAttachmentWriteBit, vk.AccessShaderWriteBit))
	push := v.intoPush(t.taps[1], t.base, x, y, dst.Width, dst.Height)
	s.comp.Bind(cb, pipe, t.intoSet.Set, push)
	g := shaders.ComputeGroup
	vk.CmdDispatch(cb, uint32((dst.Width+g[0]-1)/g[0]), uint32((dst.Height+g[1]-1)/g[1]), 1)
	return nil
}

// intoPush is scale_target.comp's push constants for v, the columns' table (taps, base) and a
// viewport at (x, y) of a w×h target.
func (v ScaleView) intoPush(taps, base, x, y, w, h int) []byte {
	flip := 0
	if v.Orient.Flip {
		flip = 1
	}
	var p []byte
	for _, n := range []int{v.SrcH, v.OutW, v.OutH, taps, base, x, y, w, h, v.Orient.Rotate % 4, flip} {
		p = binary.LittleEndian.AppendUint32(p, uint32(int32(n)))
	}
	return p
}

// dispatch records scale.comp along axis (0 rows, 1 columns) over a w×h output.
func (t *ScaleTarget) dispatch(cb vk.CommandBuffer, axis int32, set gpu.Set, push []byte, w, h int) error {
	pipe, err := t.s.compPipeline(axis)
	if err != nil {
		return err
	}
	t.s.comp.Bind(cb, pipe, set.Set, push)
	g := shaders.ComputeGroup
	vk.CmdDispatch(cb, uint32((w+g[0]-1)/g[0]), uint32((h+g[1]-1)/g[1]), 1)
	return nil
}

func layoutBarrier(image vk.Image, from, to vk.ImageLayout, src, dst vk.AccessFlagBits) vkx.Transition {
	return vkx.Transition{Image: image, From: from, To: to, SrcAccess: src, DstAccess: dst}
}

// Draw records the last step inside target's render pass, after Record of the same view: the
// viewport (set by the caller, of v.DisplaySize()) gets the filtered picture, turned.
func (t *ScaleTarget) Draw(cb vk.CommandBuffer, target Target, v ScaleView) error {
	if t.weights == nil || t.tabView != v {
		return fmt.Errorf("ycbcr: scale: Draw of a view that Record did not prepare")
	}
	var spec Spec
	spec[0] = t.s.direct
	pipe, err := drawPipeline(t.s.draw, target, spec, shaders.ShaderSpecConstants, t.Dither)
	if err != nil {
		return err
	}
	draw(cb, t.s.draw, pipe, t.drawSet.Set, v.drawPush())
	return nil
}

// Destroy frees t's images, weight table and descriptor sets. The GPU must be done with them.
func (t *ScaleTarget) Destroy() {
	for _, set := range []gpu.Set{t.rowsSet, t.colsSet, t.intoSet} {
		t.s.comp.Free(set)
	}
	t.s.draw.Free(t.drawSet)
	t.weights.Destroy()
	for _, im := range []image2D{t.rows, t.out} {
		if im.image != vk.NullImage {
			t.s.dev.DestroyImage2D(im.image, im.memory, im.view)
		}
	}
}

// ConvertScaled converts f through path at its own size, then scales it into a target of v's
// display size with the scale pass, and reads the result back: the player's pipeline for one frame
// (tests compare it with FFmpeg's scale; screenshots of turned pictures use it at 1:1).
func (c *Paths) ConvertScaled(f *formats.Frame, p Params, path formats.Path, v ScaleView) (*image.RGBA, error) {
	return c.convertScaled(f, p, path, v, scaleDrawn)
}

// scaleMode is how convertScaled runs the pass's last step.
type scaleMode int

const (
	scaleDrawn  scaleMode = iota // Record, then Draw (scale.frag) onto the target
	scaleKernel                  // the same with the kernel evaluated per sample (DIRECT)
	scaleInto                    // RecordInto the target, a storage image, then a pass that loads it
)

// convertScaled is ConvertScaled with the pass's last step run as mode says.
func (c *Paths) convertScaled(f *formats.Frame, p Params, path formats.Path, v ScaleView, mode scaleMode) (*image.RGBA, error) {
	pic, err := c.drawnPicture(f, p, path)
	if err != nil {
		return nil, err
	}
	defer pic.Destroy()
	dw, dh := v.DisplaySize()
	newTarget := c.Dev.NewOffscreen
	if mode == scaleInto {
		newTarget = c.Dev.NewStorageOffscreen
	}
	target, err := newTarget(dw, dh)
	if err != nil {
		return nil, err
	}
	defer target.Destroy()
	s, err := NewScaler(c.Dev)
	if err != nil {
		return nil, err
	}
	defer s.Destroy()
	if mode == scaleKernel {
		s.direct = 1
	}
	st, err := s.Bind(pic.View, v)
	if err != nil {
		return nil, err
	}
	defer st.Destroy()
	st.Dither = p.Dither
	var recErr error
	err = c.Dev.Submit(func(cb vk.CommandBuffer) {
		if mode == scaleInto {
			dst := StorageTarget{Image: target.Image, View: target.View, Format: gpu.TargetFormat, Width: dw, Height: dh}
			if recErr = st.RecordInto(cb, v, dst, 0, 0); recErr != nil {
				return
			}
			gpu.BeginPass(cb, target.LoadPass, target.Framebuffer, dw, dh)
			target.End(cb)
			return
		}
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
