package main

import (
	"encoding/json"
	"image"
	"image/color"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ycbcrkit/ycbcrkit/internal/testkit/pictest"
)

// TestDitherFlags: -dither auto (the default) dithers the 10-bit PQ vector with blue noise and
// leaves the 8-bit one alone unless it is debanded, -dither ordered and off are taken as given (-stats dither); the
// screenshot of the video picture is exact (the same as with -dither off) unless -screenshot-dither,
// which dithers it: every sample then within one code of the exact picture's, and some moved.
func TestDitherFlags(t *testing.T) {
	dir := t.TempDir()
	run := func(name string, args ...string) (string, string) {
		t.Helper()
		shot := filepath.Join(dir, name+".png")
		args = append([]string{"-headless", "-frames", "1", "-stats", "-screenshot", shot}, args...)
		stdout, stderr, code := play(t, args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, stderr)
		}
		var st struct{ Dither string }
		if err := json.Unmarshal([]byte(stdout), &st); err != nil {
			t.Fatalf("-stats: %v: %s", err, stdout)
		}
		return st.Dither, shot
	}
	pq := filepath.Join(colourDir, "pq.mkv")
	eight := filepath.Join(colourDir, "ycgco_tv.mkv")
	for _, tc := range []struct {
		name, want string
		args       []string
	}{
		{"auto-10bit", "blue", []string{pq}},
		{"auto-8bit", "off", []string{eight}},
		{"auto-8bit-debanded", "blue", []string{"-deband", eight}}, // finer than the target's codes
		{"ordered", "ordered", []string{"-dither", "ordered", eight}},
		{"off", "off", []string{"-dither", "off", pq}},
	} {
		if got, _ := run(tc.name, tc.args...); got != tc.want {
			t.Errorf("%s: -stats dither %q, want %q", tc.name, got, tc.want)
		}
	}
	_, exact := run("exact", "-dither", "off", pq)
	_, plain := run("plain", pq)
	_, dithered := run("dithered", "-screenshot-dither", pq)
	a, b, c := pictest.ReadNRGBA(t, exact), pictest.ReadNRGBA(t, plain), pictest.ReadNRGBA(t, dithered)
	moved := 0
	for i := range a.Pix {
		if a.Pix[i] != b.Pix[i] {
			t.Fatalf("the screenshot with -dither auto differs from the exact picture at byte %d: screenshots are not dithered", i)
		}
		d := int(c.Pix[i]) - int(a.Pix[i])
		if d < -1 || d > 1 {
			t.Fatalf("-screenshot-dither moved byte %d by %d codes, want at most 1", i, d)
		}
		if d != 0 {
			moved++
		}
	}
	if moved == 0 {
		t.Error("-screenshot-dither left the screenshot exact")
	}
	if _, stderr, code := play(t, "-headless", "-dither", "red", pq); code == 0 || !strings.Contains(stderr, "bad -dither") {
		t.Errorf("-dither red: exit %d, %q", code, stderr)
	}
}

// TestQualityFlags: -hdr-peak and -deband as -stats reports them, and their errors.
func TestQualityFlags(t *testing.T) {
	pq := filepath.Join(colourDir, "pq.mkv")
	eight := filepath.Join(colourDir, "ycgco_tv.mkv")
	stats := func(args ...string) (peak, deband string) {
		t.Helper()
		stdout, stderr, code := play(t, append([]string{"-headless", "-frames", "1", "-stats"}, args...)...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, stderr)
		}
		var st struct {
			Peak   string `json:"hdr_peak"`
			Deband string `json:"deband"`
		}
		if err := json.Unmarshal([]byte(stdout), &st); err != nil {
			t.Fatalf("-stats: %v: %s", err, stdout)
		}
		return st.Peak, st.Deband
	}
	for _, tc := range []struct {
		args       []string
		peak, debd string
	}{
		{[]string{pq}, "metadata 1000 cd/m² (nothing detected yet)", "off"},
		{[]string{"-hdr-peak", "metadata", pq}, "metadata 1000 cd/m²", "off"},
		{[]string{"-hdr-peak", "500", pq}, "fixed 500 cd/m²", "off"},
		{[]string{"-deband", pq}, "metadata 1000 cd/m² (nothing detected yet)", "off (10-bit source; debanding is for 8-bit sources)"},
		{[]string{"-deband", eight}, "", "iterations=1:samples=4:threshold=4:radius=16:grain=0"},
		{[]string{"-deband", "-deband-params", "iterations=2:grain=6", eight}, "", "iterations=2:samples=4:threshold=4:radius=16:grain=6"},
		{[]string{"-deband", "-compare", "split", "-chroma-loc", "topleft", filepath.Join(mediaDir, "default.mkv")}, "", "off (comparing both paths)"},
	} {
		if peak, debd := stats(tc.args...); peak != tc.peak || debd != tc.debd {
			t.Errorf("%v: hdr_peak %q, deband %q; want %q, %q", tc.args, peak, debd, tc.peak, tc.debd)
		}
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-hdr-peak", "50", pq}, "bad -hdr-peak"},
		{[]string{"-deband-params", "grain=1", pq}, "-deband-params without -deband"},
		{[]string{"-deband", "-deband-params", "strength=2", pq}, "bad deband setting"},
	} {
		if _, stderr, code := play(t, append([]string{"-headless"}, tc.args...)...); code == 0 || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d, %q; want an error with %q", tc.args, code, stderr, tc.want)
		}
	}
}

