package stream

import (
	"fmt"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/gpu"
	"github.com/ycbcrkit/ycbcrkit/ycbcr"
)

// The picture-quality passes a configuration may add to the frame's way (issue 27):
//   - HDR peak detection (Config.Peak): for PQ pictures on the shader path, Convert records the
//     peak pass over the uploaded planes (ycbcr.PeakBinding); the next frame begun on the same
//     picture (after the fence of the frame that measured: a picture is taken only then) reads what
//     it measured, smooths it (ycbcr.PeakFilter) and gives the picture's conversion the tone
//     constants of the detected peak (ycbcr.Params.WithPeak). A measurement steers the frames begun
//     after its fence: with two pictures, two frames later.
//   - Debanding (Config.Deband) of 8-bit sources: Convert converts the picture at its own size (the
//     compute variant's storage image, or drawn into an image of the slot) and debands it into an
//     rgba32f image, which the scale pass reads instead of the converted picture, or which Draw
//     draws onto the target, dithered, when the view needs no scale pass.
// Comparisons (both paths) run without them. Hardware-decoded frames (LoadForeign) are debanded
// on every route (in place with the compute variant, the conversion is in the slot's Pre batch and
// the debanding after it in the frame's own) and measured (in place, the picture's peak binding is
// pointed at the decoder's image for the frame: PeakBinding.Rebind).

// quality is one slot's picture-quality passes.
type quality struct {
	peak     *ycbcr.PeakBinding
	measured bool // the peak pass was recorded into the slot's last submission
	flat     *gpu.Offscreen
	deband   *ycbcr.DebandTarget
	blit     *ycbcr.Binding // draws the debanded picture onto a target
}

func (q *quality) destroy() {
	if q.blit != nil {
		q.blit.Destroy()
	}
	if q.deband != nil {
		q.deband.Destroy()
	}
	if q.flat != nil {
		q.flat.Destroy()
	}
	if q.peak != nil {
		q.peak.Destroy()
	}
}

// PeakOn says whether configuration c measures its pictures' peak: asked for, a PQ stream, tone
// mapped on the shader path, one path.
func (c Config) peakOn(path formats.Path, paths int) bool {
	return c.Peak && paths == 1 && path == formats.PathShader && c.Params.Transfer.Kind() == formats.TransferPQ &&
		c.Params.Tone != ycbcr.ToneOff && c.Params.Output == ycbcr.OutputSDR
}

// debandOn says whether configuration c debands: asked for, an 8-bit source, one path.
func (c Config) debandOn(paths int) bool {
	return c.Deband.Iterations > 0 && c.Format.Depth == 8 && paths == 1
}

// makeQuality makes picture p's quality passes for its configuration (Picture.make, after the
// images and bindings).
func (s *Stream) makeQuality(p *Picture) error {
	c := p.cfg
	peak, deband := c.peakOn(p.plan.Path.Path, len(p.paths)), c.debandOn(len(p.paths))
	if !peak && !deband {
		return nil
	}
	q := &quality{}
	p.quality = q
	var err error
	if peak {
		if q.peak, err = s.Conv.Shader.BindPeak(p.img, c.Params); err != nil {
			return fmt.Errorf("stream: peak detection: %w", err)
		}
	}
	if !deband {
		return nil
	}
	if s.debander == nil {
		if s.debander, err = ycbcr.NewDebander(s.Dev); err != nil {
			return fmt.Errorf("stream: %w", err)
		}
	}
	picture := vk.NullImageView
	if p.compute != nil {
		picture = p.compute.view
	} else {
		if q.flat, err = s.Dev.NewSampledOffscreen(c.Width, c.Height); err != nil {
			return fmt.Errorf("stream: deband: %w", err)
		}
		picture = q.flat.View
	}
	if q.deband, err = s.debander.Bind(picture, c.Width, c.Height); err != nil {
		return fmt.Errorf("stream: %w", err)
	}
	if s.blit == nil {
		if s.blit, err = ycbcr.NewBlit(s.Dev); err != nil {
			return fmt.Errorf("stream: deband: %w", err)
		}
	}
	if q.blit, err = s.blit.Bind(q.deband.View); err != nil {
		return fmt.Errorf("stream: deband: %w", err)
	}
	return nil
}

// collectPeak takes picture p's measurement, once the fence of the frame that made it has signalled
// (a frame begins on p only then), into the smoothed peak, and gives p's conversion that peak's
// tone constants.
func (s *Stream) collectPeak(p *Picture) error {
	q := p.quality
	if q == nil || q.peak == nil {
		return nil
	}
	if q.measured {
		s.peak = s.peakFilter.Update(q.peak.Result())
		q.measured = false
	}
	if s.peak <= 0 {
		return nil
	}
	c, err := p.cfg.Params.WithPeak(s.peak).ShaderFor(p.img)
	if err != nil {
		return err
	}
	if err := p.bindings[formats.PathShader].SetConstants(c); err != nil {
		return err
	}
	if p.compute != nil {
		return p.compute.compute.SetConstants(c)
	}
	return nil
}

// Peak is the detected peak in cd/m² the stream's tone mapping uses now (0: none yet, or peak
// detection is off for the configuration).
func (s *Stream) Peak() float64 { return s.peak }

// recordPeak records, in Convert, before the conversion, the peak pass over the frame's picture on
// cb: the slot's command buffer, or its Pre one where the in-place conversion goes there (the
// decoder's image is read only before that batch signals its semaphore).
func (f *Frame) recordPeak(cb vk.CommandBuffer) error {
	q, c := f.Picture.quality, f.Picture.cfg
	if q == nil || q.peak == nil {
		return nil
	}
	// The frame's picture: the picture's image, or a hardware decoder's sampled in place (whose
	// reading barrier LoadForeign recorded for compute too). A picture whose layout converts
	// otherwise than the picture's is not measured (the tone mapping keeps the last peak).
	if err := q.peak.Rebind(f.Image, c.Params); err != nil {
		return nil
	}
	if err := q.peak.Record(cb, c.Width, c.Height); err != nil {
		return err
	}
	q.measured = true
	return nil
}

// recordDeband records, in Convert, after the conversion, the debanding of the converted picture
// in the slot's command buffer.
func (f *Frame) recordDeband() error {
	p := f.Picture
	q, c, cb := p.quality, p.cfg, f.Slot.CB
	if q == nil || q.deband == nil {
		return nil
	}
	if q.flat != nil { // the drawn variant: the conversion at the picture's size first
		q.flat.Begin(cb)
		err := f.Bindings[p.plan.Path.Path].Draw(cb, q.flat)
		vk.CmdEndRenderPass(cb)
		if err != nil {
			return err
		}
	}
	if err := q.deband.Record(cb, c.Deband); err != nil {
		return err
	}
	f.debanded = q
	return nil
}
