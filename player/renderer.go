package player

import (
	"fmt"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/gpu"
	"github.com/ycbcrkit/ycbcrkit/internal/vkx"
	"github.com/ycbcrkit/ycbcrkit/planes"
	"github.com/ycbcrkit/ycbcrkit/stream"
	"github.com/ycbcrkit/ycbcrkit/ycbcr"
)

// Compare is the side-by-side mode.
type Compare int

const (
	CompareOff   Compare = iota
	CompareSplit         // sampler path left of the middle, shader path right
	CompareDiff          // |sampler − shader| × DiffGain
)

// DiffGain amplifies the difference in CompareDiff: one 8-bit step shows as 16.
const DiffGain = 16

// ParseCompare reads -compare.
func ParseCompare(s string) (Compare, error) {
	switch s {
	case "off":
		return CompareOff, nil
	case "split":
		return CompareSplit, nil
	case "diff":
		return CompareDiff, nil
	}
	return 0, fmt.Errorf("bad -compare %q: off, split or diff", s)
}

func (c Compare) String() string { return [...]string{"off", "split", "diff"}[c] }

// framesInFlight: the CPU stages frame N+1 while the GPU converts frame N.
const framesInFlight = 2

// Renderer draws frames of a stream.Stream into a target: the player's compare modes on top of the
// stream's path choice, slots and lifetimes.
type Renderer struct {
	Dev    *gpu.Device
	Stream *stream.Stream
	Conv   *ycbcr.Converter

	Choice  formats.Choice
	Compare Compare
	// Path is the path in use and PathReason why (for -stats and the info key).
	Path       formats.Path
	PathReason string
	Key        ycbcr.Key // the sampler path's conversion, when it is used
	// Variant is how the conversion runs (stream.VariantAuto: the faster on this device, measured);
	// Conversion is the variant in use and ConversionReason why (for -stats).
	Variant          stream.Variant
	Conversion       stream.Variant
	ConversionReason string

	// Timer measures each frame's upload and conversion on the GPU (nil without timestamps).
	Timer *gpu.GPUTimer
	// Loaded says how the last frame was uploaded and why.
	Loaded planes.Loaded
	// HWRoute is how hardware-decoded frames (Frame.HW) reach the conversion: in place, or one GPU
	// copy per plane. HWRouteTaken and HWRouteReason say what the last such frame took and why.
	HWRoute       stream.Route
	HWRouteTaken  string
	HWRouteReason string

	// Filter is the scale pass's filter; Zoom 0 fits the picture into the target, 1 shows it pixel for
	// pixel, N at N screen pixels per video pixel, moved by PanX, PanY; Orient turns it for display
	// (the player sets it per frame). Scaled says what the last frame's scale pass did.
	Filter ycbcr.Filter
	// ScaleDraw draws the scale pass's last step even where the target could be written by compute.
	ScaleDraw bool
	// Peak is -hdr-peak (auto: the stream detects PQ pictures' peak); Deband debands 8-bit sources
	// (Iterations 0: off).
	Peak       HDRPeak
	Deband     ycbcr.DebandParams
	Zoom       float64
	PanX, PanY int
	Orient     formats.Orientation
	Scaled     string
	// Overlay, when set, draws on top of the picture in the same render pass, last (the on-screen
	// display): slot is the frame slot recording, t the target and w×h its size.
	Overlay func(cb vk.CommandBuffer, slot int, t ycbcr.Target, w, h int) error

	// Notice, when set, receives one-line notices (a fallback from the chosen path mid-stream).
	Notice func(string)
	// active is the compare mode in effect (off while fallen back); configured: a configuration has
	// succeeded once (a fallback is only for changes mid-stream); fellBack: the user's path or
	// compare mode is set aside for now.
	active     Compare
	configured bool
	fellBack   bool

	diff       *ycbcr.Diff
	diffs      []*diffTarget // per slot, in diff mode
	generation int           // the stream configuration diffs were made for
	format     *formats.PixelFormat
	width      int
	height     int
	params     ycbcr.Params
}

// diffTarget is one slot's pictures of both paths at the video's size and the difference pass.
type diffTarget struct {
	pictures map[formats.Path]*gpu.Offscreen
	pass     *ycbcr.Binding
}

