package planes_test

import (
	"testing"

	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/internal/pictest"
	"github.com/ycbcrkit/ycbcrkit/planes"
	"github.com/ycbcrkit/ycbcrkit/testvectors/synth"
	"github.com/ycbcrkit/ycbcrkit/ycbcr"
)

// TestParallelStage: a frame large enough for Stage to split its copy across cores, at an odd size
// (the padding is staged too), converts within the oracle's bounds like every copy-path picture,
// and Stage allocates nothing per frame.
func TestParallelStage(t *testing.T) {
	dev, conv := newConverter(t)
	for _, name := range []string{"yuv420p", "yuyv422", "yuv420p10le"} {
		pf, _ := formats.Lookup(name)
		f, err := synth.Noise(pf, 1025, 689, 6)
		if err != nil {
			t.Fatal(err)
		}
		path := ycbcr.PathShader
		im, err := planes.New(dev, pf, f.Width, f.Height, planes.Paths{Shader: true})
		if err != nil {
			t.Fatal(err)
		}
		if im.StagedBytes() < 1<<20 {
			t.Fatalf("%s: %d staged bytes: too small to be split", name, im.StagedBytes())
		}
		got, _, err := render(t, conv, im, f, params, path, planes.UploadCopy)
		if err != nil {
			t.Fatal(err)
		}
		if n := testing.AllocsPerRun(5, func() {
			if err := im.Stage(f); err != nil {
				t.Fatal(err)
			}
		}); n != 0 {
			t.Errorf("%s: %.1f allocations per Stage", name, n)
		}
		im.Destroy()
		// The reference: the oracle's bounds, as for every copy-path picture.
		if fails, worst, where := pictest.Mismatch(got, oracleBounds(t, dev, f, params, path)); fails > 0 {
			t.Errorf("%s: %d values outside the oracle's bounds, worst %.2f LSB at %s", name, fails, worst, where)
		}
	}
}
