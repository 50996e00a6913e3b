package stream

import (
	"fmt"
	"strings"
	"time"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/gpu"
	"github.com/ycbcrkit/ycbcrkit/internal/vkx"
	"github.com/ycbcrkit/ycbcrkit/planes"
	"github.com/ycbcrkit/ycbcrkit/ycbcr"
)

// Variant is how a path's conversion runs: a drawn full-screen triangle, or a compute shader
// writing a storage image that is then drawn onto the target.
type Variant int

const (
	// VariantAuto measures both on the device, for the configuration, and takes the faster.
	VariantAuto Variant = iota
	VariantDraw
	VariantCompute
)

var variantNames = [...]string{"auto", "draw", "compute"}

func (v Variant) String() string {
	if v >= 0 && int(v) < len(variantNames) {
		return variantNames[v]
	}
	return fmt.Sprintf("Variant(%d)", int(v))
}

// ParseVariant reads a variant name: auto, draw or compute.
func ParseVariant(s string) (Variant, error) {
	for i, n := range variantNames {
		if s == n {
			return Variant(i), nil
		}
	}
	return 0, fmt.Errorf("stream: conversion %q: want %s", s, strings.Join(variantNames[:], ", "))
}

// ProbeKey is what a measurement is made for, and cached by: a stream lives on one device.
type ProbeKey struct {
	Format        string
	Width, Height int
	Path          formats.Path
}

// MeasureFunc returns the GPU time in milliseconds of one conversion by variant v of the stream's
// current configuration. Options.Measure replaces the stream's own measurement (tests inject it).
type MeasureFunc func(k ProbeKey, v Variant) (float64, error)

// probeFrames is how many conversions of each variant a probe times (after one untimed, which
// warms caches and lazily made driver state).
const probeFrames = 4

// probeMaxPixels bounds the pictures a probe measures (8192×4352, past 8K UHD): a probe converts
// the picture ten times at its full size, into a target and a storage image of that size (4 bytes a
// pixel each, 1 GiB apiece for 16384×16000), before the first frame is shown. Larger pictures are
// drawn, not measured.
const probeMaxPixels = 8192 * 4352

// computeTarget is one slot's compute route: the storage image the compute binding writes (at the
// picture's size), and the blit binding that draws it onto the target; placed (Config.Into), the
// caller's image, which the binding writes the picture into at the configuration's place.
type computeTarget struct {
	image   vk.Image
	memory  vk.DeviceMemory
	view    vk.ImageView
	placed  bool
	at      Into
	width   int
	height  int
	compute *ycbcr.ComputeBinding
	blit    *ycbcr.Binding
	dev     *gpu.Device
}

func (s *Stream) newComputeTarget(img *planes.Image, c Config, path formats.Path) (*computeTarget, error) {
	t := &computeTarget{width: c.Width, height: c.Height, dev: s.Dev}
	var err error
	if c.Into.View != vk.NullImageView && !c.debandOn(1) && s.textures == nil {
		t.placed, t.at, t.view = true, c.Into, c.Into.View
		t.compute, err = t.bind(s, img, c.Params, path)
		return t, err
	}
	if t.image, t.memory, t.view, err = s.Dev.NewImage2D(gpu.TargetFormat, c.Width, c.Height,
		vk.ImageUsageStorageBit|vk.ImageUsageSampledBit|vk.ImageUsageTransferSrcBit); err != nil {
		return t, err
	}
	if t.compute, err = t.bind(s, img, c.Params, path); err != nil {
		return t, err
	}
	if s.blit == nil {
		if s.blit, err = ycbcr.NewBlit(s.Dev); err != nil {
			return t, err
		}
	}
	t.blit, err = s.blit.Bind(t.view)
	return t, err
}

// bind makes the compute binding of img that writes t's view (at t's place, placed).
func (t *computeTarget) bind(s *Stream, img *planes.Image, p ycbcr.Params, path formats.Path) (*ycbcr.ComputeBinding, error) {
	b, err := s.Conv.BindCompute(img, p, path, t.view)
	if err != nil || !t.placed {
		return b, err
	}
	if err := b.Place(t.at.X, t.at.Y, t.width, t.height); err != nil {
		b.Destroy()
		return nil, err
	}
	return b, nil
}

