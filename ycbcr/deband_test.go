package ycbcr_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/ycbcr"
)

// floatPSNR is the PSNR in dB of got (0..1) against want (in 8-bit codes, as floats) over R, G, B.
func floatPSNR(got [][3]float64, want [][3]float64) float64 {
	se := 0.0
	for i := range got {
		for c := 0; c < 3; c++ {
			d := got[i][c]*255 - want[i][c]
			se += d * d
		}
	}
	return 10 * math.Log10(255*255/(se/float64(3*len(got))))
}

// debandCase is a smooth picture (R′G′B′ in 8-bit codes, as floats) and its 8-bit source (rounded).
func debandCase(t *testing.T, w, h int, smooth func(x, y int) [3]float64) (*formats.Frame, [][3]float64, [][3]float64) {
	t.Helper()
	ref := make([][3]float64, w*h)
	src := make([][3]float64, w*h)
	f := rgbFrame(t, w, h, func(x, y int) [3]uint8 {
		v := smooth(x, y)
		var c [3]uint8
		for k := range v {
			c[k] = uint8(math.Round(math.Max(0, math.Min(255, v[k]))))
			ref[y*w+x][k], src[y*w+x][k] = v[k], float64(c[k])/255
		}
		return c
	})
	return f, ref, src
}

// TestDeband is issue 27's check of debanding, with the settings `ycbcrplay -deband` uses
// (DefaultDeband; TestParseDeband: -deband's empty value is DefaultDeband). On 8-bit gradients whose
// steps one code apart are 32 pixels wide (bands), horizontal, vertical and diagonal, the PSNR
// against the smooth original rises by at least 6 dB; on a zone plate and on noise (detail:
// neighbours differ by more than the threshold) it falls by at most 0.5 dB. The pass's output is
// read back as it is kept, rgba32f, before any dither. Logged beside: libplacebo's own settings
// (one random direction, grain 6) and each of those changes alone.
func TestDeband(t *testing.T) {
	_, conv := openConverter(t)
	rng := rand.New(rand.NewPCG(7, 27))
	noise := make([][3]float64, 256*128)
	for i := range noise {
		noise[i] = [3]float64{rng.Float64() * 255, rng.Float64() * 255, rng.Float64() * 255}
	}
	for _, tc := range []struct {
		name   string
		w, h   int
		smooth func(x, y int) [3]float64
		gain   float64 // the least PSNR gain, dB (negative: the most loss)
	}{
		{"stepped horizontal gradient", 512, 128, func(x, y int) [3]float64 {
			return [3]float64{64 + 16*float64(x)/512, 100 + 16*float64(x)/512, 180 - 16*float64(x)/512}
		}, 6},
		{"stepped vertical gradient", 128, 512, func(x, y int) [3]float64 {
			return [3]float64{64 + 16*float64(y)/512, 100 + 16*float64(y)/512, 180 - 16*float64(y)/512}
		}, 6},
		{"stepped diagonal gradient", 384, 384, func(x, y int) [3]float64 {
			return [3]float64{64 + 16*float64(x+y)/768, 100 + 16*float64(x+y)/768, 180 - 16*float64(x+y)/768}
		}, 6},
		{"zone plate", 256, 256, func(x, y int) [3]float64 {
			dx, dy := float64(x-128), float64(y-128)
			v := 127.5 + 127.5*math.Cos(math.Pi*(dx*dx+dy*dy)/256)
			return [3]float64{v, v, v}
		}, -0.5},
		{"noise", 256, 128, func(x, y int) [3]float64 { return noise[y*256+x] }, -0.5},
	} {
		f, ref, src := debandCase(t, tc.w, tc.h, tc.smooth)
		before := floatPSNR(src, ref)
		psnr := func(prm ycbcr.DebandParams) float64 {
			got, err := conv.DebandFloats(f, rgbParams, formats.PathShader, prm)
			if err != nil {
				t.Fatalf("%s: %v", tc.name, err)
			}
			return floatPSNR(got, ref)
		}
		after := psnr(ycbcr.DefaultDeband)
		grain, one, libplacebo := ycbcr.DefaultDeband, ycbcr.DefaultDeband, ycbcr.DefaultDeband
		grain.Grain, one.Samples = 6, 1
		libplacebo.Grain, libplacebo.Samples = 6, 1
		t.Logf("%s: PSNR %.2f dB as 8-bit, %.2f dB debanded (%+.2f); with grain 6 %+.2f, one direction %+.2f, both (libplacebo's) %+.2f",
			tc.name, before, after, after-before, psnr(grain)-before, psnr(one)-before, psnr(libplacebo)-before)
		if after-before < tc.gain {
			t.Errorf("%s: debanding changed the PSNR by %+.2f dB, want ≥ %+.1f", tc.name, after-before, tc.gain)
		}
	}
}

// TestParseDeband reads -deband's settings.
func TestParseDeband(t *testing.T) {
	for s, want := range map[string]ycbcr.DebandParams{
		"":                           ycbcr.DefaultDeband,
		"off":                        {},
		"iterations=2:threshold=6":   {Iterations: 2, Samples: 4, Threshold: 6, Radius: 16},
		"grain=6:radius=8:samples=1": {Iterations: 1, Samples: 1, Threshold: 4, Radius: 8, Grain: 6},
	} {
		got, err := ycbcr.ParseDeband(s)
		if err != nil || got != want {
			t.Errorf("ParseDeband(%q) = %v, %v; want %v", s, got, err, want)
		}
	}
	for _, s := range []string{"iterations=1.5", "radius=-1", "strength=3", "threshold", "samples=0"} {
		if _, err := ycbcr.ParseDeband(s); err == nil {
			t.Errorf("ParseDeband(%q) accepted", s)
		}
	}
}
