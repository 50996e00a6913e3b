package check

import (
	"image"
	imagedraw "image/draw"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/image/font"
	"golang.org/x/image/math/fixed"
)

// failingCombo is a combination with failures on both paths, in every panel, at every level of
// the colour scale: no device needed.
func failingCombo() ComboResult {
	pr := func(scale float64) *PathResult {
		p := &PathResult{Pixels: 4 * 16 * 8 * 3, WorstLSB: 40 * scale, Worst: "noise centre (3,2)"}
		for i, ex := range []float64{0.5, 1.5, 3, 6, 12, 24, 40} {
			for _, fr := range frameNames {
				for _, sm := range samplingNames {
					p.Failures = append(p.Failures, Failure{Frame: fr, Sampling: sm, X: i * 2, Y: i % 8, ExcessLSB: ex * scale})
				}
			}
		}
		p.Failed = len(p.Failures)
		p.Passed = p.Pixels - p.Failed
		return p
	}
	return ComboResult{Name: "bt709-narrow-cosited-linear", Model: "bt709", Range: "narrow", Location: "cosited", Filter: "linear",
		Sampler: pr(1), Shader: pr(0.5)}
}

// TestLabelledHeatMap: the labelled image holds HeatMap's pixels unchanged at the layout's offset,
// and every string it drew (the title with format, combination, path and worst value, the colour
// scale's tick labels) is exactly what x/image/font's own Drawer draws for that string at that pen
// position, and not empty.
func TestLabelledHeatMap(t *testing.T) {
	c := failingCombo()
	const w, h = 16, 8
	img, lay, err := labelledHeatMap("yuv420p", c, w, h)
	if err != nil {
		t.Fatal(err)
	}
	hm := HeatMap(c, w, h)
	mb := hm.Bounds()
	if !mb.Add(lay.mapAt).In(img.Bounds()) {
		t.Fatalf("map %v at %v outside the image %v", mb, lay.mapAt, img.Bounds())
	}
	for y := mb.Min.Y; y < mb.Max.Y; y++ {
		for x := mb.Min.X; x < mb.Max.X; x++ {
			want := heatColors[hm.ColorIndexAt(x, y)]
			if got := img.At(lay.mapAt.X+x, lay.mapAt.Y+y); got != want {
				t.Fatalf("map pixel (%d,%d): %v in the labelled image, %v in HeatMap", x, y, got, want)
			}
		}
	}

	all := ""
	for _, l := range lay.text {
		all += l.text + "\n"
	}
	for _, want := range []string{"yuv420p", "bt709", "narrow range", "siting cosited", "sampler path", "shader path",
		"worst 40.00 LSB", "worst 20.00 LSB", "in bounds", "> 32 LSB", "not run"} {
		if !strings.Contains(all, want) {
			t.Errorf("no label says %q:\n%s", want, all)
		}
	}

	face, err := labelFace()
	if err != nil {
		t.Fatal(err)
	}
	defer face.Close()
	for _, l := range lay.text {
		// The string's ink box, from the pen position; the same string drawn alone by the Drawer
		// on the same background must match the labelled image there pixel for pixel.
		bb, _ := font.BoundString(face, l.text)
		box := image.Rect(bb.Min.X.Floor(), bb.Min.Y.Floor(), bb.Max.X.Ceil(), bb.Max.Y.Ceil()).Add(l.dot)
		if box.Empty() || !box.In(img.Bounds()) {
			t.Errorf("%q: box %v, image %v", l.text, box, img.Bounds())
			continue
		}
		ref := image.NewRGBA(img.Bounds())
		imagedraw.Draw(ref, ref.Bounds(), image.NewUniform(heatColors[0]), image.Point{}, imagedraw.Src)
		d := font.Drawer{Dst: ref, Src: image.NewUniform(labelInk), Face: face, Dot: fixed.P(l.dot.X, l.dot.Y)}
		d.DrawString(l.text)
		inked := 0
		for y := box.Min.Y; y < box.Max.Y; y++ {
			for x := box.Min.X; x < box.Max.X; x++ {
				if got, want := img.RGBAAt(x, y), ref.RGBAAt(x, y); got != want {
					t.Fatalf("%q: pixel (%d,%d) is %v, the Drawer's %v", l.text, x, y, got, want)
				}
				if img.RGBAAt(x, y) != heatColors[0] {
					inked++
				}
			}
		}
		if inked < len(strings.ReplaceAll(l.text, " ", "")) {
			t.Errorf("%q: %d inked pixels in %v", l.text, inked, box)
		}
	}

	// The colour scale: every palette colour of the map appears beside it.
	scale := map[[4]uint8]bool{}
	for y := lay.mapAt.Y; y < img.Bounds().Max.Y; y++ {
		for x := lay.mapAt.X + mb.Dx(); x < img.Bounds().Max.X; x++ {
			c := img.RGBAAt(x, y)
			scale[[4]uint8{c.R, c.G, c.B, c.A}] = true
		}
	}
	for i := 1; i < len(heatColors); i++ {
		r, g, b, a := heatColors[i].RGBA()
		if !scale[[4]uint8{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), uint8(a >> 8)}] {
			t.Errorf("colour scale lacks palette entry %d", i)
		}
	}

	if dir := os.Getenv("HEATMAP_OUT"); dir != "" { // to look at it
		if err := writePNG(filepath.Join(dir, "labelled.png"), img); err != nil {
			t.Fatal(err)
		}
	}
}