// record converts the uploaded picture into the storage image and leaves it for the fragment
// shader. The image's previous contents are discarded (UNDEFINED): the slot's fence, waited for
// before this frame, has ordered the previous frame's reads; the barrier orders earlier dispatches,
// blits and copies (Frame.CopyTo) of this command buffer (a probe records several).
func (t *computeTarget) record(cb vk.CommandBuffer) error {
	if t.placed {
		return t.recordPlaced(cb)
	}
	t.barrier(cb, vk.ImageLayoutUndefined, vk.ImageLayoutGeneral,
		vk.AccessShaderWriteBit, vk.AccessShaderWriteBit,
		vk.PipelineStageComputeShaderBit|vk.PipelineStageFragmentShaderBit|vk.PipelineStageTransferBit, vk.PipelineStageComputeShaderBit)
	if err := t.compute.Dispatch(cb, t.width, t.height); err != nil {
		return err
	}
	t.barrier(cb, vk.ImageLayoutGeneral, vk.ImageLayoutShaderReadOnlyOptimal,
		vk.AccessShaderWriteBit, vk.AccessShaderReadBit,
		vk.PipelineStageComputeShaderBit, vk.PipelineStageFragmentShaderBit)
	return nil
}

// placedReads and placedWrites are what may use a placed picture's image (Config.Into) before and
// after the conversion writes into it on the queue: passes drawing into it (a wall's drawn tiles),
// copies in and out of it, compute shaders writing it, and shaders sampling it.
const (
	placedStages = vk.PipelineStageComputeShaderBit | vk.PipelineStageFragmentShaderBit |
		vk.PipelineStageColorAttachmentOutputBit | vk.PipelineStageTransferBit
	placedAccess = vk.AccessShaderReadBit | vk.AccessShaderWriteBit | vk.AccessColorAttachmentReadBit |
		vk.AccessColorAttachmentWriteBit | vk.AccessTransferReadBit | vk.AccessTransferWriteBit
)

// recordPlaced converts the picture into its place in the caller's image (GENERAL layout, which it
// keeps: other parts of the image may be written from other queues meanwhile), after the image's
// earlier uses on the queue (the place's previous picture, a read-back) and before its later ones.
func (t *computeTarget) recordPlaced(cb vk.CommandBuffer) error {
	vkx.CmdMemoryBarrier(cb, placedStages, placedAccess&^(vk.AccessShaderReadBit|vk.AccessColorAttachmentReadBit|vk.AccessTransferReadBit),
		vk.PipelineStageComputeShaderBit, vk.AccessShaderWriteBit)
	if err := t.compute.Dispatch(cb, t.width, t.height); err != nil {
		return err
	}
	vkx.CmdMemoryBarrier(cb, vk.PipelineStageComputeShaderBit, vk.AccessShaderWriteBit, placedStages, placedAccess)
	return nil
}

// Computed says the frame's conversion is the compute variant's into the slot's storage image
// (Convert writes it): CopyTo can place it.
func (f *Frame) Computed() bool {
	return f.compute != nil && !f.compute.placed && f.view == nil && f.debanded == nil && !f.into
}

// Placed says the frame's conversion is the compute variant's written into its place
// (Config.Into): Convert has put the picture where it goes, and nothing is left to draw or copy.
func (f *Frame) Placed() bool {
	return f.compute != nil && f.compute.placed
}

// CopyTo records, after Convert, the copy of the compute variant's converted picture (Computed) to
// (x, y) of dst, an R8G8B8A8 image (gpu.TargetFormat) in dstLayout (TRANSFER_DST_OPTIMAL or
// GENERAL) whose barriers before and after the copy are the caller's. A wall places its tiles so:
// the copy engine's work, where drawing the picture would take the fragment pipeline (a fortieth of
// the memory bandwidth on Hopper, see chooseVariant).
func (f *Frame) CopyTo(dst vk.Image, dstLayout vk.ImageLayout, x, y int) error {
	if !f.Computed() {
		return fmt.Errorf("stream: CopyTo: the frame's conversion is not the compute variant's (%s)", f.s.plan.Variant.Variant)
	}
	t := f.compute
	t.barrier(f.Slot.CB, vk.ImageLayoutShaderReadOnlyOptimal, vk.ImageLayoutTransferSrcOptimal,
		vk.AccessShaderWriteBit, vk.AccessTransferReadBit, vk.PipelineStageComputeShaderBit, vk.PipelineStageTransferBit)
	vkx.CmdCopyImageRegion(f.Slot.CB, t.image, vk.ImageLayoutTransferSrcOptimal, 0, 0, dst, dstLayout, x, y, t.width, t.height)
	return nil
}

