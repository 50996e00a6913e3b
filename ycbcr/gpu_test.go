package ycbcr_test

import (
	"testing"

	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/gpu"
	"github.com/ycbcrkit/ycbcrkit/internal/testkit/pictest"
	"github.com/ycbcrkit/ycbcrkit/internal/testkit/vktest"
	"github.com/ycbcrkit/ycbcrkit/testvectors/synth"
	"github.com/ycbcrkit/ycbcrkit/ycbcr"
	ycbcrcheck "github.com/ycbcrkit/ycbcrkit/ycbcr/check"
	"github.com/ycbcrkit/ycbcrkit/ycbcr/oracle"
)

func tolerance(dev *gpu.Device, pf *formats.PixelFormat, path formats.Path) oracle.Tolerance {
	sub := int(dev.Limits.SubTexelPrecisionBits)
	var tol oracle.Tolerance
	if path == formats.PathSampler {
		tol = oracle.HardwareTolerance(pf.Depth, sub)
	} else {
		tol = oracle.ShaderTolerance(0) // the shader filters in fp32 with exact weights: no snapping
	}
	tol.UnormBits = 8
	return tol
}

// openConverter opens the validated test device and a converter on it, both freed when the test ends
// (the converter first).
func openConverter(t *testing.T) (*gpu.Device, *ycbcr.Paths) {
	t.Helper()
	dev := vktest.Open(t)
	conv, err := ycbcr.NewPaths(dev)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(conv.Destroy)
	return dev, conv
}

// check converts f through path and compares every pixel with the oracle's bounds.
func check(t *testing.T, conv *ycbcr.Paths, f *formats.Frame, p ycbcr.Params, path formats.Path) {
	t.Helper()
	img, err := conv.Convert(f, p, path)
	if err != nil {
		t.Fatalf("%s %s: %v", f.Format.Name, p, err)
	}
	prm, err := ycbcrcheck.OracleParams(f.Format, p)
	if err != nil {
		t.Fatal(err)
	}
	if path == formats.PathShader {
		prm.X6 = false // the shader path reads exact 16-bit containers
	}
	bounds := oracle.ImageBounds(ycbcrcheck.OraclePicture(f), prm, tolerance(conv.Dev, f.Format, path))
	if fails, worst, where := pictest.Mismatch(img, bounds); fails > 0 {
		t.Errorf("%s %dx%d %s via %s: %d values outside the oracle's bounds, worst %.2f LSB at %s",
			f.Format.Name, f.Width, f.Height, p, path, fails, worst, where)
	}
}

var locations = []formats.ChromaLocation{formats.ChromaLeft, formats.ChromaCenter, formats.ChromaTopLeft,
	formats.ChromaTop, formats.ChromaBottomLeft, formats.ChromaBottom}

// eachParams calls fn with every combination the GPU tests check for pf: two matrices, both ranges,
// every chroma location (one where pf has no subsampled chroma: siting has no effect there), on a
// noise frame of w×h and the siting probe.
func eachParams(t *testing.T, pf *formats.PixelFormat, w, h int, fn func(f *formats.Frame, p ycbcr.Params)) {
	t.Helper()
	noise, err := synth.Noise(pf, w, h, 1)
	if err != nil {
		t.Fatal(err)
	}
	probe, err := synth.SitingProbe(pf, 16, 8)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []formats.Matrix{formats.MatrixBT709, formats.MatrixSMPTE170M} {
		for _, r := range []formats.Range{formats.RangeLimited, formats.RangeFull} {
			for _, loc := range locations {
				for _, f := range []*formats.Frame{noise, probe} {
					fn(f, ycbcr.Params{Matrix: m, Range: r, ChromaLocation: loc})
				}
				if !pf.HasChroma() || pf.Log2ChromaW+pf.Log2ChromaH == 0 {
					break
				}
			}
		}
	}
}

// TestBothPathsMatchOracle runs every layout of the table through both paths at every siting, both
// ranges and two matrices, on noise and on the siting probe, and checks every pixel against the
// oracle. The sampler path runs where the device can express the stream; what it cannot is logged
// with the reason.
func TestBothPathsMatchOracle(t *testing.T) {
	dev, conv := openConverter(t)
	sampled, skipped := 0, map[string]bool{}
	for _, pf := range formats.All() {
		t.Run(pf.Name, func(t *testing.T) {
			eachParams(t, pf, 16, 8, func(f *formats.Frame, p ycbcr.Params) {
				check(t, conv, f, p, formats.PathShader)
				if _, err := ycbcr.SamplerKey(dev, pf, p); err != nil {
					skipped[err.Error()] = true
					return
				}
				sampled++
				check(t, conv, f, p, formats.PathSampler)
			})
		})
	}
	t.Logf("sampler path: %d conversions checked", sampled)
	for reason := range skipped {
		t.Logf("sampler path cannot express: %s", reason)
	}
	if sampled == 0 {
		t.Fatal("the sampler path was never exercised")
	}
}

// TestWrongSitingIsCaught proves the comparison can fail: converting at one siting and checking
// against the oracle at another must report mismatches.
func TestWrongSitingIsCaught(t *testing.T) {
	dev, conv := openConverter(t)
	pf, _ := formats.Lookup("yuv420p")
	f, err := synth.SitingProbe(pf, 16, 8)
	if err != nil {
		t.Fatal(err)
	}
	img, err := conv.Convert(f, ycbcr.Params{Matrix: formats.MatrixBT709, Range: formats.RangeLimited, ChromaLocation: formats.ChromaTopLeft}, formats.PathShader)
	if err != nil {
		t.Fatal(err)
	}
	prm, _ := ycbcrcheck.OracleParams(pf, ycbcr.Params{Matrix: formats.MatrixBT709, Range: formats.RangeLimited, ChromaLocation: formats.ChromaCenter})
	fails, worst, _ := pictest.Mismatch(img, oracle.ImageBounds(ycbcrcheck.OraclePicture(f), prm, tolerance(dev, pf, formats.PathShader)))
	if fails == 0 || worst < 10 {
		t.Fatalf("half-sample siting error not caught: %d fails, worst %.1f LSB", fails, worst)
	}
}
