package ycbcr_test

import (
	"bytes"
	"fmt"
	"image"
	"math"
	"os/exec"
	"testing"

	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/gpu"
	"github.com/ycbcrkit/ycbcrkit/internal/testkit/vktest"
	"github.com/ycbcrkit/ycbcrkit/ycbcr"
)

// rgbFrame is a yuv444p frame holding R′G′B′ itself (matrix gbr, full range: the planes are G, B and
// R), so that the conversion hands the scale pass exactly rgb(x, y).
func rgbFrame(t *testing.T, w, h int, rgb func(x, y int) [3]uint8) *formats.Frame {
	t.Helper()
	pf, _ := formats.Lookup("yuv444p")
	f, err := formats.NewFrame(pf, w, h)
	if err != nil {
		t.Fatal(err)
	}
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			c := rgb(x, y)
			f.SetCode(formats.Y, x, y, uint16(c[1]))
			f.SetCode(formats.Cb, x, y, uint16(c[2]))
			f.SetCode(formats.Cr, x, y, uint16(c[0]))
		}
	}
	return f
}

var rgbParams = ycbcr.Params{Matrix: formats.MatrixRGB, Range: formats.RangeFull, ChromaLocation: formats.ChromaCenter}

// ffmpegScale scales f's R′G′B′ (an rgbFrame) with FFmpeg's scale filter (swscale) in planar RGB,
// so that no Y′CbCr conversion is involved, and returns it as RGBA.
func ffmpegScale(t *testing.T, f *formats.Frame, w, h int, flags string) *image.RGBA {
	t.Helper()
	var in bytes.Buffer
	for _, c := range []formats.Channel{formats.Y, formats.Cb, formats.Cr} { // G, B, R planes
		for y := 0; y < f.Height; y++ {
			for x := 0; x < f.Width; x++ {
				in.WriteByte(byte(f.Code(c, x, y)))
			}
		}
	}
	cmd := exec.Command("ffmpeg", "-v", "error", "-f", "rawvideo", "-pix_fmt", "gbrp", "-s", fmt.Sprintf("%dx%d", f.Width, f.Height),
		"-i", "-", "-vf", fmt.Sprintf("scale=%d:%d:flags=%s", w, h, flags), "-f", "rawvideo", "-pix_fmt", "gbrp", "-")
	cmd.Stdin = &in
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("ffmpeg scale %s: %v\n%s", flags, err, stderr.String())
	}
	if len(out) != 3*w*h {
		t.Fatalf("ffmpeg scale: %d bytes, want %d", len(out), 3*w*h)
	}
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for i := 0; i < w*h; i++ {
		img.Pix[4*i+0] = out[2*w*h+i]
		img.Pix[4*i+1] = out[i]
		img.Pix[4*i+2] = out[w*h+i]
		img.Pix[4*i+3] = 255
	}
	return img
}

// psnr is the PSNR of a against b over R, G and B in dB, and the largest difference in 1/255.
func psnr(a, b *image.RGBA) (float64, int) {
	var se float64
	worst := 0
	for i := range a.Pix {
		if i%4 == 3 {
			continue
		}
		d := int(a.Pix[i]) - int(b.Pix[i])
		se += float64(d * d)
		worst = max(worst, d, -d)
	}
	mse := se / float64(len(a.Pix)/4*3)
	if mse == 0 {
		return math.Inf(1), 0
	}
	return 10 * math.Log10(255*255/mse), worst
}

// zonePlate is a circular zone plate: grey cos(k·r²), its frequency rising to the picture's Nyquist
// limit at the corners, as a test of aliasing.
func zonePlate(w, h int) func(x, y int) [3]uint8 {
	k := math.Pi / float64(w+h) // ~Nyquist where r = (w+h)/2
	return func(x, y int) [3]uint8 {
		dx, dy := float64(x)-float64(w)/2, float64(y)-float64(h)/2
		v := uint8(math.Round(127.5 + 127*math.Cos(k*(dx*dx+dy*dy))))
		return [3]uint8{v, v, v}
	}
}

// TestScaleZonePlate downscales a 3840×2160 zone plate into 1280×720 with each filter and compares
// it with FFmpeg's Lanczos downscale (swscale, `scale=1280:720:flags=lanczos`), the issue's
// reference. An aliased, point-sampled picture scores 16.6 dB against it.
func TestScaleZonePlate(t *testing.T) {
	_, conv := openConverter(t)
	const w, h, dw, dh = 3840, 2160, 1280, 720
	f := rgbFrame(t, w, h, zonePlate(w, h))
	ref := ffmpegScale(t, f, dw, dh, "lanczos")
	floor := map[ycbcr.Filter]float64{ycbcr.FilterLanczos: 35}
	floor[ycbcr.DefaultFilter] = max(floor[ycbcr.DefaultFilter], 30)
	for _, filter := range []ycbcr.Filter{ycbcr.FilterLanczos, ycbcr.FilterCatmullRom, ycbcr.FilterMitchell, ycbcr.FilterBilinear} {
		got, err := conv.ConvertScaled(f, rgbParams, formats.PathShader, ycbcr.Fit(w, h, dw, dh, formats.Orientation{}, filter))
		if err != nil {
			t.Fatal(err)
		}
		db, worst := psnr(got, ref)
		t.Logf("%s: %.2f dB against FFmpeg's lanczos (largest difference %d/255)", filter, db, worst)
		if min, ok := floor[filter]; ok && db < min {
			t.Errorf("%s: %.2f dB, want ≥ %.0f dB", filter, db, min)
		}
	}
}

