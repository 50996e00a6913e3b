package planes_test

import (
	"image"
	"testing"

	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/internal/testkit/pictest"
	"github.com/ycbcrkit/ycbcrkit/internal/testkit/vktest"
	"github.com/ycbcrkit/ycbcrkit/planes"
	"github.com/ycbcrkit/ycbcrkit/testvectors/synth"
	"github.com/ycbcrkit/ycbcrkit/ycbcr"
)

// TestPlaneAliases: an image holding both paths' images makes the shader path's textures ALIAS_BIT
// images on the planes' memory where the device allows, so one upload fills both paths. From one
// load (copy, then import where possible), each path's picture must equal the picture of an image
// that holds that path alone: bit for bit at even sizes, and within the oracle's bounds at odd sizes
// (where the luma alias is padded and the coordinate crops it). The copy path copies each plane once.
func TestPlaneAliases(t *testing.T) {
	dev, conv := newConverter(t)
	aliased := 0
	for _, pf := range formats.All() {
		if _, err := ycbcr.SamplerKey(dev, pf, params); err != nil {
			continue
		}
		t.Run(pf.Name, func(t *testing.T) {
			for _, size := range [][2]int{{16, 8}, {63, 47}} {
				w, h := size[0], size[1]
				src, err := synth.Noise(pf, w, h, 3)
				if err != nil {
					t.Fatal(err)
				}
				both, err := planes.New(dev, pf, w, h, formats.PathSampler, formats.PathShader)
				if err != nil {
					t.Fatal(err)
				}
				defer both.Destroy()
				if !both.Aliased {
					if both.AliasReason == "" {
						t.Fatalf("%dx%d: no aliases and no reason", w, h)
					}
					if len(pf.Planes) > 1 {
						t.Logf("%s: no plane aliases: %s", pf.Name, both.AliasReason)
					}
					return
				}
				aliased++
				for i, tx := range both.Textures {
					pw, ph := pf.PlaneSize(i, both.PaddedWidth, both.PaddedHeight)
					if !tx.Alias || tx.Width != pw || tx.Height != ph {
						t.Errorf("texture %d: %+v, want an alias of the %dx%d plane", i, tx, pw, ph)
					}
				}
				want := map[formats.Path]*image.RGBA{}
				for _, path := range []formats.Path{formats.PathSampler, formats.PathShader} {
					one, err := planes.New(dev, pf, w, h, path)
					if err != nil {
						t.Fatal(err)
					}
					if want[path], _, err = render(t, conv, one, src, params, path, planes.UploadCopy); err != nil {
						t.Fatal(err)
					}
					if path == formats.PathSampler && one.StagedBytes() != both.StagedBytes() {
						t.Errorf("%dx%d: both paths stage %d bytes, the sampler path alone %d: the planes are copied more than once",
							w, h, both.StagedBytes(), one.StagedBytes())
					}
					one.Destroy()
				}
				m := mapFrame(t, src, 0)
				for _, how := range []planes.Upload{planes.UploadCopy, planes.UploadImport} {
					if err := both.Can(m.Frame, how); err != nil {
						t.Logf("%s %dx%d: %v: %v", pf.Name, w, h, how, err)
						continue
					}
					got, loaded, err := renderPaths(t, conv, both, m.Frame, params, how, formats.PathSampler, formats.PathShader)
					if err != nil {
						t.Fatal(err)
					}
					if how == planes.UploadCopy && loaded.CPUBytes != both.StagedBytes() {
						t.Errorf("copy: %d CPU bytes, want %d", loaded.CPUBytes, both.StagedBytes())
					}
					for path, img := range got {
						d := pictest.FirstDiff(want[path], img)
						switch {
						case d == "":
						case path == formats.PathShader && (w%2 == 1 || h%2 == 1):
							if fails, worst, where := pictest.Mismatch(img, oracleBounds(t, dev, src, params, path)); fails > 0 {
								t.Errorf("%dx%d %v %v: %d values outside the oracle's bounds, worst %.2f LSB at %s", w, h, path, how, fails, worst, where)
							}
						default:
							t.Errorf("%dx%d %v %v: differs from the single-path image at %s", w, h, path, how, d)
						}
					}
				}
				if imp := both.Importer(); imp != nil {
					if err := imp.ForgetFrame(m.Frame); err != nil {
						t.Fatal(err)
					}
				}
				m.unmap(t)
			}
			vktest.Check(t, dev)
		})
	}
	if aliased == 0 {
		t.Fatal("no layout got plane aliases on this device")
	}
}
