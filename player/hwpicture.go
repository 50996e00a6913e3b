package player

import (
	"fmt"
	"image"
	"slices"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/gpu"
	"github.com/ycbcrkit/ycbcrkit/stream"
	"github.com/ycbcrkit/ycbcrkit/ycbcr"
)

// Picture draws a hardware-decoded picture (hw: FFmpeg's image; f its format and size, no planes)
// again through path, at the video's size and turned by v (nothing to turn when v is Exact), and
// reads it back: the screenshot and the compare figures of a frame whose planes are not on the CPU.
// It takes the route the frames are drawn through (HWRoute: in place, or the GPU copy) on one of the
// stream's slots, so the picture is the one the player shows, not a download's. path must be one
// of the stream's paths (both in the compare modes). It is drawn with p's dither, on the stream's
// configuration as it is (whose dither may be another).
func (r *Renderer) Picture(f *formats.Frame, hw stream.Foreign, p ycbcr.Params, path formats.Path, v ycbcr.ScaleView) (*image.RGBA, error) {
	dither := p.Dither
	if r.format != nil {
		p.Dither = r.params.Dither // not a new configuration for the screenshot's dither alone
	}
	if err := r.configure(f, p); err != nil {
		return nil, err
	}
	if !slices.Contains(r.Stream.Paths(), path) {
		return nil, fmt.Errorf("player: picture through the %s path: the stream draws through %v", path, r.Stream.Paths())
	}
	var made []interface{ Destroy() }
	defer func() { // after Drain below, or before anything was submitted
		for i := len(made) - 1; i >= 0; i-- {
			made[i].Destroy()
		}
	}()
	dw, dh := f.Width, f.Height
	if !v.Exact() {
		dw, dh = v.DisplaySize()
	}
	target, err := r.Dev.NewOffscreen(dw, dh)
	if err != nil {
		return nil, err
	}
	made = append(made, target)
	var flat *gpu.Offscreen
	var scaled *ycbcr.ScaleTarget
	// Debanded as the stream shows it: the picture converted at its size, then ycbcr.Debanded.
	deband := r.Deband.Iterations > 0 && f.Format.Depth == 8 && len(r.Stream.Paths()) == 1
	if deband {
		if flat, err = r.Dev.NewSampledOffscreen(f.Width, f.Height); err != nil {
			return nil, err
		}
		made = append(made, flat)
	} else if !v.Exact() {
		if flat, err = r.Dev.NewSampledOffscreen(f.Width, f.Height); err != nil {
			return nil, err
		}
		made = append(made, flat)
		sc, err := ycbcr.NewScaler(r.Dev)
		if err != nil {
			return nil, err
		}
		made = append(made, sc)
		if scaled, err = sc.Bind(flat.View, v); err != nil {
			return nil, err
		}
		made = append(made, scaled)
		scaled.Dither = dither
	}
	fr, err := r.Stream.Begin()
	if err != nil {
		return nil, err
	}
	if _, _, err := fr.LoadForeign(hw, nil); err != nil {
		return nil, err
	}
	cb := fr.Slot.CB
	b := fr.Bindings[path]
	if deband {
		flat.Begin(cb)
		err = b.DrawWith(cb, flat, dither)
		vk.CmdEndRenderPass(cb)
	} else if scaled == nil {
		target.Begin(cb)
		err = b.DrawWith(cb, target, dither)
		target.End(cb)
	} else {
		flat.Begin(cb)
		err = b.DrawWith(cb, flat, dither)
		vk.CmdEndRenderPass(cb)
		if err == nil {
			err = scaled.Record(cb, v)
		}
		if err == nil {
			target.Begin(cb)
			err = scaled.Draw(cb, target, v)
			target.End(cb)
		}
	}
	if err != nil {
		return nil, err // the stream unlocks the frame it was not submitted with at its next Begin
	}
	if err := fr.Submit(vk.NullSemaphore, vk.NullSemaphore); err != nil {
		return nil, err
	}
	if err := r.Stream.Ring.Drain(); err != nil {
		return nil, err
	}
	if deband {
		return ycbcr.Debanded(r.Dev, flat.View, f.Width, f.Height, r.Deband, dither, v)
	}
	return target.RGBA(), nil
}
