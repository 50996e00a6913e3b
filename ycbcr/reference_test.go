package ycbcr_test

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/testvectors"
	"github.com/ycbcrkit/ycbcrkit/testvectors/synth"
	"github.com/ycbcrkit/ycbcrkit/testvectors/zscale"
	"github.com/ycbcrkit/ycbcrkit/ycbcr"
)

// example is testvectors/ycbcr-example-4x2.json (docs/ycbcr-math.md §8): the worked example,
// computed by hand from the Vulkan spec's formulas, not by this project.
type example struct {
	Y       [][]uint16 `json:"plane0_Y"`
	Cb, Cr  [][]uint16
	Results map[string][]struct {
		I, J   int
		RGB    [3]float64    `json:"rgb"`
		Bounds [3][2]float64 `json:"cts_model_bounds_subtexel8"`
	}
}

func loadExample(t *testing.T) example {
	t.Helper()
	var ex example
	if err := json.Unmarshal(testvectors.Example4x2, &ex); err != nil {
		t.Fatal(err)
	}
	return ex
}

// TestWorkedExample draws the 4×2 example through both paths, in yuv420p and nv12. Shader path:
// within 1/255 of the exact values. Sampler path: within the spec's (CTS-model) bounds, at the
// sitings the device offers. COSITED_EVEN is the top-left location here (the chroma is one row, so
// y siting has no effect), MIDPOINT the center one.
func TestWorkedExample(t *testing.T) {
	ex := loadExample(t)
	dev, conv := openConverter(t)
	sitings := map[string]formats.ChromaLocation{"COSITED_EVEN": formats.ChromaTopLeft, "MIDPOINT": formats.ChromaCenter}
	samplerRuns := 0
	for _, name := range []string{"yuv420p", "nv12"} {
		pf, _ := formats.Lookup(name)
		f, err := formats.NewFrame(pf, 4, 2)
		if err != nil {
			t.Fatal(err)
		}
		for y, row := range ex.Y {
			for x, v := range row {
				f.SetCode(formats.Y, x, y, v)
			}
		}
		for x := range ex.Cb[0] {
			f.SetCode(formats.Cb, x, 0, ex.Cb[0][x])
			f.SetCode(formats.Cr, x, 0, ex.Cr[0][x])
		}
		for table, loc := range sitings {
			p := ycbcr.Params{Matrix: formats.MatrixBT709, Range: formats.RangeLimited, ChromaLocation: loc}
			img, err := conv.Convert(f, p, formats.PathShader)
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range ex.Results[table] {
				for c := 0; c < 3; c++ {
					got := float64(img.Pix[img.PixOffset(r.I, r.J)+c])
					if d := math.Abs(got - r.RGB[c]*255); d > 1 {
						t.Errorf("%s %s shader path (%d,%d) channel %d: %v, want %.3f (off %.2f/255)", name, table, r.I, r.J, c, got, r.RGB[c]*255, d)
					}
				}
			}
			if _, err := ycbcr.SamplerKey(dev, pf, p); err != nil {
				t.Logf("%s %s: sampler path not offered: %v", name, table, err)
				continue
			}
			samplerRuns++
			img, err = conv.Convert(f, p, formats.PathSampler)
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range ex.Results[table] {
				for c := 0; c < 3; c++ {
					got := float64(img.Pix[img.PixOffset(r.I, r.J)+c]) / 255
					// The bounds are for the float result; the target rounds to 8 bits.
					lo, hi := math.Floor(r.Bounds[c][0]*255)/255, math.Ceil(r.Bounds[c][1]*255)/255
					if got < lo || got > hi {
						t.Errorf("%s %s sampler path (%d,%d) channel %d: %.4f outside the spec's bounds [%.4f, %.4f]", name, table, r.I, r.J, c, got, r.Bounds[c][0], r.Bounds[c][1])
					}
				}
			}
		}
	}
	if samplerRuns == 0 {
		t.Fatal("the device offered neither siting of the worked example on the sampler path")
	}
}

// TestAgainstZscale compares both paths with FFmpeg's zscale on random 4:2:0 and 4:2:2 frames for
// every chroma location: the shader path at all six, the sampler path at those the device offers.
// Shader path: the exact value rounded to 8 bits (0.5 LSB plus fp32 slack). Sampler path: 4 LSB,
// the oracle's hardware slack at 8 bits (4·2^−8, docs/ycbcr-math.md §5.4): lavapipe filters 8-bit
// planes in 8-bit fixed point and the matrix amplifies that (measured 2.2 LSB). A half-sample siting
// error on this noise is ~100 LSB.
func TestAgainstZscale(t *testing.T) {
	dev, conv := openConverter(t)
	limits := map[formats.Path]float64{formats.PathShader: 0.5 + 0.01, formats.PathSampler: 4}
	worst := map[formats.Path]float64{}
	samplerRuns := 0
	for _, name := range []string{"yuv420p", "yuv422p"} {
		pf, _ := formats.Lookup(name)
		f, err := synth.Noise(pf, 16, 8, 7)
		if err != nil {
			t.Fatal(err)
		}
		var cases []zscale.Case // every range and location, in one ffmpeg run
		for _, r := range []formats.Range{formats.RangeLimited, formats.RangeFull} {
			for _, loc := range locations {
				cases = append(cases, zscale.Case{Matrix: formats.MatrixBT709, Range: r, ChromaLocation: loc})
			}
		}
		refs, err := zscale.ConvertMany(f, cases)
		if err != nil {
			t.Fatal(err)
		}
		for k, cs := range cases {
			r, loc, ref := cs.Range, cs.ChromaLocation, refs[k]
			p := ycbcr.Params{Matrix: formats.MatrixBT709, Range: r, ChromaLocation: loc}
			for _, path := range []formats.Path{formats.PathShader, formats.PathSampler} {
				if path == formats.PathSampler {
					if _, err := ycbcr.SamplerKey(dev, pf, p); err != nil {
						continue
					}
					samplerRuns++
				}
				img, err := conv.Convert(f, p, path)
				if err != nil {
					t.Fatal(err)
				}
				maxd := 0.0
				for i, want := range ref {
					for c := 0; c < 3; c++ {
						w := math.Min(math.Max(want[c], 0), 1) * 255 // the UNORM target clamps
						got := float64(img.Pix[img.PixOffset(i%f.Width, i/f.Width)+c])
						maxd = math.Max(maxd, math.Abs(got-w))
					}
				}
				worst[path] = math.Max(worst[path], maxd)
				if maxd > limits[path] {
					t.Errorf("%s %s %s via %s: %.2f LSB from zscale (limit %.2f)", name, r, loc, path, maxd, limits[path])
				}
			}
		}
	}
	t.Logf("worst difference from zscale: shader path %.3f LSB, sampler path %.3f LSB (%d sampler runs)",
		worst[formats.PathShader], worst[formats.PathSampler], samplerRuns)
	if samplerRuns == 0 {
		t.Fatal("no siting offered by the sampler path")
	}
}
