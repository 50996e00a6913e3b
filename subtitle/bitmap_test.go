package subtitle

import (
	"image"
	"image/color"
	"path/filepath"
	"testing"
	"time"

	"github.com/ycbcrkit/ycbcrkit/internal/testkit/subtest"
)

// A DVD subtitle track made by FFmpeg's dvdsub encoder: a yellow 64×32 block at (100, 150) of a
// 320×240 canvas, from 0.5 s for 1 s, then a white one at (10, 20) from 2 s for 0.5 s. Drawn on a
// 640×480 picture the first covers (200, 300)–(328, 364), in yellow, within one frame of its times.
func TestDVDBitmaps(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "dvd.mkv")
	block := func(x, y int, c color.Color) *image.Paletted {
		im := image.NewPaletted(image.Rect(x, y, x+64, y+32), color.Palette{color.NRGBA{}, c})
		for i := range im.Pix {
			im.Pix[i] = 1
		}
		return im
	}
	err := subtest.WriteDVD(path, 320, 240, []subtest.Event{
		{Image: block(100, 150, color.NRGBA{255, 255, 0, 255}), Start: 500 * time.Millisecond, Duration: time.Second},
		{Image: block(10, 20, color.NRGBA{255, 255, 255, 255}), Start: 2 * time.Second, Duration: 500 * time.Millisecond},
	})
	if err != nil {
		t.Fatal(err)
	}
	s := open(t, "", Options{Files: []string{path}})
	tr := s.Tracks()
	if len(tr) != 1 || tr[0].Codec != "dvd_subtitle" || !tr[0].Image {
		t.Fatalf("tracks %+v", tr)
	}
	for _, c := range []struct {
		at   float64
		show bool
	}{{0.46, false}, {0.54, true}, {1.46, true}, {1.54, false}, {2.04, true}, {2.54, false}} {
		if o := s.Render(c.at, full); (o != nil) != c.show {
			t.Errorf("at %.2f s: shown %v, want %v", c.at, o != nil, c.show)
		}
	}
	o := s.Render(1, full)
	if o == nil {
		t.Fatal("nothing at 1 s")
	}
	box, _, n := covered(o.Image)
	if d := box.Min.Sub(image.Pt(200, 300)); d.X < -1 || d.X > 1 || d.Y < -1 || d.Y > 1 ||
		box.Dx() < 127 || box.Dx() > 129 || box.Dy() < 63 || box.Dy() > 65 {
		t.Errorf("block covers %v, want (200,300)-(328,364)", box)
	}
	if p := o.Image.RGBAAt(264, 332); p != (color.RGBA{255, 255, 0, 255}) || n < 127*63 {
		t.Errorf("block's middle %v, want opaque yellow", p)
	}
}