func (t *computeTarget) barrier(cb vk.CommandBuffer, from, to vk.ImageLayout, src, dst vk.AccessFlagBits, srcStage, dstStage vk.PipelineStageFlagBits) {
	vkx.CmdBarrier(cb, srcStage, dstStage, 0, 0, vkx.Transition{Image: t.image, From: from, To: to, SrcAccess: src, DstAccess: dst})
}

func (t *computeTarget) destroy() {
	if t.blit != nil {
		t.blit.Destroy()
	}
	if t.compute != nil {
		t.compute.Destroy()
	}
	if !t.placed { // the view is the caller's image's
		t.dev.DestroyImage2D(t.image, t.memory, t.view)
	}
}

// chooseVariant decides how the new configuration's conversion runs, once its pictures exist: what
// was asked for, or, for VariantAuto, whichever variant the device converts this configuration
// faster, measured (cached per format, size and path). On Hopper the drawn conversion runs at a
// fortieth of the memory bandwidth and compute near it; on lavapipe drawing is faster: a vendor
// name says neither, a measurement does.
func (s *Stream) chooseVariant(c Config, path formats.Path) (Variant, string, error) {
	switch {
	case c.Both:
		return VariantDraw, "draw: the comparison draws both paths", nil
	case c.Variant == VariantDraw:
		return VariantDraw, "draw: asked for", nil
	case s.upload == planes.UploadDirect:
		if c.Variant == VariantCompute {
			return 0, "", fmt.Errorf("stream: compute conversion: direct uploads are sampled in place only by drawn bindings")
		}
		return VariantDraw, "draw: direct uploads are sampled in place only by drawn bindings", nil
	case c.Variant == VariantCompute:
		return VariantCompute, "compute: asked for", nil
	case c.Variant != VariantAuto:
		return 0, "", fmt.Errorf("stream: unknown conversion variant %v", c.Variant)
	}
	if c.Width*c.Height > probeMaxPixels && s.measure == nil {
		return VariantDraw, fmt.Sprintf("draw: not measured (a %d×%d picture is past the probe's %d pixels)", c.Width, c.Height, probeMaxPixels), nil
	}
	k := ProbeKey{Format: c.Format.Name, Width: c.Width, Height: c.Height, Path: path}
	m, ok := s.probes[k]
	var rememberedAt time.Time
	if !ok && s.measure == nil {
		// An earlier run on this device and driver measured the same configuration: its verdict
		// holds, and the probe (pipelines of both variants, images, timed conversions: most of the
		// start-up on some GPUs) is skipped.
		m, rememberedAt, ok = s.remembered(k)
		if ok {
			s.probes[k] = m
		}
	}
	if !ok {
		defer func(t time.Time) { s.probeTime += time.Since(t) }(time.Now())
		m = measured{}
		for _, v := range []Variant{VariantDraw, VariantCompute} {
			var ms float64
			var err error
			if s.measure != nil {
				ms, err = s.measure(k, v)
			} else {
				ms, err = s.probe(c, path, v)
			}
			m.ms[v], m.err[v] = ms, err
		}
		s.probes[k] = m
		if s.measure == nil {
			s.remember(k, m)
		}
	}
	draw, comp := m.ms[VariantDraw], m.ms[VariantCompute]
	if !rememberedAt.IsZero() {
		if comp < draw {
			return VariantCompute, rememberedReason(VariantCompute, m, rememberedAt), nil
		}
		return VariantDraw, rememberedReason(VariantDraw, m, rememberedAt), nil
	}
	switch {
	case m.err[VariantDraw] != nil:
		return VariantDraw, fmt.Sprintf("draw: not measured (%v)", m.err[VariantDraw]), nil
	case m.err[VariantCompute] != nil:
		return VariantDraw, fmt.Sprintf("draw: compute not measured (%v)", m.err[VariantCompute]), nil
	case comp < draw:
		return VariantCompute, fmt.Sprintf("compute: %.3f ms vs draw %.3f ms on the GPU", comp, draw), nil
	}
	return VariantDraw, fmt.Sprintf("draw: %.3f ms vs compute %.3f ms on the GPU", draw, comp), nil
}

