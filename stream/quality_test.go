package stream_test

import (
	"image"
	"math"
	"testing"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/internal/testkit/vktest"
	"github.com/ycbcrkit/ycbcrkit/stream"
	"github.com/ycbcrkit/ycbcrkit/ycbcr"
	ycbcrcheck "github.com/ycbcrkit/ycbcrkit/ycbcr/check"
	"github.com/ycbcrkit/ycbcrkit/ycbcr/oracle"
)

// pqScene is a 64×32 4:4:4 10-bit PQ picture: a grey ground of about ground cd/m² and a 16×8 grey
// highlight of about hi cd/m²; it returns the highlight's exact luminance.
func pqScene(t *testing.T, ground, hi float64) (*formats.Frame, float64) {
	t.Helper()
	pf, _ := formats.Lookup("yuv444p10le")
	f, err := formats.NewFrame(pf, 64, 32)
	if err != nil {
		t.Fatal(err)
	}
	code := func(nits float64) uint16 { return uint16(math.Round(64 + 876*oracle.PQInverseEOTF(nits))) }
	g, h := code(ground), code(hi)
	for y := 0; y < 32; y++ {
		for x := 0; x < 64; x++ {
			c := g
			if x >= 40 && x < 56 && y >= 16 && y < 24 {
				c = h
			}
			f.SetCode(formats.Y, x, y, c)
			f.SetCode(formats.Cb, x, y, 512)
			f.SetCode(formats.Cr, x, y, 512)
		}
	}
	return f, oracle.PQEOTF((float64(h) - 64) / 876)
}

