package stream

import (
	"fmt"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/gpu"
	"github.com/ycbcrkit/ycbcrkit/ycbcr"
)

// scaled is one slot's scale pass: the picture converted at its own size (flat: the drawn
// variant's; the compute variant converts into its storage image already) and the scale target.
type scaled struct {
	flat    *gpu.Offscreen
	texFlat *texture // the flat picture of a stream with textures (TextureKit.flat)
	target  *ycbcr.ScaleTarget
}

func (s *scaled) destroy() {
	if s.texFlat != nil {
		s.texFlat.destroy()
	}
	if s.target != nil {
		s.target.Destroy()
	}
	if s.flat != nil {
		s.flat.Destroy()
	}
}

// Scale records, after Load and Convert and outside a render pass, the conversion at the picture's
// size (drawn into the slot's picture image, for the drawn variant) and the scale pass's filtering
// for view v (compute); Draw then draws its result onto the target. A view that is Exact needs no
// scale pass: Scale records nothing and Draw draws the conversion as before, at no extra cost.
// Comparisons (both paths) are not scaled. The plan's Scale says what it did.
func (f *Frame) Scale(v ycbcr.ScaleView) error {
	_, err := f.ScaleInto(v, nil, 0, 0, "no storage target given")
	return err
}

// ScaleInto is Scale, but where dst is not nil (a target compute shaders can write:
// ycbcr.StorageTarget) the whole pass is recorded in compute, written straight into dst with its
// viewport at (x, y) and the rest of dst cleared (ycbcr.ScaleTarget.RecordInto): no fragment shader
// runs, Draw draws nothing, and dst is left in GENERAL for a pass that loads it
// (gpu.Device.NewLoadPass). into says whether it did so; when it did not (dst nil, or the view
// Exact) the frame is drawn as after Scale. noStorage says why dst is nil, for the plan's Scale.
func (f *Frame) ScaleInto(v ycbcr.ScaleView, dst *ycbcr.StorageTarget, x, y int, noStorage string) (into bool, err error) {
	into, err = f.scale(v, dst, x, y, false)
	if err == nil {
		f.s.plan.Scale = scaleStep(v, into, noStorage)
	}
	return into, err
}

// ScaleAll is ScaleInto for a target only compute writes (an engine's image, for which the toolkit
// has no render pass): an Exact view goes through the pass too, its weights then each pixel's own
// (ycbcr.ScaleView's table: weight 1 at 1:1 on whole pixels), so dst is always written.
func (f *Frame) ScaleAll(v ycbcr.ScaleView, dst ycbcr.StorageTarget, x, y int) error {
	if _, err := f.scale(v, &dst, x, y, true); err != nil {
		return err
	}
	f.s.plan.Scale = scaleStep(v, true, "")
	return nil
}

// scaleStep says what the scale pass did: the view, and whether its last step was written by
// compute into the target (into) or drawn, and why (noStorage).
func scaleStep(v ycbcr.ScaleView, into bool, noStorage string) string {
	dw, dh := v.DisplaySize()
	if v.Exact() {
		return fmt.Sprintf("none: %dx%d shown 1:1", v.SrcW, v.SrcH)
	}
	s := fmt.Sprintf("%s %dx%d→%dx%d", v.Filter, v.SrcW, v.SrcH, dw, dh)
	if v.StepX == 1 && v.StepY == 1 {
		s = fmt.Sprintf("none (1:1, turned): %dx%d", dw, dh)
	}
	if !v.Orient.Identity() {
		s += ", turned " + v.Orient.String()
	}
	if into {
		return s + "; written into the target by compute"
	}
	return s + "; drawn (fragment shader): " + noStorage
}

func (f *Frame) scale(v ycbcr.ScaleView, dst *ycbcr.StorageTarget, x, y int, all bool) (bool, error) {
	f.view, f.into = nil, false
	if v.Exact() && !all {
		return false, nil
	}
	if len(f.Picture.paths) != 1 {
		return false, fmt.Errorf("stream: scale: comparisons draw both paths unscaled")
	}
	if f.Placed() {
		return false, fmt.Errorf("stream: scale: the picture was converted into its place (Config.Into)")
	}
	s := f.s
	p := f.Picture
	if p.scaled == nil {
		p.scaled = &scaled{}
	}
	sc := p.scaled
	cb := f.Slot.CB
	var err error
	picture := vk.NullImageView
	if f.debanded != nil {
		picture = f.debanded.deband.View
	} else if f.compute != nil {
		picture = f.compute.view
	} else if p.tex != nil && p.tex.Path != formats.PathSampler {
		picture = p.tex.View // converted by the upload's DrawTexture
	} else if p.tex != nil {
		if sc.texFlat == nil {
			if sc.texFlat, err = s.textures.flat(p.cfg.Width, p.cfg.Height); err != nil {
				return false, fmt.Errorf("stream: scale: %w", err)
			}
		}
		t := sc.texFlat
		picture = t.View
		gpu.BeginPass(cb, t.rp, t.fb, t.width, t.height)
		gpu.SetViewport(cb, 0, 0, t.width, t.height)
		err := f.Bindings[p.plan.Path.Path].Draw(cb, t)
		vk.CmdEndRenderPass(cb)
		if err != nil {
			return false, err
		}
	} else {
		if sc.flat == nil {
			if sc.flat, err = s.Dev.NewSampledOffscreen(p.cfg.Width, p.cfg.Height); err != nil {
				return false, fmt.Errorf("stream: scale: %w", err)
			}
		}
		picture = sc.flat.View
		sc.flat.Begin(cb)
		err := f.Bindings[p.plan.Path.Path].Draw(cb, sc.flat)
		vk.CmdEndRenderPass(cb)
		if err != nil {
			return false, err
		}
	}
	if sc.target == nil || !sc.target.Fits(picture, v) {
		if s.scaler == nil {
			if s.scaler, err = ycbcr.NewScaler(s.Dev); err != nil {
				return false, fmt.Errorf("stream: %w", err)
			}
		}
		if old := sc.target; old != nil {
			f.Slot.Retire(old.Destroy) // this slot's earlier frames used it: its fence has passed, this one's will too
		}
		if sc.target, err = s.scaler.Bind(picture, v); err != nil {
			return false, fmt.Errorf("stream: %w", err)
		}
		sc.target.Dither = p.cfg.Params.Dither
	}
	if dst != nil {
		if err := sc.target.RecordInto(cb, v, *dst, x, y); err != nil {
			return false, err
		}
		f.view, f.scaled, f.into = &v, sc.target, true
		return true, nil
	}
	if err := sc.target.Record(cb, v); err != nil {
		return false, err
	}
	f.view, f.scaled = &v, sc.target
	return false, nil
}