// ProbeTime is how long the stream spent probing conversion variants (start-up figures).
func (s *Stream) ProbeTime() time.Duration { return s.probeTime }

// measured is one configuration's probe: GPU milliseconds per conversion, or why not.
type measured struct {
	ms  [3]float64
	err [3]error
}

// probe times variant v of the configuration on the device: a picture of its own (the slots' are
// made once the plan is decided) gets a blank frame, then probeFrames conversions are timed with
// GPU timestamps (after one untimed), into an offscreen target for the drawn variant and into the
// storage image (and onto the target, as each frame does) for the compute one. It runs on a slot of
// the ring and waits for that slot's fence; what it made is retired on the slot, so a failed
// submission (which may still run) leaves it to Close, after the device is idle.
func (s *Stream) probe(c Config, path formats.Path, v Variant) (float64, error) {
	c.Into = Into{} // on pictures of the probe's own, whatever the stream's go into
	blank, err := formats.NewFrame(c.Format, c.Width, c.Height)
	if err != nil {
		return 0, err
	}
	timer, err := s.Dev.NewGPUTimer(probeFrames)
	if err != nil {
		return 0, err
	}
	if timer == nil {
		return 0, fmt.Errorf("the queue has no timestamps")
	}
	var img *planes.Image
	var b *ycbcr.Binding
	var o *gpu.Offscreen
	var ct *computeTarget
	ms := -1.0
	free := func() {
		if ms < 0 {
			ms = 0
		} else {
			timer.Finish()
			ms = timer.MeanMs()
		}
		timer.Destroy()
		if o != nil {
			o.Destroy()
		}
		if ct != nil {
			ct.destroy()
		}
		if b != nil {
			b.Destroy()
		}
		if img != nil {
			img.Destroy()
		}
	}
	if img, err = planes.New(s.Dev, c.Format, c.Width, c.Height, path); err == nil {
		if err = img.Stage(blank); err == nil {
			if b, err = s.Conv.Bind(img, c.Params, path); err == nil {
				o, err = s.Dev.NewOffscreen(c.Width, c.Height)
			}
		}
	}
	if err == nil && v == VariantCompute {
		ct, err = s.newComputeTarget(img, c, path)
	}
	if err != nil {
		free()
		return 0, err
	}
	one := func(cb vk.CommandBuffer) error {
		if ct != nil {
			if err := ct.record(cb); err != nil {
				return err
			}
			o.Begin(cb)
			err := ct.blit.Draw(cb, o)
			vk.CmdEndRenderPass(cb)
			return err
		}
		o.Begin(cb)
		err := b.Draw(cb, o)
		vk.CmdEndRenderPass(cb)
		return err
	}
	sl, err := s.Ring.Next()
	if err != nil {
		free()
		return 0, err
	}
	sl.Retire(free) // from here on, freed on the slot's fence (or by Close)
	cb := sl.CB
	img.RecordUpload(cb)
	if err := one(cb); err != nil {
		return 0, err // unsubmitted: the slot's next use resets the command buffer
	}
	for i := 0; i < probeFrames; i++ {
		timer.Start(cb, i)
		err := one(cb)
		timer.Stop(cb, i)
		if err != nil {
			return 0, err
		}
	}
	if err := s.Ring.Submit(sl, vk.NullSemaphore, vk.NullSemaphore); err != nil {
		return 0, err
	}
	ms = 0 // submitted: free reads the timer
	if err := s.Ring.Wait(sl); err != nil {
		return 0, err
	}
	if timer.Count == 0 {
		return 0, fmt.Errorf("no timestamps came back")
	}
	return ms, nil
}