// live counts the Vulkan objects the renderer holds: the stream's and the diff targets'.
func (r *Renderer) live() int {
	n := r.Stream.Live()
	for _, d := range r.diffs {
		if d != nil {
			n += len(d.pictures)
			if d.pass != nil {
				n++
			}
		}
	}
	return n
}

func (d *diffTarget) destroy() {
	if d.pass != nil {
		d.pass.Destroy()
	}
	for _, o := range d.pictures {
		o.Destroy()
	}
}

// NewRenderer prepares the stream (conversion paths and frame slots).
func NewRenderer(dev *gpu.Device, choice formats.Choice, compare Compare, upload planes.Upload) (*Renderer, error) {
	st, err := stream.New(dev, stream.Options{Slots: framesInFlight, Upload: upload})
	if err != nil {
		return nil, fmt.Errorf("player: %w", err)
	}
	return &Renderer{Dev: dev, Stream: st, Conv: st.Conv, Timer: st.Timer, Choice: choice, Compare: compare,
		diffs: make([]*diffTarget, framesInFlight)}, nil
}

// configure makes the stream's configuration for f with p (nothing when it is the current one) and
// the diff mode's pictures for it.
func (r *Renderer) configure(f *formats.Frame, p ycbcr.Params) error {
	cfg := stream.Config{Format: f.Format, Width: f.Width, Height: f.Height, Params: p,
		Choice: r.Choice, Both: r.Compare != CompareOff, Variant: r.Variant, Peak: r.Peak == PeakAuto, Deband: r.Deband}
	_, err := r.Stream.Configure(cfg)
	r.active = r.Compare
	if err != nil && r.configured && (r.Choice == formats.ChooseSampler || r.Compare != CompareOff) {
		// Mid-stream, the stream changed into something the sampler cannot express (a new chroma
		// siting, say): play on through the path that can, and come back when the sampler can again
		// (every new configuration asks for the user's choice first).
		cfg.Choice, cfg.Both = formats.ChooseAuto, false
		if _, err2 := r.Stream.Configure(cfg); err2 == nil {
			if !r.fellBack && r.Notice != nil {
				r.Notice(fmt.Sprintf("notice: %s; playing on through the shader path until the sampler can express the stream again", err))
			}
			r.fellBack, r.active, err = true, CompareOff, nil
		}
	} else if err == nil && r.fellBack {
		r.fellBack = false
		if r.Notice != nil {
			r.Notice(fmt.Sprintf("notice: the sampler path expresses the stream again (path %s, compare %s)", r.Choice, r.Compare))
		}
	}
	if err != nil {
		r.format = nil
		if r.Compare != CompareOff {
			return fmt.Errorf("-compare %s: %w", r.Compare, err)
		}
		return err
	}
	r.configured = true
	d := r.Stream.Decision()
	r.format, r.width, r.height, r.params = f.Format, f.Width, f.Height, p
	r.Path, r.Key, r.PathReason = d.Path, d.Key, d.Reason
	r.Conversion, r.ConversionReason = r.Stream.Conversion()
	if r.active != CompareDiff {
		r.retireDiffs()
		return nil
	}
	if r.generation == r.Stream.Generation() && r.diffs[0] != nil {
		return nil
	}
	r.retireDiffs()
	r.generation = r.Stream.Generation()
	for i := range r.diffs {
		if err := r.configureDiff(i, f.Width, f.Height); err != nil {
			r.format = nil
			return err
		}
	}
	return nil
}

// retireDiffs hands the diff pictures to the fence of the last frame that drew them.
func (r *Renderer) retireDiffs() {
	if r.diffs[0] == nil {
		return
	}
	old := append([]*diffTarget(nil), r.diffs...)
	for i := range r.diffs {
		r.diffs[i] = nil
	}
	r.Stream.Ring.RetireLast(func() {
		for _, d := range old {
			if d != nil {
				d.destroy()
			}
		}
	})
}

