// An external test: it decodes through oracletest.FirstFrame, and oracletest imports this package.
package decode_test

import (
	"math"
	"path/filepath"
	"testing"

	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/internal/testkit/oracletest"
	"github.com/ycbcrkit/ycbcrkit/internal/testkit/pictest"
)

const mediaDir = "../testvectors/media"

// TestExpectedPictures ties the three sources together for every vector: the first frame as this
// package decodes it, reconstructed with the metadata it resolved (bilinear chroma at the resolved
// siting, clamped at the edges; range expansion; the matrix), must match the PNG make.sh wrote with
// zscale from the manifest's metadata to within one code. A siting, range or matrix mix-up on either
// side moves pixels by tens of codes.
func TestExpectedPictures(t *testing.T) {
	for _, v := range pictest.Vectors(t, mediaDir) {
		t.Run(v.Name, func(t *testing.T) {
			img := pictest.ReadPNG(t, filepath.Join(mediaDir, v.PNG))
			f := oracletest.FirstFrame(t, filepath.Join(mediaDir, v.File))
			if b := img.Bounds(); b.Dx() != v.Width || b.Dy() != v.Height {
				t.Fatalf("png %v, vector %dx%d", b, v.Width, v.Height)
			}
			worst, at := 0.0, [2]int{}
			for y := 0; y < v.Height; y++ {
				for x := 0; x < v.Width; x++ {
					rgb := reconstruct(t, f.Picture, f.Color, x, y)
					r, g, b, _ := img.At(x, y).RGBA()
					for i, c := range []uint32{r >> 8, g >> 8, b >> 8} {
						if e := math.Abs(rgb[i]*255 - float64(c)); e > worst {
							worst, at = e, [2]int{x, y}
						}
					}
				}
			}
			if worst > 1.01 {
				t.Errorf("differs from %s by up to %.2f codes (at %v)", v.PNG, worst, at)
			}
		})
	}
}

// reconstruct computes R′G′B′ (0..1) of pixel (x, y) the way the Vulkan spec's implicit LINEAR
// reconstruction does: chroma sample k sits at luma position 2k + offset (offset from the chroma
// location), and the pixel interpolates the two nearest samples per subsampled axis, clamped.
func reconstruct(t *testing.T, pic *formats.Frame, c formats.Color, x, y int) [3]float64 {
	pf := pic.Format
	px, py, err := c.ChromaLocation.Position()
	if err != nil {
		t.Fatal(err)
	}
	cw, ch := pic.ChannelSize(formats.Cb)
	sample := func(ch formats.Channel, u, v float64, w, h int) float64 {
		u0, v0 := math.Floor(u), math.Floor(v)
		a, b := u-u0, v-v0
		at := func(i, j float64) float64 {
			ii := int(math.Max(0, math.Min(float64(w-1), i)))
			jj := int(math.Max(0, math.Min(float64(h-1), j)))
			return float64(pic.Code(ch, ii, jj))
		}
		return (1-a)*(1-b)*at(u0, v0) + a*(1-b)*at(u0+1, v0) + (1-a)*b*at(u0, v0+1) + a*b*at(u0+1, v0+1)
	}
	coord := func(p float64, log2 int, i int) float64 {
		if log2 == 0 {
			return float64(i)
		}
		return (float64(i) - p) / 2
	}
	u, v := coord(px, pf.Log2ChromaW, x), coord(py, pf.Log2ChromaH, y)
	Y := float64(pic.Code(formats.Y, x, y))
	Cb, Cr := sample(formats.Cb, u, v, cw, ch), sample(formats.Cr, u, v, cw, ch)

	q := math.Ldexp(1, pf.Depth-8)
	var yn, cbn, crn float64
	if c.Range == formats.RangeFull {
		m := math.Ldexp(1, pf.Depth) - 1
		yn, cbn, crn = Y/m, (Cb-128*q)/m, (Cr-128*q)/m
	} else {
		yn, cbn, crn = (Y-16*q)/(219*q), (Cb-128*q)/(224*q), (Cr-128*q)/(224*q)
	}
	kr, kb, ok := c.Matrix.Coefficients()
	if !ok {
		t.Fatalf("matrix %s", c.Matrix)
	}
	r := yn + 2*(1-kr)*crn
	b := yn + 2*(1-kb)*cbn
	g := (yn - kr*r - kb*b) / (1 - kr - kb)
	clamp := func(v float64) float64 { return math.Max(0, math.Min(1, v)) }
	return [3]float64{clamp(r), clamp(g), clamp(b)}
}
