package player

import (
	"image"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gomono"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"

	"github.com/ycbcrkit/ycbcrkit/present/window"
)

// saveShot writes img to $OSD_SHOTS/name.png when that folder is set (to look at the display).
func saveShot(img image.Image, name string) {
	if dir := os.Getenv("OSD_SHOTS"); dir != "" {
		if f, err := os.Create(filepath.Join(dir, name+".png")); err == nil {
			png.Encode(f, img)
			f.Close()
		}
	}
}

// crop is the window's content (w×h at x, y) from a screen grab.
func crop(grab *image.RGBA, x, y, w, h int) *image.RGBA {
	out := image.NewRGBA(image.Rect(0, 0, w, h))
	for j := 0; j < h; j++ {
		for i := 0; i < w; i++ {
			out.Set(i, j, grab.At(x+i, y+j))
		}
	}
	return out
}

// TestOSD plays a synthetic clip of known length (120 frames at 30 fps: 4 s) in a window under Xvfb,
// pauses at the 61st frame with the space key, and reads what the X server shows (xwd):
//   - the progress bar's played part over its track is the paused frame's time over the duration,
//     (61 − 1)/30 s of 4 s, within 1%;
//   - the info panel (i) shows its lines, each glyph where the font's own rasterizer
//     (x/image/font's Drawer) puts it: full-coverage pixels light, empty ones dark; its figures are
//     the ones -stats reports;
//   - the key list (? ) shows.
func TestOSD(t *testing.T) {
	if !window.Available() {
		t.Fatal("no display: run the tests under xvfb-run (make test does)")
	}
	const w, h, pauseAt = 640, 360, 61
	src := synthetic(t, "yuv420p", w, h, 120)
	var p0 *Player
	var wx, wy int
	paused := make(chan struct{})
	var shots [3]*image.RGBA
	var grabErr error
	go func() {
		<-paused
		grab := func(i int) {
			time.Sleep(400 * time.Millisecond) // a few paused redraws reach the X server
			g, err := screenGrab()
			if err != nil {
				grabErr = err
				return
			}
			shots[i] = crop(g, wx, wy, w, h)
		}
		grab(0)
		p0.win.Press(window.KeyI)
		grab(1)
		p0.win.Press(window.KeyI)
		p0.win.Press(window.KeyHelp)
		grab(2)
		p0.win.Press(window.KeyQuit)
	}()
	st, err := playWithin(t, 60*time.Second, src, Config{GPU: GPUConfig{Device: -1, Validate: true}, Playback: PlaybackConfig{Untimed: true}, Hooks: Hooks{OnFrame: func(p *Player, n int) {
		if n == pauseAt {
			p0 = p
			wx, wy = p.win.Pos()
			if fw, fh := p.win.Size(); fw != w || fh != h {
				t.Errorf("window %dx%d, want %dx%d", fw, fh, w, h)
			}
			p.win.Press(window.KeySpace)
			close(paused)
		}
	}}})
	if err != nil {
		t.Fatal(err)
	}
	if grabErr != nil {
		t.Fatal(grabErr)
	}
	if st.FramesPresented != pauseAt {
		t.Fatalf("%d frames presented, want %d (paused there)", st.FramesPresented, pauseAt)
	}
	for i, name := range []string{"bar", "info", "help"} {
		saveShot(shots[i], "osd-"+name)
	}

	// The bar: along its middle row, the fill's pixels and the track's.
	y := h - osdMargin - osdBarH/2
	fill, track := 0, 0
	for x := 0; x < w; x++ {
		c := shots[0].RGBAAt(x, y)
		switch {
		case c.R == osdFill.R && c.G == osdFill.G && c.B == osdFill.B:
			fill++
		case c.R == osdTrack.R && c.G == osdTrack.G && c.B == osdTrack.B:
			track++
		}
	}
	want := float64(pauseAt-1) / 30 / 4
	got := float64(fill) / float64(fill+track)
	if fill+track != w-2*osdMargin || math.Abs(got-want) > 0.01 {
		t.Errorf("bar: %d filled of %d pixels (%.4f), want %.4f of %d", fill, fill+track, got, want, w-2*osdMargin)
	}
	t.Logf("bar: %.4f filled, want %.4f", got, want)

	// The info panel: the figures are -stats's.
	lines := p0.osd.shown
	joined := strings.Join(p0.osd.canvas.Font.Fit(p0.osd.lines, w), "\n")
	for _, v := range []string{st.PixelFormat, strings.TrimPrefix(st.VkFormat, "VK_FORMAT_"), st.Path, st.Matrix, st.Range, st.ChromaLocation, st.Upload, st.Conversion, src.Info().Name} {
		if v == "" || !strings.Contains(joined, v) {
			t.Errorf("info panel lacks %q:\n%s", v, joined)
		}
	}
	// Its glyphs, where the font's own Drawer puts them (the frames and GPU lines change while paused:
	// the fps and GPU-time figures; they are left out).
	ft, err := opentype.Parse(gomono.TTF)
	if err != nil {
		t.Fatal(err)
	}
	face, err := opentype.NewFace(ft, &opentype.FaceOptions{Size: osdFontPx, DPI: 72, Hinting: font.HintingFull})
	if err != nil {
		t.Fatal(err)
	}
	cov := image.NewAlpha(image.Rect(0, 0, w, h))
	lh := face.Metrics().Height.Ceil()
	for i, l := range lines {
		if strings.HasPrefix(l, "frames") || strings.HasPrefix(l, "GPU") {
			continue
		}
		d := font.Drawer{Dst: cov, Src: image.Opaque, Face: face,
			Dot: fixed.P(osdMargin+8, osdMargin+8+i*lh+face.Metrics().Ascent.Ceil())}
		d.DrawString(l)
	}
	boxW := 0
	for _, l := range lines {
		boxW = max(boxW, p0.osd.canvas.Font.Width(l))
	}
	lit, dark, bad := 0, 0, 0
	for yy := osdMargin + 8; yy < osdMargin+8+len(lines)*lh; yy++ {
		if l := lines[(yy-osdMargin-8)/lh]; strings.HasPrefix(l, "frames") || strings.HasPrefix(l, "GPU") {
			continue
		}
		for xx := osdMargin + 8; xx < osdMargin+8+boxW; xx++ {
			a := cov.AlphaAt(xx, yy).A
			c := shots[1].RGBAAt(xx, yy)
			switch {
			case a == 255:
				lit++
				if c.R < 200 || c.G < 200 || c.B < 200 {
					bad++
				}
			case a == 0:
				dark++
				if c.R > 100 || c.G > 100 || c.B > 100 {
					bad++
				}
			}
		}
	}
	if lit < 500 || bad > lit/50 {
		t.Errorf("info panel: %d full-coverage glyph pixels, %d of them or of %d empty ones wrong", lit, bad, dark)
	}
	// The panel leaves the bar with its time label, and the paused sign, as they were without it.
	lh0 := p0.osd.canvas.Font.LineHeight
	for _, r := range []image.Rectangle{
		image.Rect(osdMargin-6, h-osdMargin-osdBarH-lh0-10, w-osdMargin+6, h-osdMargin+6), // the bar and its label
		image.Rect(w-osdMargin-30, osdMargin-4, w-osdMargin+4, osdMargin+32),              // the paused sign
	} {
		differ := 0
		for yy := r.Min.Y; yy < r.Max.Y; yy++ {
			for xx := r.Min.X; xx < r.Max.X; xx++ {
				if shots[0].RGBAAt(xx, yy) != shots[1].RGBAAt(xx, yy) {
					differ++
				}
			}
		}
		if differ > 0 {
			t.Errorf("the info panel covers %d pixels of %v (the bar's or the paused sign's)", differ, r)
		}
	}
	// The key list: its glyph pixels (text colour) in the middle of the window, which the bar-only
	// picture does not have.
	light := func(img *image.RGBA) int {
		n := 0
		for yy := h / 4; yy < 3*h/4; yy++ {
			for xx := w / 4; xx < 3*w/4; xx++ {
				if c := img.RGBAAt(xx, yy); c.R == osdText.R && c.G == osdText.G && c.B == osdText.B {
					n++
				}
			}
		}
		return n
	}
	if n0, n2 := light(shots[0]), light(shots[2]); n2 < n0+300 {
		t.Errorf("key list: %d text pixels, %d without it", n2, n0)
	}
}