// configureDiff gives slot i one picture per path at the video's size and the difference pass.
func (r *Renderer) configureDiff(i, w, h int) error {
	if r.diff == nil {
		d, err := ycbcr.NewDiff(r.Dev)
		if err != nil {
			return err
		}
		r.diff = d
	}
	d := &diffTarget{pictures: map[formats.Path]*gpu.Offscreen{}}
	r.diffs[i] = d
	for _, path := range r.Stream.Paths() {
		o, err := r.Dev.NewSampledOffscreen(w, h)
		if err != nil {
			return err
		}
		d.pictures[path] = o
	}
	b, err := r.diff.Bind(d.pictures[formats.PathSampler].View, d.pictures[formats.PathShader].View, DiffGain)
	if err != nil {
		return err
	}
	d.pass = b
	return nil
}

// SamplerPossible says why the sampler path cannot show the current stream (nil when it can, or
// when nothing is shown yet).
func (r *Renderer) SamplerPossible() error {
	if r.format == nil {
		return nil
	}
	return r.Stream.Decision().SamplerErr
}

// SetChoice switches the path (the p key); the next frame is a new configuration.
func (r *Renderer) SetChoice(c formats.Choice) { r.Choice = c }

// SetCompare switches the compare mode (the c key).
func (r *Renderer) SetCompare(c Compare) { r.Compare = c }

// Letterbox fits a picture of display aspect aspect (width/height) centred in a w×h target.
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

// Target is a render target the renderer draws a frame into.
type Target interface {
	ycbcr.Target
	// Begin starts the render pass on cb (image idx for swapchains) and returns its size.
	begin(cb vk.CommandBuffer) (w, h int)
	// beginLoad starts the pass that loads what the scale pass wrote into the image from compute
	// (gpu.Device.NewLoadPass) instead of clearing it.
	beginLoad(cb vk.CommandBuffer)
	// storage is the image as compute shaders write it (ycbcr.StorageTarget), or why it cannot be:
	// the scale pass is then drawn.
	storage() (ycbcr.StorageTarget, string)
	size() (w, h int)
	end(cb vk.CommandBuffer)
}

