package planes

import (
	"bytes"
	"testing"

	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/internal/testkit/vktest"
	"github.com/ycbcrkit/ycbcrkit/testvectors/synth"
)

// TestParallelStage: for frames large enough for Stage to split its copy into row bands on several
// workers, at an odd size (the padding is staged too), the staging buffer holds exactly what the
// one-piece copy writes, for a planar, a packed and an LSB layout (which the CPU copies twice when
// the image keeps its own shader textures); and Stage allocates nothing per frame.
func TestParallelStage(t *testing.T) {
	dev := vktest.Open(t)
	for _, name := range []string{"yuv444p", "yuyv422", "yuv420p10le"} {
		pf, _ := formats.Lookup(name)
		f, err := synth.Noise(pf, 3841, 1101, 6)
		if err != nil {
			t.Fatal(err)
		}
		im, err := New(dev, pf, f.Width, f.Height, formats.PathShader)
		if err != nil {
			t.Fatal(err)
		}
		defer im.Destroy()
		if pf.SamplerShift > 0 {
			addShiftedLayout(t, im) // the CPU shifts too: no GPU pass was made for this image
		}
		if err := im.Stage(f); err != nil {
			t.Fatal(err)
		}
		if im.parallel.stager == nil {
			t.Fatalf("%s: %d staged bytes were not split (GOMAXPROCS too small?)", name, im.StagedBytes())
		}
		want := make([]byte, im.staged.staging.Size)
		for i, p := range pf.Planes {
			w, h := pf.PlaneSize(i, f.Width, f.Height)
			stagePlane(want, im.staged.layout[i], f.Planes[i], f.Strides[i], w*p.BytesPerTexel, h, p.BytesPerTexel, 0)
			if im.staged.shifted != nil {
				stagePlane(want, im.staged.shifted[i], f.Planes[i], f.Strides[i], w*p.BytesPerTexel, h, p.BytesPerTexel, pf.SamplerShift)
			}
		}
		got := im.staged.staging.Bytes()
		for _, l := range [][]stagedPlane{im.staged.layout, im.staged.shifted} {
			for i, sp := range l {
				a, b := got[sp.offset:sp.offset+sp.rowBytes*sp.height], want[sp.offset:sp.offset+sp.rowBytes*sp.height]
				if !bytes.Equal(a, b) {
					k := 0
					for a[k] == b[k] {
						k++
					}
					t.Errorf("%s plane %d: the split copy differs from the one-piece copy at row %d", name, i, k/sp.rowBytes)
				}
			}
		}
		if n := testing.AllocsPerRun(5, func() {
			if err := im.Stage(f); err != nil {
				t.Fatal(err)
			}
		}); n != 0 {
			t.Errorf("%s: %.1f allocations per Stage", name, n)
		}
	}
}