// smooth is a picture without high frequencies: gradients and slow waves per channel.
func smooth(w, h int) func(x, y int) [3]uint8 {
	return func(x, y int) [3]uint8 {
		u, v := float64(x)/float64(w), float64(y)/float64(h)
		r := 127.5 + 110*math.Sin(2*math.Pi*(u+0.3*v))
		g := 30 + 190*u*v
		b := 127.5 + 100*math.Cos(2*math.Pi*(1.5*v-0.5*u))
		return [3]uint8{uint8(math.Round(r)), uint8(math.Round(g)), uint8(math.Round(b))}
	}
}

// TestScaleMatchesSwscale compares each filter with FFmpeg's (swscale) of the same definition, on
// a smooth picture, up and down: Catmull-Rom is swscale's bicubic with B = 0, C = 0.5 (param0,
// param1), Mitchell B = C = 1/3, Lanczos swscale's lanczos (3 lobes), bilinear its bilinear. Within
// 2/255 everywhere (swscale computes in fixed point).
func TestScaleMatchesSwscale(t *testing.T) {
	_, conv := openConverter(t)
	const w, h = 320, 180
	f := rgbFrame(t, w, h, smooth(w, h))
	flags := map[ycbcr.Filter]string{
		ycbcr.FilterCatmullRom: "bicubic+accurate_rnd:param0=0:param1=0.5",
		ycbcr.FilterMitchell:   "bicubic+accurate_rnd:param0=0.333333333:param1=0.333333333",
		ycbcr.FilterLanczos:    "lanczos+accurate_rnd",
		ycbcr.FilterBilinear:   "bilinear+accurate_rnd",
	}
	for _, size := range [][2]int{{800, 450}, {112, 63}} {
		for filter, fl := range flags {
			got, err := conv.ConvertScaled(f, rgbParams, formats.PathShader, ycbcr.Fit(w, h, size[0], size[1], formats.Orientation{}, filter))
			if err != nil {
				t.Fatal(err)
			}
			ref := ffmpegScale(t, f, size[0], size[1], fl)
			db, worst := psnr(got, ref)
			t.Logf("%dx%d %s: %.2f dB against swscale's, largest difference %d/255", size[0], size[1], filter, db, worst)
			if worst > 2 {
				t.Errorf("%dx%d %s: %d/255 from swscale's %s, want ≤ 2", size[0], size[1], filter, worst, fl)
			}
		}
	}
}

// TestScaleOneToOneAndTurned: at the picture's size every filter (Mitchell's too, which blurs at
// whole-pixel offsets) returns the picture's pixels, and each orientation turns them exactly.
func TestScaleOneToOneAndTurned(t *testing.T) {
	_, conv := openConverter(t)
	const w, h = 37, 21
	px := func(x, y int) [3]uint8 { return [3]uint8{uint8(x * 7), uint8(y * 11), uint8((x*y*13 + 5) % 256)} }
	f := rgbFrame(t, w, h, px)
	for rot := 0; rot < 4; rot++ {
		for _, flip := range []bool{false, true} {
			o := formats.Orientation{Rotate: rot, Flip: flip}
			dw, dh := o.DisplaySize(w, h)
			got, err := conv.ConvertScaled(f, rgbParams, formats.PathShader, ycbcr.Fit(w, h, dw, dh, o, ycbcr.FilterMitchell))
			if err != nil {
				t.Fatal(err)
			}
			for j := 0; j < dh; j++ {
				for i := 0; i < dw; i++ {
					x, y := o.Source(i, j, w, h)
					want := px(x, y)
					o4 := got.PixOffset(i, j)
					if g := got.Pix[o4 : o4+3]; g[0] != want[0] || g[1] != want[1] || g[2] != want[2] {
						t.Fatalf("%v: display (%d,%d) = %v, want picture (%d,%d) = %v", o, i, j, g, x, y, want)
					}
				}
			}
		}
	}
}

// noiseFrame is a w×h R′G′B′ frame of hashed noise: every spatial frequency, for comparing two ways
// of scaling.
func noiseFrame(t *testing.T, w, h int) *formats.Frame {
	return rgbFrame(t, w, h, func(x, y int) [3]uint8 {
		s := uint32(x*7919+y*104729) * 2654435761
		return [3]uint8{uint8(s >> 24), uint8(s >> 16), uint8(s >> 8)}
	})
}

