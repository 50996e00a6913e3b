package ycbcr_test

import (
	"testing"

	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/internal/testkit/pictest"
	"github.com/ycbcrkit/ycbcrkit/planes"
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

// TestComputeBindingsOutgrowAPool: one path's compute bindings are not bounded by one descriptor
// pool (gpu.Kit's pools grow). A wall of 16 streams binds a set per picture of each stream; with one fixed pool of 16 sets
// the 17th binding failed with VK_ERROR_OUT_OF_POOL_MEMORY (NVIDIA, 16 × 1080p). 40 bindings on
// each path, then the first ones freed and taken again (sets go back to the pool they came from),
// and one of the last converted, checked against the oracle.
func TestComputeBindingsOutgrowAPool(t *testing.T) {
	dev, conv := openConverter(t)
	pf, _ := formats.Lookup("nv12")
	f, err := synth.Noise(pf, 16, 8, 5)
	if err != nil {
		t.Fatal(err)
	}
	p := ycbcr.Params{Matrix: formats.MatrixBT709, Range: formats.RangeLimited, ChromaLocation: formats.ChromaTopLeft}
	paths := []formats.Path{formats.PathShader}
	if _, err := ycbcr.SamplerKey(dev, pf, p); err == nil {
		paths = append(paths, formats.PathSampler)
	}
	im, err := planes.New(dev, pf, 16, 8, paths...)
	if err != nil {
		t.Fatal(err)
	}
	defer im.Destroy()
	store, err := dev.NewStorageOffscreen(16, 8)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Destroy()
	for _, path := range paths {
		var bs []*ycbcr.ComputeBinding
		for i := 0; i < 40; i++ {
			b, err := conv.BindCompute(im, p, path, store.View)
			if err != nil {
				t.Fatalf("%s: binding %d: %v", path, i+1, err)
			}
			bs = append(bs, b)
		}
		// That no pool was asked for more than its maxSets (which lavapipe would grant) is the kit's
		// own test: gpu's TestKitPoolsGrow.
		for _, b := range bs[:10] {
			b.Destroy()
		}
		for i := range 10 {
			if bs[i], err = conv.BindCompute(im, p, path, store.View); err != nil {
				t.Fatalf("%s: binding %d again: %v", path, i+1, err)
			}
		}
		for _, b := range bs {
			b.Destroy()
		}
	}
	// The pools still serve a conversion after all that.
	img, err := conv.ConvertCompute(f, p, formats.PathShader)
	if err != nil {
		t.Fatal(err)
	}
	prm, _ := ycbcrcheck.OracleParams(pf, p)
	prm.X6 = false
	bounds := oracle.ImageBounds(ycbcrcheck.OraclePicture(f), prm, tolerance(dev, pf, formats.PathShader))
	if fails, worst, where := pictest.Mismatch(img, bounds); fails > 0 {
		t.Errorf("after 80 bindings: %d values outside the oracle's bounds, worst %.2f LSB at %s", fails, worst, where)
	}
}
