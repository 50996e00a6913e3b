package subtitle

import (
	"image"
	"image/color"
	"strings"
	"testing"
	"time"

	"github.com/ycbcrkit/ycbcrkit/internal/ass"
	"github.com/ycbcrkit/ycbcrkit/internal/avx"
	"github.com/ycbcrkit/ycbcrkit/internal/testkit/subtest"
)

var full = Layout{W: 640, H: 480, Video: image.Rect(0, 0, 640, 480)}

// covered is the bounding box of an overlay's pixels with alpha ≥ 128, and how many are red.
func covered(img *image.RGBA) (box image.Rectangle, red, n int) {
	for y := img.Rect.Min.Y; y < img.Rect.Max.Y; y++ {
		for x := img.Rect.Min.X; x < img.Rect.Max.X; x++ {
			p := img.RGBAAt(x, y)
			if p.A >= 128 {
				box = box.Union(image.Rect(x, y, x+1, y+1))
				n++
				if p.R > 200 && p.G < 40 && p.B < 40 {
					red++
				}
			}
		}
	}
	return box, red, n
}

// withTracks is a Subtitles of the given tracks (no files), with libass, showing track 1.
func withTracks(t *testing.T, tracks ...*track) *Subtitles {
	t.Helper()
	s := &Subtitles{scale: 1, sid: 1}
	var err error
	if s.lib, err = ass.New(); err == nil {
		s.rend, err = s.lib.NewRenderer("sans-serif")
	}
	if err != nil {
		t.Fatal(err)
	}
	for i, tr := range tracks {
		tr.ID = i + 1
		s.tracks = append(s.tracks, tr)
	}
	t.Cleanup(s.Close)
	return s
}

// block is a W×H rect of palette index 1 at (x, y), in FFmpeg's form.
func block(x, y, w, h int, argb uint32) avx.SubtitleRect {
	r := avx.SubtitleRect{X: x, Y: y, W: w, H: h, Index: make([]byte, w*h), Palette: []uint32{0, argb}}
	for i := range r.Index {
		r.Index[i] = 1
	}
	return r
}

// Bitmap events as FFmpeg's decoders give them: a DVD-like one with its own end, a PGS-like one
// until the next, and an empty one that clears. Each shows from its start to its end or the next's
// start, scaled from the 320×240 canvas onto a 640×480 picture.
func TestBitmapEvents(t *testing.T) {
	tr := &track{Track: Track{Image: true, Codec: "dvd_subtitle"}}
	tr.add(&avx.Subtitle{End: time.Second, Rects: []avx.SubtitleRect{block(100, 150, 64, 32, 0xffffff00)}}, 0.5, time.Second, 320, 240)
	// Out of order: the clear first, then the event it ends.
	tr.add(&avx.Subtitle{}, 2.5, 0, 320, 240)
	tr.add(&avx.Subtitle{Rects: []avx.SubtitleRect{block(10, 20, 8, 8, 0x80ffffff)}}, 2, 0, 320, 240)
	s := withTracks(t, tr)
	for _, c := range []struct {
		at   float64
		show bool
	}{{0.49, false}, {0.5, true}, {1.49, true}, {1.5, false}, {1.99, false}, {2, true}, {2.49, true}, {2.5, false}, {9, false}} {
		if o := s.Render(c.at, full); (o != nil) != c.show {
			t.Errorf("at %.2f s: shown %v, want %v", c.at, o != nil, c.show)
		}
	}
	o := s.Render(1, full)
	if o.Image.Rect != image.Rect(200, 300, 328, 364) {
		t.Errorf("block covers %v, want (200,300)-(328,364)", o.Image.Rect)
	}
	if p := o.Image.RGBAAt(264, 332); p != (color.RGBA{255, 255, 0, 255}) {
		t.Errorf("block's middle %v, want opaque yellow", p)
	}
	if s.Render(1.2, full) != o {
		t.Error("the same event made a new overlay")
	}
	// Half-transparent white, premultiplied: 128 of 255 (0x80 alpha).
	if p := s.Render(2.2, full).Image.RGBAAt(24, 48); p != (color.RGBA{128, 128, 128, 128}) {
		t.Errorf("half-transparent white %v, want premultiplied 128s", p)
	}
	// Letterboxed: the canvas maps onto the picture's place.
	box := Layout{W: 640, H: 480, Video: image.Rect(0, 60, 640, 420)} // 320×240 at 2× wide, 1.5× tall
	if r := s.Render(1, box).Image.Rect; r != image.Rect(200, 285, 328, 333) {
		t.Errorf("letterboxed block covers %v, want (200,285)-(328,333)", r)
	}
}

// Text events as FFmpeg's ass decoder gives them (Matroska's form) into a libass track with the
// script's header: the styled line is red with its top left at \pos × 2; hidden, delayed and
// unselected it is not drawn; an unchanged frame keeps its overlay.
func TestTextEvents(t *testing.T) {
	tr := &track{Track: Track{Codec: "ass"}}
	s := withTracks(t, tr)
	header := subtest.StyledASS[:strings.Index(subtest.StyledASS, "Dialogue:")]
	tr.startText(s.lib, []byte(header))
	tr.add(&avx.Subtitle{End: time.Second, Rects: []avx.SubtitleRect{{ASS: `0,0,Default,,0,0,0,,{\an7\pos(40,60)}Red`}}}, 1, time.Second, 0, 0)
	if s.Render(0.99, full) != nil || s.Render(2.01, full) != nil {
		t.Error("shown outside 1–2 s")
	}
	o := s.Render(1.5, full)
	if o == nil {
		t.Fatal("nothing at 1.5 s")
	}
	box, red, n := covered(o.Image)
	if n < 200 || red < n*9/10 {
		t.Errorf("%d of %d covered pixels red", red, n)
	}
	if box.Min.X < 76 || box.Min.X > 92 || box.Min.Y < 120 || box.Min.Y > 140 {
		t.Errorf("line covers %v, want its top left near (80, 120)", box)
	}
	if s.Render(1.6, full) != o {
		t.Error("an unchanged frame made a new overlay")
	}
	s.SetDelay(0.6)
	if s.Render(1.5, full) != nil || s.Render(2.5, full) == nil {
		t.Error("-sub-delay 0.6: wrong timing")
	}
	s.SetDelay(0)
	s.SetVisible(false)
	if s.Render(1.5, full) != nil {
		t.Error("hidden line drawn")
	}
	s.SetVisible(true)
	if s.Cycle(1) != 0 || s.Render(1.5, full) != nil || s.Cycle(-1) != 1 || s.Render(1.5, full) == nil {
		t.Error("cycling to none and back")
	}
}

func TestAutoSelect(t *testing.T) {
	for _, c := range []struct {
		tracks []Track
		want   int
	}{
		{nil, 0},
		{[]Track{{ID: 1}, {ID: 2}}, 0},
		{[]Track{{ID: 1}, {ID: 2, Default: true}}, 2},
		{[]Track{{ID: 1, Forced: true}, {ID: 2, External: true}}, 2},
	} {
		if got := AutoSelect(c.tracks); got != c.want {
			t.Errorf("AutoSelect(%+v) = %d, want %d", c.tracks, got, c.want)
		}
	}
	if Next(2, 2, 1) != 0 || Next(0, 2, -1) != 2 || Next(1, 2, 1) != 2 {
		t.Error("Next")
	}
}