// TestScaleTableMatchesKernel: the weight table (computed once per view on the CPU, in float64)
// gives the pictures the kernel evaluated per sample on the GPU (the pass as it first was, float32)
// gave: within 1/255 anywhere, on noise (every frequency) for each filter, down and up, at exact
// and odd ratios, panned by fractions of a pixel and turned.
func TestScaleTableMatchesKernel(t *testing.T) {
	_, conv := openConverter(t)
	const w, h = 480, 270
	f := noiseFrame(t, w, h)
	turned := formats.Orientation{Rotate: 1, Flip: true}
	views := map[string]ycbcr.ScaleView{
		"2:1":         ycbcr.Fit(w, h, w/2, h/2, formats.Orientation{}, 0),
		"1.5:1":       ycbcr.Fit(w, h, 320, 180, formats.Orientation{}, 0),
		"37:1":        ycbcr.Fit(w, h, 13, 7, formats.Orientation{}, 0),
		"1:2.3 up":    ycbcr.Fit(w, h, 1104, 621, formats.Orientation{}, 0),
		"turned 3:2":  ycbcr.Fit(w, h, 180, 320, turned, 0),
		"zoom 2.5 at": {SrcW: w, SrcH: h, OutW: 300, OutH: 200, OffX: 10.2, OffY: 33.6, StepX: 0.4, StepY: 0.4},
		"1:1 at half": {SrcW: w, SrcH: h, OutW: 100, OutH: 90, OffX: 5.5, OffY: 7.5, StepX: 1, StepY: 1},
	}
	for name, v := range views {
		for _, filter := range []ycbcr.Filter{ycbcr.FilterLanczos, ycbcr.FilterCatmullRom, ycbcr.FilterMitchell, ycbcr.FilterBilinear} {
			v.Filter = filter
			table, err := conv.ConvertScaled(f, rgbParams, formats.PathShader, v)
			if err != nil {
				t.Fatal(err)
			}
			direct, err := conv.ConvertScaledDirect(f, rgbParams, formats.PathShader, v)
			if err != nil {
				t.Fatal(err)
			}
			db, worst := psnr(table, direct)
			differ := 0
			for i := range table.Pix {
				if table.Pix[i] != direct.Pix[i] {
					differ++
				}
			}
			t.Logf("%s %s: %d of %d values differ, largest %d/255 (%.1f dB)", name, filter, differ, len(table.Pix)/4*3, worst, db)
			if worst > 1 {
				t.Errorf("%s %s: the table is %d/255 from the kernel, want ≤ 1", name, filter, worst)
			}
		}
	}
}

// TestScaleIntoMatchesDrawn: the pass written by compute straight into the target (RecordInto,
// scale_target.comp, for targets that allow storage) gives the picture the pass drawn onto it
// (Record, then scale.frag) gives: within 1/255 anywhere (both filter the same float32 rows with the
// same table; only the rounding into the 8-bit target may differ), unturned and turned every way,
// down, up and zoomed at a fractional pan, on noise.
func TestScaleIntoMatchesDrawn(t *testing.T) {
	dev := vktest.Open(t)
	if !dev.StorageFormat(gpu.TargetFormat) {
		t.Skip("the device has no storage images of the target format")
	}
	conv, err := ycbcr.NewPaths(dev)
	if err != nil {
		t.Fatal(err)
	}
	defer conv.Destroy()
	const w, h = 480, 270
	f := noiseFrame(t, w, h)
	views := map[string]ycbcr.ScaleView{
		"2:1":         ycbcr.Fit(w, h, w/2, h/2, formats.Orientation{}, ycbcr.FilterLanczos),
		"1:1.7 up":    ycbcr.Fit(w, h, 816, 459, formats.Orientation{}, ycbcr.FilterCatmullRom),
		"zoom 2.5 at": {SrcW: w, SrcH: h, OutW: 300, OutH: 200, OffX: 10.2, OffY: 33.6, StepX: 0.4, StepY: 0.4, Filter: ycbcr.FilterLanczos},
	}
	for rot := 0; rot < 4; rot++ {
		for _, flip := range []bool{false, true} {
			o := formats.Orientation{Rotate: rot, Flip: flip}
			if !o.Identity() {
				views["3:2 turned "+o.String()] = ycbcr.Fit(w, h, 320, 180, o, ycbcr.FilterLanczos)
			}
		}
	}
	for name, v := range views {
		drawn, err := conv.ConvertScaled(f, rgbParams, formats.PathShader, v)
		if err != nil {
			t.Fatal(err)
		}
		into, err := conv.ConvertScaledInto(f, rgbParams, formats.PathShader, v)
		if err != nil {
			t.Fatal(err)
		}
		if drawn.Rect != into.Rect {
			t.Fatalf("%s: drawn %v, written %v", name, drawn.Rect, into.Rect)
		}
		db, worst := psnr(drawn, into)
		differ := 0
		for i := range drawn.Pix {
			if drawn.Pix[i] != into.Pix[i] {
				differ++
			}
		}
		t.Logf("%s %s: %d of %d values differ, largest %d/255 (%.1f dB)", name, v.Filter, differ, len(drawn.Pix), worst, db)
		if worst > 1 {
			t.Errorf("%s: written into the target %d/255 from drawn, want ≤ 1", name, worst)
		}
	}
}
