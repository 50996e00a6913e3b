package wall

// Drawing a picture into its tile: configuring its stream, loading and converting the picture, and
// placing it on the canvas.

import (
	"fmt"
	"image"
	"os"
	"time"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/decode"
	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/planes"
	"github.com/ycbcrkit/ycbcrkit/stream"
	"github.com/ycbcrkit/ycbcrkit/ycbcr"
)

// draw converts f into t's tile and submits it; f is released once the GPU is done with it. src, if
// not nil, is f's hardware frame already under its lock (tile.hold).
func (w *Wall) draw(t *tile, f *decode.Frame, src stream.Foreign) error {
	w.phases.lap(phaseRecord, phaseBegin)
	abandon := func() {
		if h, ok := src.(*stream.Held); ok {
			h.Abandon()
		}
	}
	if err := w.configure(t, f); err != nil {
		abandon()
		f.Release()
		return err
	}
	if f.HW != nil && t.st.Replays() {
		// Its frame's commands as recorded for an earlier picture of the same decoder image.
		if src == nil {
			src = f.HW.Foreign()
		}
		w.phases.lap(phaseBegin, phaseLock)
		rest, err := t.st.Replay(timedLock{src, &w.phases}, f.Release)
		if err != nil {
			w.phases.lap(phaseLoad, phaseRecord)
			return fmt.Errorf("wall: %s: %w", t.in.Label, err)
		}
		if rest == nil {
			w.phases.lap(phaseLoad, phaseRecord)
			w.shown(t, f)
			return nil
		}
		src = rest // under its lock: the usual frame takes it over
		w.phases.lap(phaseLoad, phaseBegin)
	}
	fr, err := t.st.Begin()
	if err != nil {
		abandon()
		f.Release()
		return fmt.Errorf("wall: %s: %w", t.in.Label, err)
	}
	if f.HW != nil {
		if src == nil {
			src = f.HW.Foreign()
		}
		w.phases.lap(phaseBegin, phaseLock) // until LoadForeign has the frame's lock (timedLock)
		_, _, err = fr.LoadForeign(timedLock{src, &w.phases}, f.Release)
	} else {
		w.phases.lap(phaseBegin, phaseLoad)
		_, err = fr.Load(f.Picture, f.Release)
	}
	w.phases.lap(phaseLoad, phaseConvert)
	if err == nil {
		err = fr.Convert()
	}
	w.phases.lap(phaseConvert, phasePlace)
	if err != nil {
		return fmt.Errorf("wall: %s: %w", t.in.Label, err)
	}
	if err := w.place(fr, t.rect, f.Picture.Width, f.Picture.Height); err != nil {
		return fmt.Errorf("wall: %s: %w", t.in.Label, err)
	}
	w.phases.lap(phasePlace, phaseSubmit)
	if err := fr.Submit(vk.NullSemaphore, vk.NullSemaphore); err != nil {
		return fmt.Errorf("wall: %s: %w", t.in.Label, err)
	}
	w.phases.lap(phaseSubmit, phaseRecord)
	w.shown(t, f)
	return nil
}

// shown counts f, drawn into t's tile.
func (w *Wall) shown(t *tile, f *decode.Frame) {
	now := time.Now()
	if t.shown == 0 {
		t.first = now
	}
	t.lastPTS = f.PTS
	t.shown++
	t.last = now
}

// timedLock is a foreign frame whose Lock ends the step's lock phase: the wait for FFmpeg's frame
// lock, which a decoder holds from recording a decoding that uses the frame until that submission
// returns (libavutil/vulkan.c: ff_vk_exec_add_dep_frame to ff_vk_exec_submit).
type timedLock struct {
	stream.Foreign
	phases *phases
}

func (l timedLock) Lock() (planes.ForeignState, error) {
	st, err := l.Foreign.Lock()
	l.phases.lap(phaseLock, phaseLoad)
	return st, err
}

// configure makes t's stream ready for f's pictures (its conversion's pipelines on the first).
func (w *Wall) configure(t *tile, f *decode.Frame) error {
	h := t.dec.HW()
	cfg := stream.Config{Format: f.Picture.Format, Width: f.Picture.Width, Height: f.Picture.Height,
		Params: ycbcr.FromColor(f.Color), Choice: w.opts.Choice, Variant: w.opts.Variant, Route: w.opts.Route,
		Decode: stream.Decode{Decoder: h.Decoder, HW: h.Active, Reason: h.Reason}}
	// A size change mid-stream moves the picture in its cell (what it held before stays around it).
	t.rect = w.rectFor(w.index(t), f.Picture.Width, f.Picture.Height)
	t.fitted = t.rect.Dx() != f.Picture.Width || t.rect.Dy() != f.Picture.Height
	if !t.fitted { // the compute variant writes the picture into its tile, with no image of its own
		cfg.Into = stream.Into{View: w.canvas.View, X: t.rect.Min.X, Y: t.rect.Min.Y}
	}
	changed, err := t.st.Configure(cfg)
	if err == nil && changed {
		err = w.queue(t)
	}
	if err != nil {
		return fmt.Errorf("wall: %s: %w", t.in.Label, err)
	}
	return nil
}