// TestPeakDetectionStream is issue 27's check of peak detection through the stream's frames (PQ
// metadata 4000 cd/m², both conversion variants): on a still dark scene (highlight 150 cd/m²) the
// detected peak, once measured, does not move and neither does the picture (no flicker); after a
// cut to a bright scene (highlight 400 cd/m², a brighter ground) the stream tone-maps with the new
// peak within 5 frames (the measurement is read back after its slot's fence: two frames later),
// and that picture matches the oracle's tone map fed the true peak within 2/255.
func TestPeakDetectionStream(t *testing.T) {
	dev := vktest.Open(t)
	meta := formats.HDRMetadata{MinLuminance: 0.005, MaxLuminance: 4000}
	p := ycbcr.Params{Matrix: formats.MatrixBT2020NCL, Range: formats.RangeLimited, ChromaLocation: formats.ChromaCenter,
		Transfer: formats.TransferSMPTE2084, Primaries: formats.PrimariesBT2020, HDR: meta}
	dark, darkPeak := pqScene(t, 5, 150)
	bright, brightPeak := pqScene(t, 60, 400)
	for _, v := range []stream.Variant{stream.VariantDraw, stream.VariantCompute} {
		t.Run(v.String(), func(t *testing.T) {
			s, err := stream.New(dev, stream.Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			cfg := stream.Config{Format: dark.Format, Width: 64, Height: 32, Params: p, Choice: formats.ChooseShader, Variant: v, Peak: true}
			if _, err := s.Configure(cfg); err != nil {
				t.Fatal(err)
			}
			var first *image.RGBA
			firstPeak := 0.0
			for i := 0; i < 10; i++ {
				img := drawOne(t, dev, s, dark)
				if s.Peak() == 0 {
					continue
				}
				if first == nil {
					first, firstPeak = img, s.Peak()
					t.Logf("dark scene: peak %.2f cd/m² detected at frame %d (true %.2f)", firstPeak, i, darkPeak)
					continue
				}
				if s.Peak() != firstPeak || maxDiff(img, first) != 0 {
					t.Fatalf("still scene, frame %d: peak %.3f (was %.3f), picture moved by %d", i, s.Peak(), firstPeak, maxDiff(img, first))
				}
			}
			if first == nil || math.Abs(firstPeak-darkPeak) > 0.01*darkPeak {
				t.Fatalf("dark scene: detected %.2f cd/m², want %.2f", firstPeak, darkPeak)
			}
			truth := p
			truth.HDR.MaxCLL = brightPeak
			prm, err := ycbcrcheck.OracleParams(bright.Format, truth)
			if err != nil {
				t.Fatal(err)
			}
			want := oracle.Image(ycbcrcheck.OraclePicture(bright), prm)
			adapted := -1
			for i := 0; i < 5 && adapted < 0; i++ {
				img := drawOne(t, dev, s, bright)
				if math.Abs(s.Peak()-brightPeak) > 0.01*brightPeak {
					continue
				}
				adapted = i
				worst := 0.0
				for k, w := range want {
					for c := 0; c < 3; c++ {
						worst = math.Max(worst, math.Abs(float64(img.Pix[4*k+c])-math.Min(math.Max(w[c], 0), 1)*255))
					}
				}
				t.Logf("after the cut: peak %.2f cd/m² from frame %d; %.2f/255 from the oracle fed the true peak", s.Peak(), i, worst)
				if worst > 2 {
					t.Errorf("after the cut: %.2f/255 from the oracle fed the true peak, want ≤ 2", worst)
				}
			}
			if adapted < 0 {
				t.Errorf("after the cut the peak is %.2f cd/m² 5 frames on, want %.2f", s.Peak(), brightPeak)
			}
		})
	}
}

// TestDebandStream: debanding through the stream's frames, both conversion variants, shown 1:1 and
// scaled to half size (the scale pass reads the debanded picture), with blue-noise dither: an 8-bit
// gradient of 32-pixel bands one code apart (16 codes over 512 pixels) is shown with the means of
// blocks of 16×16 source pixels closer to the smooth gradient than without debanding.
func TestDebandStream(t *testing.T) {
	dev := vktest.Open(t)
	pf, _ := formats.Lookup("yuv444p")
	const w, h = 512, 64
	f, err := formats.NewFrame(pf, w, h)
	if err != nil {
		t.Fatal(err)
	}
	smooth := func(x float64) float64 { return 64 + 16*x/w }
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			c := uint16(math.Round(smooth(float64(x))))
			f.SetCode(formats.Y, x, y, c) // G (matrix gbr: the planes are G, B and R)
			f.SetCode(formats.Cb, x, y, c)
			f.SetCode(formats.Cr, x, y, c)
		}
	}
	p := ycbcr.Params{Matrix: formats.MatrixRGB, Range: formats.RangeFull, ChromaLocation: formats.ChromaCenter, Dither: ycbcr.DitherBlue}
	worstBlock := func(img *image.RGBA, scale float64) float64 { // blocks of 16×16 source pixels
		b := img.Bounds()
		n := int(16 / scale)
		worst := 0.0
		for by := 0; by+n <= b.Dy(); by += n {
			for bx := 0; bx+n <= b.Dx(); bx += n {
				sum, ideal := 0.0, 0.0
				for y := by; y < by+n; y++ {
					for x := bx; x < bx+n; x++ {
						sum += float64(img.Pix[img.PixOffset(x, y)+1])
						ideal += smooth((float64(x)+0.5)*scale - 0.5)
					}
				}
				worst = math.Max(worst, math.Abs(sum-ideal)/float64(n*n))
			}
		}
		return worst
	}
	for _, v := range []stream.Variant{stream.VariantDraw, stream.VariantCompute} {
		for _, half := range []bool{false, true} {
			var errs [2]float64
			for i, deband := range []ycbcr.DebandParams{{}, ycbcr.DefaultDeband} {
				s, err := stream.New(dev, stream.Options{})
				if err != nil {
					t.Fatal(err)
				}
				cfg := stream.Config{Format: pf, Width: w, Height: h, Params: p, Choice: formats.ChooseShader, Variant: v, Deband: deband}
				if _, err := s.Configure(cfg); err != nil {
					t.Fatal(err)
				}
				tw, th, scale := w, h, 1.0
				if half {
					tw, th, scale = w/2, h/2, 2
				}
				target, err := dev.NewOffscreen(tw, th)
				if err != nil {
					t.Fatal(err)
				}
				fr, err := s.Begin()
				if err != nil {
					t.Fatal(err)
				}
				if _, err := fr.Load(f, nil); err != nil {
					t.Fatal(err)
				}
				if err := fr.Convert(); err != nil {
					t.Fatal(err)
				}
				if err := fr.Scale(ycbcr.Fit(w, h, tw, th, formats.Orientation{}, ycbcr.FilterBilinear)); err != nil {
					t.Fatal(err)
				}
				target.Begin(fr.Slot.CB)
				if err := fr.Draw(target); err != nil {
					t.Fatal(err)
				}
				target.End(fr.Slot.CB)
				if err := fr.Submit(vk.NullSemaphore, vk.NullSemaphore); err != nil {
					t.Fatal(err)
				}
				if err := s.Ring.Drain(); err != nil {
					t.Fatal(err)
				}
				errs[i] = worstBlock(target.RGBA(), scale)
				target.Destroy()
				s.Close()
			}
			t.Logf("%s half=%v: block means within %.3f of the smooth gradient without debanding, %.3f with", v, half, errs[0], errs[1])
			if errs[1] >= errs[0] {
				t.Errorf("%s half=%v: debanded block means within %.3f of the smooth gradient, not closer than without (%.3f)", v, half, errs[1], errs[0])
			}
		}
	}
}

