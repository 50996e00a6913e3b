package player

import (
	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/gpu"
	"github.com/ycbcrkit/ycbcrkit/internal/vkx"
	"github.com/ycbcrkit/ycbcrkit/stream"
	"github.com/ycbcrkit/ycbcrkit/ycbcr"
)

// A mode records a loaded frame's picture into the target: single (one path, scaled into the
// viewport), split (both paths side by side) or diff (their amplified difference). Renderer.mode
// picks one per frame from the compare mode in effect and the stream's paths.
type mode interface {
	// record begins t's render pass and records the picture; the caller then adds the overlay and
	// ends the pass. w×h is the target's size.
	record(fr *stream.Frame, f *Frame, t Target) (w, h int, err error)
}

// mode is the mode of the next frame.
func (r *Renderer) mode() mode {
	switch {
	case r.active == CompareDiff:
		return &r.diffs
	case len(r.Stream.Paths()) == 1:
		return single{r}
	}
	return split{r.Stream.Paths()}
}

// single is one path: the conversion at the picture's size, then the scale pass into the
// viewport (nothing when the picture is shown as it is), with the renderer's zoom, pan, turn and
// filter.
type single struct{ r *Renderer }

func (m single) record(fr *stream.Frame, f *Frame, t Target) (int, int, error) {
	r, pic, cb := m.r, f.Picture, fr.Slot.CB
	if err := fr.Convert(); err != nil { // the compute variant's dispatch, before the pass
		return 0, 0, err
	}
	tw, th := t.size()
	r.PanX, r.PanY = clampPan(pic.Width, pic.Height, r.Orient, r.Zoom, r.PanX, r.PanY, tw, th) // keys, drags and resizes alike
	x, y, vw, vh, v, visible := layout(pic.Width, pic.Height, f.aspect(), r.Orient, r.Zoom, r.PanX, r.PanY, tw, th, r.Filter)
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
		if into, err = fr.ScaleInto(v, dst, x, y, why); err != nil {
			return 0, 0, err
		}
	}
	if into {
		t.beginLoad(cb) // the compute pass wrote every pixel, the letterbox too
	} else {
		t.begin(cb)
	}
	if visible && !into {
		gpu.SetViewport(cb, x, y, vw, vh)
		if err := fr.Draw(t); err != nil {
			return 0, 0, err
		}
	}
	return tw, th, nil
}

// split draws each path into its half of the letterboxed picture, the sampler path left of the
// middle and the shader path right of it, with one viewport (the halves join seamlessly).
type split struct{ paths []formats.Path }

func (m split) record(fr *stream.Frame, f *Frame, t Target) (int, int, error) {
	if err := fr.Convert(); err != nil {
		return 0, 0, err
	}
	cb := fr.Slot.CB
	w, h := t.begin(cb)
	x, y, vw, vh := Letterbox(w, h, f.aspect())
	for i, path := range m.paths {
		sx, sw := x, vw
		if len(m.paths) == 2 {
			sw = vw / 2
			if i == 1 {
				sx, sw = x+vw/2, vw-vw/2
			}
		}
		vkx.SetViewport(cb, x, y, vw, vh, sx, y, sw, vh)
		if err := fr.Bindings[path].Draw(cb, t); err != nil {
			return 0, 0, err
		}
	}
	return w, h, nil
}

// diffs is the diff mode: each path into its own picture at the video's size, then their
// difference (|sampler − shader| × DiffGain) letterboxed into the target. Each slot has its own
// pictures, made for the stream's configuration (generation).
type diffs struct {
	pass       *ycbcr.Diff
	slots      []*diffTarget
	generation int
	paths      []formats.Path
}

// diffTarget is one slot's pictures of both paths at the video's size and the difference pass.
type diffTarget struct {
	pictures map[formats.Path]*gpu.Offscreen
	pass     *ycbcr.Binding
}

func (d *diffs) record(fr *stream.Frame, f *Frame, t Target) (int, int, error) {
	cb, s := fr.Slot.CB, d.slots[fr.Slot.Index]
	for _, path := range d.paths {
		o := s.pictures[path]
		gpu.BeginPass(cb, o.RenderPass, o.Framebuffer, o.Width, o.Height)
		gpu.SetViewport(cb, 0, 0, o.Width, o.Height)
		if err := fr.Bindings[path].Draw(cb, o); err != nil {
			return 0, 0, err
		}
		vk.CmdEndRenderPass(cb)
	}
	w, h := t.begin(cb)
	x, y, vw, vh := Letterbox(w, h, f.aspect())
	gpu.SetViewport(cb, x, y, vw, vh)
	return w, h, s.pass.Draw(cb, t)
}

// configure gives each slot its pictures for the stream's configuration of w×h (nothing when they
// are made for it already).
func (d *diffs) configure(dev *gpu.Device, st *stream.Stream, w, h int) error {
	if d.generation == st.Generation() && d.slots[0] != nil {
		return nil
	}
	d.retire(st)
	d.generation, d.paths = st.Generation(), st.Paths()
	for i := range d.slots {
		if err := d.configureSlot(dev, st, i, w, h); err != nil {
			return err
		}
	}
	return nil
}

// configureSlot gives slot i one picture per path at the video's size and the difference pass.
func (d *diffs) configureSlot(dev *gpu.Device, st *stream.Stream, i, w, h int) error {
	if d.pass == nil {
		p, err := ycbcr.NewDiff(dev)
		if err != nil {
			return err
		}
		d.pass = p
	}
	s := &diffTarget{pictures: map[formats.Path]*gpu.Offscreen{}}
	d.slots[i] = s
	for _, path := range st.Paths() {
		o, err := dev.NewSampledOffscreen(w, h)
		if err != nil {
			return err
		}
		s.pictures[path] = o
	}
	b, err := d.pass.Bind(s.pictures[formats.PathSampler].View, s.pictures[formats.PathShader].View, DiffGain)
	if err != nil {
		return err
	}
	s.pass = b
	return nil
}

// retire hands the pictures to the fence of the last frame that drew them.
func (d *diffs) retire(st *stream.Stream) {
	if d.slots[0] == nil {
		return
	}
	old := append([]*diffTarget(nil), d.slots...)
	clear(d.slots)
	st.Ring.RetireLast(func() {
		for _, s := range old {
			if s != nil {
				s.destroy()
			}
		}
	})
}

// live counts the Vulkan objects the pictures hold.
func (d *diffs) live() int {
	n := 0
	for _, s := range d.slots {
		if s != nil {
			n += len(s.pictures)
			if s.pass != nil {
				n++
			}
		}
	}
	return n
}

// destroy frees everything (after the frames that drew it).
func (d *diffs) destroy() {
	for i, s := range d.slots {
		if s != nil {
			s.destroy()
			d.slots[i] = nil
		}
	}
	if d.pass != nil {
		d.pass.Destroy()
	}
}

func (s *diffTarget) destroy() {
	if s.pass != nil {
		s.pass.Destroy()
	}
	for _, o := range s.pictures {
		o.Destroy()
	}
}