// Prepare waits, at most timeout, for each stream's first picture and configures its stream for it
// before the first timed step: a stream's first configuration makes its conversion (pipelines,
// images), tens of milliseconds on a device without a pipeline cache, and made in a step it
// delays that step for every stream already playing (the H200's 16-stream walls: 2 late steps of
// 64 ms at the start, 0.16 % of the pictures dropped, each). A stream whose first picture has not
// come by then is configured in the step that shows it.
func (w *Wall) Prepare(timeout time.Duration) error {
	end := time.Now().Add(timeout)
	for _, t := range w.tiles {
		for !t.ended && !t.late && t.next == nil && time.Now().Before(end) { // a late input joins later
			ok, err := w.poll(t)
			if err != nil {
				return err
			}
			if !ok {
				time.Sleep(time.Millisecond)
			}
		}
		if t.next != nil {
			if err := w.configure(t, t.next); err != nil {
				return err
			}
			if err := t.st.PrepareAll(); err != nil {
				return fmt.Errorf("wall: %s: %w", t.in.Label, err)
			}
		}
	}
	if os.Getenv("YCBCRKIT_WARMUP") != "0" {
		if soon := time.Now().Add(warmAtMost); soon.Before(end) {
			end = soon
		}
		return w.warm(end)
	}
	return nil
}

// warmAtMost bounds warm: a live feed's next pictures come at its own rate (three at 25 fps:
// 120 ms), and a stalled one is not waited for.
const warmAtMost = time.Second

// warm waits, until end, for each stream's decoder to run ahead by what the running wall holds of
// it besides its queue: a picture in each slot of its ring, and one more (taken into t.ahead, and
// shown in order). FFmpeg's Vulkan frames pool grows only when a decoding finds no free frame, and
// growing it makes an image, its memory and its first layout transition, submitted and waited for,
// under the pool's mutex (libavutil/hwcontext_vulkan.c, vulkan_pool_alloc); with 64 decoders on
// one device those allocations, left to the first steps, took their load phase to 70-100 ms (row
// release38: every late step of a timed 64-stream wall in its first 0.4 s). Warmed, the pools
// hold that much before the clocks start, and the steps find every frame they need.
func (w *Wall) warm(end time.Time) error {
	for {
		waiting := false
		for _, t := range w.tiles {
			if t.ended || t.late || t.next == nil || len(t.ahead) > t.st.Ring.Len() ||
				len(t.ahead) > 0 && t.ahead[len(t.ahead)-1].Err != nil { // the end: nothing follows
				continue
			}
			if it, ok := t.pump.Poll(); ok {
				t.ahead = append(t.ahead, it)
			}
			waiting = true
		}
		if !waiting || !time.Now().Before(end) {
			break
		}
		time.Sleep(time.Millisecond)
	}
	// The frames the first steps will replay, recorded now for the pictures held (stream.Replay).
	for _, t := range w.tiles {
		if t.next == nil || t.next.HW == nil {
			continue
		}
		fs := []*decode.Frame{t.next}
		for _, it := range t.ahead {
			fs = append(fs, it.Frame)
		}
		p := t.next.Picture
		for _, f := range fs {
			// The configuration is t.next's: a picture of another size or format is another's.
			if f != nil && f.HW != nil && f.Picture.Width == p.Width && f.Picture.Height == p.Height && f.Picture.Format == p.Format {
				if err := t.st.Prerecord(f.HW.Foreign()); err != nil {
					return fmt.Errorf("wall: %s: %w", t.in.Label, err)
				}
			}
		}
	}
	return nil
}

// queue puts t, newly configured, on its queue: tiles that are computed into the canvas (the compute
// variant) write only their own rectangle, so the streams spread over the device's queues (stream i
// on queue i mod n: gpu.Options.Queues) and run side by side; a drawn tile's pass takes the whole
// canvas to the attachment's layout and back, which would race other queues' copies, so once a
// stream draws, every stream submits on the first queue.
func (w *Wall) queue(t *tile) error {
	qs := w.dev.Queues
	if len(qs) < 2 {
		return nil
	}
	if !w.drawn && !t.fitted && t.st.Plan().Variant.Variant == stream.VariantCompute {
		return t.st.Ring.SetQueue(qs[w.index(t)%len(qs)])
	}
	w.drawn = true
	for _, u := range w.tiles {
		if err := u.st.Ring.SetQueue(nil); err != nil {
			return err
		}
	}
	return nil
}

// Queues is how many of the device's queues the streams submit on.
func (w *Wall) Queues() int {
	if w.drawn {
		return 1
	}
	return min(len(w.dev.Queues), len(w.tiles))
}

// rectFor is where the i-th tile's w×h picture goes on the canvas: fitted to its cell, or one pixel
// for one pixel (Options.OneToOne).
func (w *Wall) rectFor(i, pw, ph int) image.Rectangle {
	if w.opts.OneToOne {
		return w.Layout.Place(i, pw, ph)
	}
	return w.Layout.Fit(i, pw, ph)
}

// place records the frame's w×h picture into r of the canvas: nothing where the compute variant
// converted it there already (stream.Frame.Placed, r the picture's size), else drawn, through the
// scale pass (stream.Frame.Scale, the player's filtered scaler) where r is not the picture's size.
func (w *Wall) place(fr *stream.Frame, r image.Rectangle, pw, ph int) error {
	if fr.Placed() {
		return nil
	}
	cb := fr.Slot.CB
	exact := r.Dx() == pw && r.Dy() == ph
	if !exact {
		if err := fr.Scale(ycbcr.Fit(pw, ph, r.Dx(), r.Dy(), formats.Orientation{}, w.opts.Filter)); err != nil {
			return err
		}
	}
	w.canvas.BeginArea(cb, r)
	err := fr.Draw(w.canvas)
	vk.CmdEndRenderPass(cb)
	return err
}