// TestForeignDeband: hardware-decoded pictures are debanded as uploaded ones are. An 8-bit nv12
// gradient of 32-pixel bands one code apart, put in FFmpeg's own Vulkan frames (as a Vulkan decoder
// outputs them, TestForeignRoutes) and drawn with debanding in place and through the GPU copy, both
// variants, dither off: each picture is the one the normal upload of the same picture gives with
// debanding (the same constant chroma, the same hashed random numbers: equal), and that one differs from the picture without debanding. Before, the
// stream skipped debanding on foreign frames, so `ycbcrplay -deband` with hardware decoding showed
// the bands it claimed to remove.
func TestForeignDeband(t *testing.T) {
	dev, up := newUploader(t)
	pf, _ := formats.Lookup("nv12")
	const w, h = 256, 32
	pic, err := formats.NewFrame(pf, w, h)
	if err != nil {
		t.Fatal(err)
	}
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			pic.SetCode(formats.Y, x, y, uint16(60+x/32))
		}
	}
	for y := 0; y < h/2; y++ {
		for x := 0; x < w/2; x++ {
			pic.SetCode(formats.Cb, x, y, 128)
			pic.SetCode(formats.Cr, x, y, 128)
		}
	}
	p := ycbcr.Params{Matrix: formats.MatrixBT709, Range: formats.RangeFull, ChromaLocation: formats.ChromaTopLeft}
	for _, v := range []stream.Variant{stream.VariantDraw, stream.VariantCompute} {
		s, err := stream.New(dev, stream.Options{})
		if err != nil {
			t.Fatal(err)
		}
		cfg := stream.Config{Format: pf, Width: w, Height: h, Params: p, Choice: formats.ChooseShader, Variant: v}
		if _, err := s.Configure(cfg); err != nil {
			t.Fatal(err)
		}
		plain := drawOne(t, dev, s, pic)
		cfg.Deband = ycbcr.DefaultDeband
		if _, err := s.Configure(cfg); err != nil {
			t.Fatal(err)
		}
		want := drawOne(t, dev, s, pic)
		if d := maxDiff(plain, want); d == 0 {
			t.Fatalf("%s: the debanded picture is the plain one", v)
		}
		for _, route := range []stream.Route{stream.RouteInPlace, stream.RouteCopy} {
			hw := routed(t, s, cfg, route, up, pic)
			got, taken, why := drawForeign(t, dev, s, hw.HW.Foreign(), w, h)
			hw.Release()
			if taken != route {
				t.Fatalf("%s: route %s taken for %s: %s", v, taken, route, why)
			}
			d, dp := maxDiff(got, want), maxDiff(got, plain)
			t.Logf("%s %s: %d/255 from the uploaded picture debanded, %d from it plain", v, route, d, dp)
			if d != 0 || dp == 0 {
				t.Errorf("%s %s: %d/255 from the uploaded picture debanded (want 0), %d from it plain (want > 0)", v, route, d, dp)
			}
		}
		s.Close()
	}
}

