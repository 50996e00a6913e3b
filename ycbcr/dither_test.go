package ycbcr_test

import (
	"fmt"
	"image"
	"math"
	"testing"

	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/ycbcr"
	ycbcrcheck "github.com/ycbcrkit/ycbcrkit/ycbcr/check"
	"github.com/ycbcrkit/ycbcrkit/ycbcr/oracle"
)

// rampFrame is a 10-bit 4:2:0 grey ramp (p010le, which lavapipe samples through the Y′CbCr sampler): luma codes from 400 up by one every 30 pixels (64 10-bit
// codes, 16 8-bit codes, over 1920 pixels), chroma at its neutral code, h rows.
func rampFrame(t *testing.T, h int) *formats.Frame {
	t.Helper()
	pf, _ := formats.Lookup("p010le")
	f, err := formats.NewFrame(pf, 1920, h)
	if err != nil {
		t.Fatal(err)
	}
	for y := 0; y < h; y++ {
		for x := 0; x < 1920; x++ {
			f.SetCode(formats.Y, x, y, uint16(400+x/30))
			f.SetCode(formats.Cb, x/2, y/2, 512)
			f.SetCode(formats.Cr, x/2, y/2, 512)
		}
	}
	return f
}

// blockMeans are the means of 16×16 blocks of one channel of an 8-bit picture, in codes.
func blockMeans(img *image.RGBA, c int) []float64 {
	b := img.Bounds()
	var out []float64
	for by := 0; by+16 <= b.Dy(); by += 16 {
		for bx := 0; bx+16 <= b.Dx(); bx += 16 {
			sum := 0
			for y := by; y < by+16; y++ {
				for x := bx; x < bx+16; x++ {
					sum += int(img.Pix[img.PixOffset(x, y)+c])
				}
			}
			out = append(out, float64(sum)/256)
		}
	}
	return out
}

// idealMeans are the same blocks' means of the exact R′G′B′ (the oracle's, in 8-bit codes).
func idealMeans(want [][3]float64, w, h, c int) []float64 {
	var out []float64
	for by := 0; by+16 <= h; by += 16 {
		for bx := 0; bx+16 <= w; bx += 16 {
			sum := 0.0
			for y := by; y < by+16; y++ {
				for x := bx; x < bx+16; x++ {
					sum += want[y*w+x][c] * 255
				}
			}
			out = append(out, sum/256)
		}
	}
	return out
}

// worstDiff is the largest |a − b| of two lists.
func worstDiff(a, b []float64) (worst float64, at int) {
	for i := range a {
		if d := math.Abs(a[i] - b[i]); d > worst {
			worst, at = d, i
		}
	}
	return worst, at
}

// TestDitherRamp is issue 27's check of dithering: a 10-bit ramp of 16 8-bit codes over 1920
// pixels shown on an 8-bit target. Averaged over 16×16 blocks, the picture follows the exact
// 10-bit values (the oracle's) within 0.15 of an 8-bit step with dithering, blue noise and ordered,
// through both paths, drawn and computed; rounded to the nearest code (DitherOff, what every
// exactness test runs with) it steps by up to half a step, which the test also sees. Converting the
// picture again gives the same block means (within 0.05 of a step: a still picture stays still).
func TestDitherRamp(t *testing.T) {
	_, conv := openConverter(t)
	f := rampFrame(t, 32)
	p := ycbcr.Params{Matrix: formats.MatrixBT709, Range: formats.RangeFull, ChromaLocation: formats.ChromaTopLeft}
	for _, path := range []formats.Path{formats.PathSampler, formats.PathShader} {
		prm, err := ycbcrcheck.OracleParams(f.Format, p)
		if err != nil {
			t.Fatal(err)
		}
		prm.X6 = path == formats.PathSampler && prm.X6 // the shader path reads exact 16-bit containers
		want := rgb(oracle.Image(ycbcrcheck.OraclePicture(f), prm))
		ideal := idealMeans(want, f.Width, f.Height, 1)
		for _, compute := range []bool{false, true} {
			for _, d := range []ycbcr.Dither{ycbcr.DitherOff, ycbcr.DitherBlue, ycbcr.DitherOrdered} {
				name := fmt.Sprintf("%s compute=%v dither=%s", path, compute, d)
				q := p
				q.Dither = d
				convert := conv.Convert
				if compute {
					convert = conv.ConvertCompute
				}
				img, err := convert(f, q, path)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				got := blockMeans(img, 1)
				worst, at := worstDiff(got, ideal)
				t.Logf("%s: block means within %.3f of the 10-bit ideal (block %d)", name, worst, at)
				if d == ycbcr.DitherOff {
					if worst < 0.3 {
						t.Errorf("%s: rounded to the nearest code the ramp's blocks are within %.3f of the ideal; want the steps (≥ 0.3) this test exists to catch", name, worst)
					}
					continue
				}
				if worst > 0.15 {
					t.Errorf("%s: block %d's mean is %.3f from the 10-bit ideal, want ≤ 0.15 of an 8-bit step", name, at, worst)
				}
				again, err := convert(f, q, path)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				if moved, at := worstDiff(blockMeans(again, 1), got); moved > 0.05 {
					t.Errorf("%s: block %d's mean moved by %.3f between two conversions of the same picture, want ≤ 0.05", name, at, moved)
				}
			}
		}
	}
}

