package ycbcr_test

import (
	"testing"

	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/internal/pictest"
	"github.com/ycbcrkit/ycbcrkit/testvectors/synth"
	"github.com/ycbcrkit/ycbcrkit/ycbcr"
	ycbcrcheck "github.com/ycbcrkit/ycbcrkit/ycbcr/check"
	"github.com/ycbcrkit/ycbcrkit/ycbcr/oracle"
)

// TestComputeMatchesOracle: the compute variants of both paths give pictures within the oracle's
// bounds, like the drawn ones, for layouts of every kind (3-plane, 2-plane, packed, 10-bit, gray)
// and an odd size.
func TestComputeMatchesOracle(t *testing.T) {
	dev, conv := openConverter(t)
	sampled := 0
	for _, name := range []string{"yuv420p", "nv12", "yuv422p", "yuyv422", "p010le", "yuv444p10le", "gray"} {
		pf, _ := formats.Lookup(name)
		for _, size := range [][2]int{{16, 8}, {21, 13}} {
			if pf.Log2ChromaW > 0 && size[0]%2 == 1 && pf.Log2ChromaH == 0 && len(pf.Planes) == 1 {
				continue // packed 4:2:2 rows hold whole blocks
			}
			f, err := synth.Noise(pf, size[0], size[1], 3)
			if err != nil {
				t.Fatal(err)
			}
			p := ycbcr.Params{Matrix: formats.MatrixBT709, Range: formats.RangeLimited, ChromaLocation: formats.ChromaTopLeft}
			for _, path := range []formats.Path{formats.PathShader, formats.PathSampler} {
				if path == formats.PathSampler {
					if _, err := ycbcr.SamplerKey(dev, pf, p); err != nil {
						continue
					}
					sampled++
				}
				img, err := conv.ConvertCompute(f, p, path)
				if err != nil {
					t.Fatal(err)
				}
				prm, _ := ycbcrcheck.OracleParams(pf, p)
				if path == formats.PathShader {
					prm.X6 = false
				}
				bounds := oracle.ImageBounds(ycbcrcheck.OraclePicture(f), prm, tolerance(dev, pf, path))
				if fails, worst, where := pictest.Mismatch(img, bounds); fails > 0 {
					t.Errorf("%s %dx%d via %s (compute): %d values outside the oracle's bounds, worst %.2f LSB at %s",
						name, size[0], size[1], path, fails, worst, where)
				}
			}
		}
	}
	if sampled == 0 {
		t.Fatal("the sampler path's compute variant was never exercised")
	}
}