// TestForeignPeak: the peak of hardware-decoded PQ pictures is measured on every route. A p010le
// PQ picture (4000 cd/m² metadata, a 16×8 highlight of about 400 cd/m²) in FFmpeg's own Vulkan
// frames, drawn in place and through the GPU copy with both variants (in place with the compute
// variant the pass reads the decoder's image in the Pre batch, before its semaphore is signalled):
// once the first frames' measurements are back, the stream's peak is the highlight's within 0.5%.
// Before, foreign frames were not measured and the peak stayed unknown (0).
func TestForeignPeak(t *testing.T) {
	dev, up := newUploader(t)
	pf, _ := formats.Lookup("p010le")
	const w, h = 64, 32
	pic, err := formats.NewFrame(pf, w, h)
	if err != nil {
		t.Fatal(err)
	}
	code := func(nits float64) uint16 { return uint16(math.Round(64 + 876*oracle.PQInverseEOTF(nits))) }
	ground, hi := code(20), code(400)
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			c := ground
			if x >= 40 && x < 56 && y >= 16 && y < 24 {
				c = hi
			}
			pic.SetCode(formats.Y, x, y, c)
		}
	}
	for y := 0; y < h/2; y++ {
		for x := 0; x < w/2; x++ {
			pic.SetCode(formats.Cb, x, y, 512)
			pic.SetCode(formats.Cr, x, y, 512)
		}
	}
	truePeak := oracle.PQEOTF((float64(hi) - 64) / 876)
	p := ycbcr.Params{Matrix: formats.MatrixBT2020NCL, Range: formats.RangeLimited, ChromaLocation: formats.ChromaTopLeft,
		Transfer: formats.TransferSMPTE2084, Primaries: formats.PrimariesBT2020, HDR: formats.HDRMetadata{MaxLuminance: 4000}}
	for _, v := range []stream.Variant{stream.VariantDraw, stream.VariantCompute} {
		for _, route := range []stream.Route{stream.RouteInPlace, stream.RouteCopy} {
			s, err := stream.New(dev, stream.Options{})
			if err != nil {
				t.Fatal(err)
			}
			cfg := stream.Config{Format: pf, Width: w, Height: h, Params: p, Choice: formats.ChooseShader, Variant: v, Peak: true, Route: route}
			if _, err := s.Configure(cfg); err != nil {
				t.Fatal(err)
			}
			for i := 0; i < 4; i++ {
				hw, err := up.Upload(pic)
				if err != nil {
					t.Fatal(err)
				}
				_, taken, why := drawForeign(t, dev, s, hw.HW.Foreign(), w, h)
				hw.Release()
				if taken != route {
					t.Fatalf("%s: route %s taken for %s: %s", v, taken, route, why)
				}
			}
			t.Logf("%s %s: peak %.2f cd/m² (true %.2f)", v, route, s.Peak(), truePeak)
			if math.Abs(s.Peak()-truePeak) > 0.005*truePeak {
				t.Errorf("%s %s: peak %.2f cd/m² after 4 frames, want %.2f within 0.5%%", v, route, s.Peak(), truePeak)
			}
			s.Close()
		}
	}
}