// Draw uploads f, records its conversion into target, and submits. wait and signal are the
// swapchain's acquire and render-done semaphores (null for offscreen targets). done, if not nil,
// is called once the GPU no longer reads f's memory.
//
// hw, if not nil, holds the picture (a hardware-decoded frame in FFmpeg's image; f then has the
// format and size and no planes): it is sampled in place or copied on the GPU (HWRoute).
func (r *Renderer) Draw(f *formats.Frame, hw stream.Foreign, p ycbcr.Params, aspect float64, t Target, wait, signal vk.Semaphore, done func()) error {
	if err := r.configure(f, p); err != nil {
		if done != nil {
			done()
		}
		return err
	}
	fr, err := r.Stream.Begin()
	if err != nil {
		if done != nil {
			done()
		}
		return err
	}
	cb := fr.Slot.CB
	if hw != nil {
		route, why, err := fr.LoadForeign(hw, r.HWRoute, done)
		if err != nil {
			return err
		}
		r.HWRouteTaken, r.HWRouteReason = route.String(), why
		r.Loaded = planes.Loaded{}
	} else if r.Loaded, err = fr.Load(f, done); err != nil {
		return err
	}
	paths := r.Stream.Paths()
	if r.active == CompareDiff {
		// Each path into its own picture, then their difference into the target.
		d := r.diffs[fr.Slot.Index]
		for _, path := range paths {
			o := d.pictures[path]
			gpu.BeginPass(cb, o.RenderPass, o.Framebuffer, o.Width, o.Height)
			gpu.SetViewport(cb, 0, 0, o.Width, o.Height)
			if err := fr.Bindings[path].Draw(cb, o); err != nil {
				return err
			}
			vk.CmdEndRenderPass(cb)
		}
		w, h := t.begin(cb)
		x, y, vw, vh := Letterbox(w, h, aspect)
		gpu.SetViewport(cb, x, y, vw, vh)
		if err := d.pass.Draw(cb, t); err != nil {
			return err
		}
		if err := r.overlay(cb, fr.Slot.Index, t, w, h); err != nil {
			return err
		}
		t.end(cb)
		return fr.Submit(wait, signal)
	}
	if err := fr.Convert(); err != nil { // the compute variant's dispatch, before the pass
		return err
	}
	if len(paths) == 1 {
		// The conversion at the picture's size, then the scale pass into the viewport (nothing when
		// the picture is shown as it is).
		tw, th := t.size()
		r.PanX, r.PanY = clampPan(f.Width, f.Height, r.Orient, r.Zoom, r.PanX, r.PanY, tw, th) // keys, drags and resizes alike
		x, y, vw, vh, v, visible := layout(f.Width, f.Height, aspect, r.Orient, r.Zoom, r.PanX, r.PanY, tw, th, r.Filter)
		into := false
		if visible {
			// Written by compute straight into the target where it can be a storage image: the
			// fragment stage is narrow on some GPUs (docs/scaling.md); drawn otherwise.
			st, why := t.storage()
			if r.ScaleDraw {
				why = "-scale-draw"
			}
			var dst *ycbcr.StorageTarget
			if why == "" {
				dst = &st
			}
			var err error
			if into, err = fr.ScaleInto(v, dst, x, y); err != nil {
				return err
			}
			r.Scaled = scaleName(v, into, why)
		}
		if into {
			t.beginLoad(cb) // the compute pass wrote every pixel, the letterbox too
		} else {
			t.begin(cb)
		}
		if visible && !into {
			gpu.SetViewport(cb, x, y, vw, vh)
			if err := fr.Draw(t); err != nil {
				return err
			}
		}
		if err := r.overlay(cb, fr.Slot.Index, t, tw, th); err != nil {
			return err
		}
		t.end(cb)
		return fr.Submit(wait, signal)
	}
	w, h := t.begin(cb)
	x, y, vw, vh := Letterbox(w, h, aspect)
	for i, path := range paths {
		sx, sw := x, vw
		if len(paths) == 2 { // split: each path draws its half of the picture, same viewport
			sw = vw / 2
			if i == 1 {
				sx, sw = x+vw/2, vw-vw/2
			}
		}
		vkx.SetViewport(cb, x, y, vw, vh, sx, y, sw, vh)
		if err := fr.Bindings[path].Draw(cb, t); err != nil {
			return err
		}
	}
	if err := r.overlay(cb, fr.Slot.Index, t, w, h); err != nil {
		return err
	}
	t.end(cb)
	return fr.Submit(wait, signal)
}

// DrawOverlay records only overlay (no picture) into t, cleared, and submits: the window's content
// before the first frame (PlayOpening's "opening NAME…").
func (r *Renderer) DrawOverlay(t Target, wait, signal vk.Semaphore, overlay func(cb vk.CommandBuffer, slot int, t ycbcr.Target, w, h int) error) error {
	sl, err := r.Stream.Ring.Next()
	if err != nil {
		return err
	}
	w, h := t.begin(sl.CB)
	if err := overlay(sl.CB, sl.Index, t, w, h); err != nil {
		t.end(sl.CB)
		vk.EndCommandBuffer(sl.CB)
		return err
	}
	t.end(sl.CB)
	return r.Stream.Ring.Submit(sl, wait, signal)
}

func (r *Renderer) overlay(cb vk.CommandBuffer, slot int, t ycbcr.Target, w, h int) error {
	if r.Overlay == nil {
		return nil
	}
	return r.Overlay(cb, slot, t, w, h)
}

// AcquireSemaphore is the semaphore the next Draw's slot uses for swapchain acquisition.
func (r *Renderer) AcquireSemaphore() vk.Semaphore { return r.Stream.Ring.Peek().Acquire }

// WaitNextSlot waits until the next slot's previous frame is done (so its acquire semaphore is free).
func (r *Renderer) WaitNextSlot() error { return r.Stream.Ring.WaitPeek() }

// Drain waits for every frame in flight (their fences) and releases what they held.
func (r *Renderer) Drain() error { return r.Stream.Ring.Drain() }

// Destroy waits for the frames in flight and frees everything.
func (r *Renderer) Destroy() {
	r.Stream.Close() // waits for the frames in flight
	for i, d := range r.diffs {
		if d != nil {
			d.destroy()
			r.diffs[i] = nil
		}
	}
	if r.diff != nil {
		r.diff.Destroy()
	}
}