// TestDebandScreenshot: a screenshot shows the picture debanded as it is played with -deband. On
// an 8-bit PNG of a grey gradient in 32-pixel steps one code apart, the plain screenshot is the
// picture itself; with -deband it differs from it, by at most a code anywhere (debanding moves
// values by less than its threshold, about one code); with -deband -screenshot-dither (rounded with
// blue noise as shown) the means of 16×16 blocks come closer to the smooth gradient than the steps'
// (0.25 of a code), away from the left and right edges, where debanding's samples are clamped. Before, screenshots were converted again without debanding, and the stream
// skipped debanding on hardware-decoded frames (stream.TestForeignDeband), which no test saw.
func TestDebandScreenshot(t *testing.T) {
	dir := t.TempDir()
	const w, h = 512, 64
	src := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			c := uint8(60 + x/32)
			src.Set(x, y, color.RGBA{c, c, c, 255})
		}
	}
	in := filepath.Join(dir, "steps.png")
	f, err := os.Create(in)
	if err != nil {
		t.Fatal(err)
	}
	if err := png.Encode(f, src); err != nil {
		t.Fatal(err)
	}
	f.Close()
	smooth := func(x int) float64 { return 59.5 + (float64(x)+0.5)/32 } // rounds to the steps
	shot := func(name string, args ...string) *image.NRGBA {
		t.Helper()
		path := filepath.Join(dir, name+".png")
		args = append([]string{"-headless", "-frames", "1", "-no-audio", "-screenshot", path}, append(args, in)...)
		if _, stderr, code := play(t, args...); code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, stderr)
		}
		return pictest.ReadNRGBA(t, path)
	}
	worstBlock := func(img *image.NRGBA) float64 { // inside: the outer 32 pixels' means see past the edge
		worst := 0.0
		for by := 0; by < h; by += 16 {
			for bx := 32; bx < w-32; bx += 16 {
				sum, ideal := 0.0, 0.0
				for y := by; y < by+16; y++ {
					for x := bx; x < bx+16; x++ {
						sum += float64(img.Pix[img.PixOffset(x, y)+1])
						ideal += smooth(x)
					}
				}
				worst = math.Max(worst, math.Abs(sum-ideal)/256)
			}
		}
		return worst
	}
	plain, debanded, dithered := shot("plain"), shot("deband", "-deband"), shot("dithered", "-deband", "-screenshot-dither")
	moved, most := 0, 0
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			i := plain.PixOffset(x, y)
			if plain.Pix[i+1] != src.Pix[src.PixOffset(x, y)+1] {
				t.Fatalf("the plain screenshot differs from the picture at (%d, %d)", x, y)
			}
			for c := 0; c < 3; c++ {
				d := int(debanded.Pix[i+c]) - int(plain.Pix[i+c])
				if d != 0 {
					moved++
				}
				most = max(most, d, -d)
			}
		}
	}
	wp, wd := worstBlock(plain), worstBlock(dithered)
	t.Logf("-deband moved %d of %d samples, by at most %d; 16×16 block means within %.3f of the smooth gradient plain, %.3f debanded and dithered",
		moved, 3*w*h, most, wp, wd)
	if moved == 0 || most > 1 {
		t.Errorf("-deband's screenshot moved %d samples by at most %d codes: want some, by at most 1", moved, most)
	}
	if wd >= wp {
		t.Errorf("debanded and dithered, 16×16 block means are within %.3f of the smooth gradient, not closer than the steps' %.3f", wd, wp)
	}
}
