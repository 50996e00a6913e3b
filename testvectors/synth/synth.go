// Package synth makes pictures in Go, in any layout of the pixel-format table: seeded noise (every
// code equally likely, the hardest case for reconstruction) and a chroma-siting probe (chroma that
// alternates between extremes, so a quarter-sample siting error shows as a large colour error).
package synth

import (
	"math/rand/v2"

	"github.com/ycbcrkit/ycbcrkit/formats"
)

func fill(f *formats.Frame, code func(c formats.Channel, x, y, max int) int) {
	max := 1<<uint(f.Format.Depth) - 1
	chans := []formats.Channel{formats.Y}
	if f.Format.HasChroma() {
		chans = append(chans, formats.Cb, formats.Cr)
	}
	for _, c := range chans {
		w, h := f.ChannelSize(c)
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				f.SetCode(c, x, y, uint16(code(c, x, y, max)))
			}
		}
	}
}

// Noise fills a new frame with uniformly random codes over the whole code range.
func Noise(pf *formats.PixelFormat, width, height int, seed uint64) (*formats.Frame, error) {
	f, err := formats.NewFrame(pf, width, height)
	if err != nil {
		return nil, err
	}
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	fill(f, func(_ formats.Channel, _, _, max int) int { return r.IntN(max + 1) })
	return f, nil
}

// SitingProbe fills a new frame with a luma ramp and chroma that alternates between the extremes of
// the narrow range every chroma sample: Cb along x, Cr along y. Reconstruction at the wrong siting
// mixes neighbours in other proportions, which moves every pixel by a large amount.
func SitingProbe(pf *formats.PixelFormat, width, height int) (*formats.Frame, error) {
	f, err := formats.NewFrame(pf, width, height)
	if err != nil {
		return nil, err
	}
	q := 1 << uint(pf.Depth-8)
	fill(f, func(c formats.Channel, x, y, max int) int {
		switch c {
		case formats.Cb:
			return []int{16, 240}[x%2] * q
		case formats.Cr:
			return []int{240, 16}[y%2] * q
		}
		return (16 + 219*(x+y)/(width+height)) * q
	})
	return f, nil
}

// Moving is one frame of a moving pattern for playback demos and benchmarks: diagonal colour bands
// that scroll with t, over a luma sweep.
func Moving(pf *formats.PixelFormat, width, height, t int) (*formats.Frame, error) {
	f, err := formats.NewFrame(pf, width, height)
	if err != nil {
		return nil, err
	}
	q := 1 << uint(pf.Depth-8)
	sx, sy := 1<<uint(pf.Log2ChromaW), 1<<uint(pf.Log2ChromaH)
	fill(f, func(c formats.Channel, x, y, max int) int {
		switch c {
		case formats.Cb:
			return (128 + int(56*tri(x*sx+y*sy+3*t, 256))) * q
		case formats.Cr:
			return (128 + int(56*tri(x*sx-y*sy+5*t+64, 192))) * q
		}
		return (16 + 219*((x+2*t)%width)/width) * q
	})
	return f, nil
}

// tri is a triangle wave in [−1, 1] with the given period.
func tri(v, period int) float64 {
	p := ((v % period) + period) % period
	return 4*float64(min(p, period-p))/float64(period) - 1
}
