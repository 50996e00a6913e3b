package subtitle

import (
	"image"
	"time"

	"github.com/ycbcrkit/ycbcrkit/internal/ass"
	"github.com/ycbcrkit/ycbcrkit/internal/avx"
)

// track is a Track with its events: a libass track for text formats, timed bitmaps for the others.
type track struct {
	Track
	err    error      // why the track shows nothing (no decoder)
	text   *ass.Track // nil for bitmap tracks, and without libass
	events []bitmapEvent
	// The bitmap decoder's canvas (the codec context's size): bitmaps are placed on it.
	canvasW, canvasH int
}

// startText makes the libass track that the decoder's events go into, with its header (FFmpeg's
// subtitle_header: the ASS file's own for ASS/SSA, a default style for the formats it converts).
func (t *track) startText(lib *ass.Lib, header []byte) {
	if lib == nil {
		return
	}
	tr, err := lib.NewTrack()
	if err != nil {
		t.err = err
		return
	}
	tr.ProcessHeader(header)
	t.text = tr
}

// add files one decoded subtitle: its text events into the libass track, its bitmaps as an event.
func (t *track) add(sub *avx.Subtitle, start float64, dur time.Duration, canvasW, canvasH int) {
	if t.Image {
		t.addBitmap(sub, start, dur, canvasW, canvasH)
		return
	}
	if t.text == nil {
		return
	}
	for _, r := range sub.Rects {
		if r.ASS != "" {
			t.text.ProcessChunk([]byte(r.ASS), seconds(start), dur)
		}
	}
}

func (t *track) close() {
	if t.text != nil {
		t.text.Close()
		t.text = nil
	}
}

// renderText renders libass's images of time now, laid out for l; changed is libass's word that they
// differ from its last frame's.
func renderText(r *ass.Renderer, t *ass.Track, now float64, l Layout, scale float64, scratch []ass.Image) (imgs []ass.Image, changed bool) {
	v := l.Video
	r.SetFrame(l.W, l.H, v.Min.Y, l.H-v.Max.Y, v.Min.X, l.W-v.Max.X)
	r.SetStorageSize(v.Dx(), v.Dy())
	r.SetFontScale(scale)
	imgs, ch := r.Render(t, seconds(now), scratch)
	return imgs, ch != ass.Same
}

// composite draws libass's images into one premultiplied image covering them within the w×h
// output (nil when nothing shows).
func composite(imgs []ass.Image, w, h int) *image.RGBA {
	var box image.Rectangle
	for _, im := range imgs {
		box = box.Union(image.Rect(im.X, im.Y, im.X+im.W, im.Y+im.H))
	}
	box = box.Intersect(image.Rect(0, 0, w, h))
	if box.Empty() {
		return nil
	}
	dst := image.NewRGBA(box)
	for _, im := range imgs {
		blendMask(dst, im)
	}
	return dst
}

// blendMask draws one libass image (a coverage mask in one colour) over dst, premultiplied:
// out = colour·a + out·(1 − a), a = coverage · the colour's alpha.
func blendMask(dst *image.RGBA, im ass.Image) {
	r := image.Rect(im.X, im.Y, im.X+im.W, im.Y+im.H).Intersect(dst.Rect)
	ca := uint32(im.A)
	cr, cg, cb := uint32(im.R), uint32(im.G), uint32(im.B)
	for y := r.Min.Y; y < r.Max.Y; y++ {
		src := im.Bitmap[(y-im.Y)*im.Stride:]
		row := dst.Pix[dst.PixOffset(r.Min.X, y):]
		for x := r.Min.X; x < r.Max.X; x++ {
			m := uint32(src[x-im.X])
			if m == 0 {
				continue
			}
			a := (m*ca + 127) / 255
			p := row[4*(x-r.Min.X):]
			p[0] = uint8((cr*a + uint32(p[0])*(255-a) + 127) / 255)
			p[1] = uint8((cg*a + uint32(p[1])*(255-a) + 127) / 255)
			p[2] = uint8((cb*a + uint32(p[2])*(255-a) + 127) / 255)
			p[3] = uint8((255*a + uint32(p[3])*(255-a) + 127) / 255)
		}
	}
}
