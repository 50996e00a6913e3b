package check

import (
	"fmt"
	"image"
	"image/color"
	"math"
	"path"

	"github.com/ycbcrkit/ycbcrkit/ycbcr/oracle"
)

// comboPictures are a failing combination's off-centre read-backs (the noise and the probe frame)
// beside the oracle's exact values: what the report shows as expected, got and difference.
type comboPictures struct {
	path          int // pathSampler or pathShader
	expected, got [2]*image.RGBA
}

// diffGain scales the difference picture: 1 LSB of difference is diffGain levels.
const diffGain = 8

// picture keeps path's off-centre read-backs of a failing combination and the oracle's exact
// values there, for the first Options.Pictures failing combinations of the run.
func (r *runner) picture(res *ComboResult, path int, prm oracle.Params, pics [2]*oracle.Picture) {
	limit := r.opts.Pictures
	if limit == 0 {
		limit = 4
	}
	if res.pictures != nil || r.pictured >= limit {
		return
	}
	r.pictured++
	cp := &comboPictures{path: path}
	for k, pic := range pics {
		t := r.targets[path][k][1]
		src := t.RGBA()
		got := image.NewRGBA(image.Rect(0, 0, t.Width, t.Height))
		copy(got.Pix, src.Pix[:len(got.Pix)])
		exp := image.NewRGBA(got.Rect)
		for y := 0; y < t.Height; y++ {
			for x := 0; x < t.Width; x++ {
				v := oracle.Sample(pic, prm, (float64(x)+0.5)/float64(t.Width), (float64(y)+0.5)/float64(t.Height))
				exp.SetRGBA(x, y, color.RGBA{code(v[0]), code(v[1]), code(v[2]), 0xff})
			}
		}
		cp.expected[k], cp.got[k] = exp, got
	}
	res.pictures = cp
}

// panels lays out the noise and probe pictures side by side, each pixel a scale×scale square.
func panels(imgs [2]*image.RGBA, scale int) *image.RGBA {
	const gap = 4
	w, h := imgs[0].Rect.Dx(), imgs[0].Rect.Dy()
	out := image.NewRGBA(image.Rect(0, 0, 2*w*scale+3*gap, h*scale+2*gap))
	for i := range out.Pix {
		out.Pix[i] = 0x20
	}
	for k, img := range imgs {
		x0 := gap + k*(w*scale+gap)
		for y := 0; y < h*scale; y++ {
			for x := 0; x < w*scale; x++ {
				out.SetRGBA(x0+x, gap+y, img.RGBAAt(x/scale, y/scale))
			}
		}
	}
	return out
}

// difference is |got − expected| per channel, times diffGain, clamped.
func difference(exp, got *image.RGBA) *image.RGBA {
	out := image.NewRGBA(exp.Rect)
	for i := range out.Pix {
		if i%4 == 3 {
			out.Pix[i] = 0xff
			continue
		}
		d := math.Abs(float64(got.Pix[i]) - float64(exp.Pix[i]))
		out.Pix[i] = uint8(math.Min(255, d*diffGain))
	}
	return out
}

// selectCombos keeps the combinations whose name matches one of the path.Match patterns (all of
// them when there are none).
func selectCombos(cs []Combination, patterns []string) ([]Combination, error) {
	if len(patterns) == 0 {
		return cs, nil
	}
	var out []Combination
	for _, c := range cs {
		for _, p := range patterns {
			ok, err := path.Match(p, c.Name())
			if err != nil {
				return nil, fmt.Errorf("check: combination pattern %q: %w", p, err)
			}
			if ok {
				out = append(out, c)
				break
			}
		}
	}
	return out, nil
}
