package player

import (
	"fmt"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/gpu"
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
	Conv   *ycbcr.Paths

	Choice  formats.Choice
	Compare Compare
	// Variant is how the conversion runs (stream.VariantAuto: the faster on this device, measured).
	Variant stream.Variant

	// Timer measures each frame's upload and conversion on the GPU (nil without timestamps).
	Timer *gpu.GPUTimer
	// HWRoute is how hardware-decoded frames (Frame.HW) reach the conversion: in place, or one GPU
	// copy per plane. The stream's plan (Stream.Plan) says what each took and why, and what was
	// decided for the rest of the frame's way.
	HWRoute stream.Route
	// Decoding, when set, says how the source decodes, for the plan.
	Decoding func() stream.Decode

	// Filter is the scale pass's filter; Zoom 0 fits the picture into the target, 1 shows it pixel for
	// pixel, N at N screen pixels per video pixel, moved by PanX, PanY; Orient turns it for display
	// (the player sets it per frame). The stream's plan says what the last frame's scale pass did.
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

	diffs  diffs     // the diff mode's pictures
	icc    *iccStage // the display profile's pass (SetICC; nil: none)
	format *formats.PixelFormat
	width  int
	height int
	params ycbcr.Params
}

// live counts the Vulkan objects the renderer holds: the stream's and the diff mode's.
func (r *Renderer) live() int { return r.Stream.Live() + r.diffs.live() + r.icc.live() }

// NewRenderer prepares the stream (conversion paths and frame slots).
func NewRenderer(dev *gpu.Device, choice formats.Choice, compare Compare, upload planes.Upload) (*Renderer, error) {
	st, err := stream.New(dev, stream.Options{Slots: framesInFlight, Upload: upload})
	if err != nil {
		return nil, fmt.Errorf("player: %w", err)
	}
	return &Renderer{Dev: dev, Stream: st, Conv: st.Conv, Timer: st.Timer, Choice: choice, Compare: compare,
		diffs: diffs{slots: make([]*diffTarget, framesInFlight)}}, nil
}

// configure makes the stream's configuration for f with p (nothing when it is the current one) and
// the diff mode's pictures for it.
func (r *Renderer) configure(f *formats.Frame, p ycbcr.Params) error {
	cfg := stream.Config{Format: f.Format, Width: f.Width, Height: f.Height, Params: p,
		Choice: r.Choice, Both: r.Compare != CompareOff, Variant: r.Variant, Peak: r.Peak == PeakAuto, Deband: r.Deband,
		Route: r.HWRoute}
	if r.Decoding != nil {
		cfg.Decode = r.Decoding()
	}
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
	r.format, r.width, r.height, r.params = f.Format, f.Width, f.Height, p
	if r.active != CompareDiff {
		r.diffs.retire(r.Stream)
		return nil
	}
	if err := r.diffs.configure(r.Dev, r.Stream, f.Width, f.Height); err != nil {
		r.format = nil
		return err
	}
	return nil
}

// SamplerPossible says why the sampler path cannot show the current stream (nil when it can, or
// when nothing is shown yet).
func (r *Renderer) SamplerPossible() error {
	if r.format == nil {
		return nil
	}
	return r.Stream.Plan().Path.SamplerErr
}

// SetChoice switches the path (the p key); the next frame is a new configuration.
func (r *Renderer) SetChoice(c formats.Choice) { r.Choice = c }

// SetCompare switches the compare mode (the c key).
func (r *Renderer) SetCompare(c Compare) { r.Compare = c }

// Letterbox fits a picture of display aspect aspect (width/height) centred in a w×h target
// (ycbcr.Letterbox).
func Letterbox(w, h int, aspect float64) (x, y, vw, vh int) { return ycbcr.Letterbox(w, h, aspect) }

// Draw uploads f (held until the GPU no longer reads its memory), records its conversion into t
// through the mode in effect (mode), and submits, waiting on and signalling t's semaphores. A
// hardware-decoded frame (Frame.HW: its picture in FFmpeg's image, no planes) is sampled in place
// or copied on the GPU (HWRoute).
func (r *Renderer) Draw(f *Frame, p ycbcr.Params, t Target) error {
	return r.draw(f, p, t, true)
}

// DrawPicture is Draw into a sampled picture of the output's size, without the overlay: a frame
// that display-synced refreshes blend (DrawRefresh).
func (r *Renderer) DrawPicture(f *Frame, p ycbcr.Params, pic *gpu.Offscreen) error {
	return r.draw(f, p, offscreenTarget{pic}, false)
}

func (r *Renderer) draw(f *Frame, p ycbcr.Params, t Target, overlay bool) error {
	f.hold()
	if err := r.configure(f.Picture, p); err != nil {
		f.release()
		return err
	}
	fr, err := r.Stream.Begin()
	if err != nil {
		f.release()
		return err
	}
	if hw := f.foreign(); hw != nil {
		if _, _, err := fr.LoadForeign(hw, f.release); err != nil {
			return err
		}
	} else if _, err = fr.Load(f.Picture, f.release); err != nil {
		return err
	}
	// With a display profile the frame goes into the slot's picture, then through the profile's
	// pass into t.
	into := t
	if r.icc != nil {
		tw, th := t.size()
		if into, err = r.icc.target(r.Dev, r.Stream, fr.Slot.Index, tw, th); err != nil {
			return err
		}
	}
	w, h, err := r.mode().record(fr, f, into)
	if err != nil {
		return err
	}
	if overlay {
		if err := r.overlay(fr.Slot.CB, fr.Slot.Index, into, w, h); err != nil {
			return err
		}
	}
	into.end(fr.Slot.CB)
	if r.icc != nil {
		if err := r.icc.draw(fr.Slot.CB, fr.Slot.Index, t); err != nil {
			return err
		}
		t.end(fr.Slot.CB)
	}
	wait, signal := t.semaphores()
	return fr.Submit(wait, signal)
}

// DrawOverlay records only overlay (no picture) into t, cleared, and submits: the window's content
// before the first frame (PlayOpening's "opening NAME…").
func (r *Renderer) DrawOverlay(t Target, overlay func(cb vk.CommandBuffer, slot int, t ycbcr.Target, w, h int) error) error {
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
	wait, signal := t.semaphores()
	return r.Stream.Ring.Submit(sl, wait, signal)
}

// DrawRefresh records draw over the whole of t (a display refresh: the blend of two pictures
// DrawPicture made), the overlay over it, and submits; with readback, t's picture is copied back
// for readback.RGBA once the submission completes.
func (r *Renderer) DrawRefresh(t Target, draw func(cb vk.CommandBuffer, t ycbcr.Target) error, readback *gpu.Offscreen) error {
	sl, err := r.Stream.Ring.Next()
	if err != nil {
		return err
	}
	w, h := t.begin(sl.CB)
	gpu.SetViewport(sl.CB, 0, 0, w, h)
	err = draw(sl.CB, t)
	if err == nil {
		err = r.overlay(sl.CB, sl.Index, t, w, h)
	}
	t.end(sl.CB)
	if err != nil {
		vk.EndCommandBuffer(sl.CB)
		return err
	}
	if readback != nil {
		readback.RecordReadback(sl.CB)
	}
	wait, signal := t.semaphores()
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
	r.diffs.destroy()
	r.icc.destroy()
}