// TestOSDCompareLabels looks at split mode's labels (saved with OSD_SHOTS; the labels' glyphs are
// the font's, checked by TestOSD): the two names are present as text-coloured pixels on each half.
func TestOSDCompareLabels(t *testing.T) {
	if !window.Available() {
		t.Fatal("no display: run the tests under xvfb-run (make test does)")
	}
	const w, h = 480, 270
	src := synthetic(t, "nv12", w, h, 20)
	var shot *image.RGBA
	var grabErr error
	_, err := playWithin(t, 60*time.Second, src, Config{GPU: GPUConfig{Device: -1, Validate: true}, Playback: PlaybackConfig{Untimed: true, Frames: 15}, Convert: ConvertConfig{Compare: CompareSplit}, Hooks: Hooks{OnFrame: func(p *Player, n int) {
		if n == 12 {
			time.Sleep(300 * time.Millisecond)
			x, y := p.win.Pos()
			g, err := screenGrab()
			if err != nil {
				grabErr = err
				return
			}
			shot = crop(g, x, y, w, h)
		}
	}}})
	if err != nil || grabErr != nil {
		t.Fatal(err, grabErr)
	}
	saveShot(shot, "osd-split")
	count := func(x0, x1 int) int {
		n := 0
		for y := osdMargin; y < osdMargin+30; y++ {
			for x := x0; x < x1; x++ {
				if c := shot.RGBAAt(x, y); c.R == osdText.R && c.G == osdText.G && c.B == osdText.B {
					n++
				}
			}
		}
		return n
	}
	if l, r := count(0, w/2-2), count(w/2+2, w); l < 40 || r < 40 {
		t.Errorf("labels: %d text pixels left, %d right", l, r)
	}
}