// TestDitherKeepsExactCodes: a picture whose exact values are codes of the target (8-bit R′G′B′
// through the identity matrix) is unchanged by dithering, through both variants of the shader path.
func TestDitherKeepsExactCodes(t *testing.T) {
	_, conv := openConverter(t)
	f := rgbFrame(t, 64, 32, func(x, y int) [3]uint8 { return [3]uint8{uint8(x * 4), uint8(y * 8), uint8(x ^ y)} })
	for _, d := range []ycbcr.Dither{ycbcr.DitherBlue, ycbcr.DitherOrdered} {
		q := rgbParams
		q.Dither = d
		for _, convert := range []func(*formats.Frame, ycbcr.Params, formats.Path) (*image.RGBA, error){conv.Convert, conv.ConvertCompute} {
			img, err := convert(f, q, formats.PathShader)
			if err != nil {
				t.Fatal(err)
			}
			for y := 0; y < f.Height; y++ {
				for x := 0; x < f.Width; x++ {
					o := img.PixOffset(x, y)
					got := [3]uint8{img.Pix[o], img.Pix[o+1], img.Pix[o+2]}
					if want := [3]uint8{uint8(x * 4), uint8(y * 8), uint8(x ^ y)}; got != want {
						t.Fatalf("dither %s: pixel (%d, %d) is %v, want %v", d, x, y, got, want)
					}
				}
			}
		}
	}
}

// TestDitherScaled: the scale pass dithers its output too. The ramp scaled to half its width and
// height (bilinear, drawn and written by compute into the target) follows the exact ramp's 16×16
// block means within 0.15 of a step. The ideal is the oracle's picture averaged over 2×2 boxes: along
// the rows the ramp is constant, and a block's mean of any normalised symmetric filter's output of
// the (piecewise constant, rising) rows differs from the box's only at the picture's edges.
func TestDitherScaled(t *testing.T) {
	_, conv := openConverter(t)
	f := rampFrame(t, 64)
	p := ycbcr.Params{Matrix: formats.MatrixBT709, Range: formats.RangeFull, ChromaLocation: formats.ChromaTopLeft, Dither: ycbcr.DitherBlue}
	prm, err := ycbcrcheck.OracleParams(f.Format, p)
	if err != nil {
		t.Fatal(err)
	}
	prm.X6 = false
	full := rgb(oracle.Image(ycbcrcheck.OraclePicture(f), prm))
	w, h := f.Width/2, f.Height/2
	half := make([][3]float64, w*h)
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			for c := 0; c < 3; c++ {
				half[y*w+x][c] = (full[2*y*f.Width+2*x][c] + full[2*y*f.Width+2*x+1][c] + full[(2*y+1)*f.Width+2*x][c] + full[(2*y+1)*f.Width+2*x+1][c]) / 4
			}
		}
	}
	ideal := idealMeans(half, w, h, 1)
	v := ycbcr.Fit(f.Width, f.Height, w, h, formats.Orientation{}, ycbcr.FilterBilinear)
	for name, convert := range map[string]func(*formats.Frame, ycbcr.Params, formats.Path, ycbcr.ScaleView) (*image.RGBA, error){
		"drawn": conv.ConvertScaled, "into": conv.ConvertScaledInto} {
		img, err := convert(f, p, formats.PathShader, v)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		worst, at := worstDiff(blockMeans(img, 1), ideal)
		t.Logf("%s: block means within %.3f of the ideal", name, worst)
		if worst > 0.15 {
			t.Errorf("%s: block %d's mean is %.3f from the ideal, want ≤ 0.15 of an 8-bit step", name, at, worst)
		}
	}
}
