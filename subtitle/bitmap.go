package subtitle

import (
	"image"
	"math"
	"sort"
	"time"

	"golang.org/x/image/draw"

	"github.com/ycbcrkit/ycbcrkit/internal/avx"
)

// bitmapEvent is one bitmap subtitle: its pictures on the decoder's canvas, shown from start until
// end (seconds; +Inf: until the next event, as PGS and DVB clear or replace what shows).
type bitmapEvent struct {
	start, end float64
	rects      []bitmapRect
	canvasW    int
	canvasH    int
}

type bitmapRect struct {
	at  image.Point
	img *image.RGBA // premultiplied
}

// addBitmap files a decoded bitmap subtitle (an empty one clears the screen).
func (t *track) addBitmap(sub *avx.Subtitle, start float64, dur time.Duration, canvasW, canvasH int) {
	ev := bitmapEvent{start: start, end: math.Inf(1), canvasW: canvasW, canvasH: canvasH}
	if sub.End > 0 {
		ev.end = start + dur.Seconds()
	}
	for _, r := range sub.Rects {
		if r.Index == nil {
			continue
		}
		ev.rects = append(ev.rects, bitmapRect{at: image.Pt(r.X, r.Y), img: paletted(r)})
	}
	// Events arrive in order; a seek's re-read or an interleaved file may not: keep them sorted.
	i := sort.Search(len(t.events), func(i int) bool { return t.events[i].start > start })
	t.events = append(t.events, bitmapEvent{})
	copy(t.events[i+1:], t.events[i:])
	t.events[i] = ev
}

// paletted turns palette indices into premultiplied RGBA (FFmpeg's palette is 0xAARRGGBB, straight).
func paletted(r avx.SubtitleRect) *image.RGBA {
	var pal [256][4]uint8
	for i, c := range r.Palette {
		a := c >> 24
		pal[i] = [4]uint8{uint8((c>>16&0xff*a + 127) / 255), uint8((c>>8&0xff*a + 127) / 255), uint8((c&0xff*a + 127) / 255), uint8(a)}
	}
	img := image.NewRGBA(image.Rect(0, 0, r.W, r.H))
	for i, ix := range r.Index {
		copy(img.Pix[4*i:4*i+4], pal[ix][:])
	}
	return img
}

// active is the event showing at now, or nil.
func (t *track) active(now float64) *bitmapEvent {
	i := sort.Search(len(t.events), func(i int) bool { return t.events[i].start > now }) - 1
	if i < 0 {
		return nil
	}
	ev := &t.events[i]
	end := ev.end
	if i+1 < len(t.events) {
		end = math.Min(end, t.events[i+1].start)
	}
	if now >= end || len(ev.rects) == 0 {
		return nil
	}
	return ev
}

// renderBitmap scales ev's canvas onto the picture's place in the output (bilinear, as a GPU's
// sampler would): one premultiplied image covering what its pictures cover.
func renderBitmap(ev *bitmapEvent, l Layout) *image.RGBA {
	cw, ch := ev.canvasW, ev.canvasH
	v := l.Video
	if cw <= 0 || ch <= 0 { // no canvas size from the decoder: the picture's
		cw, ch = v.Dx(), v.Dy()
	}
	sx, sy := float64(v.Dx())/float64(cw), float64(v.Dy())/float64(ch)
	var box image.Rectangle
	dst := make([]image.Rectangle, len(ev.rects))
	for i, r := range ev.rects {
		b := r.img.Rect
		dst[i] = image.Rect(v.Min.X+int(math.Floor(float64(r.at.X)*sx)), v.Min.Y+int(math.Floor(float64(r.at.Y)*sy)),
			v.Min.X+int(math.Ceil(float64(r.at.X+b.Dx())*sx)), v.Min.Y+int(math.Ceil(float64(r.at.Y+b.Dy())*sy)))
		box = box.Union(dst[i])
	}
	box = box.Intersect(image.Rect(0, 0, l.W, l.H))
	if box.Empty() {
		return nil
	}
	out := image.NewRGBA(box)
	for i, r := range ev.rects {
		draw.ApproxBiLinear.Scale(out, dst[i], r.img, r.img.Rect, draw.Over, nil)
	}
	return out
}
