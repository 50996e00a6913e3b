package oracle

import (
	"math"
	"testing"
)

// FuzzValidate builds arbitrary pictures and parameters (sizes, subsampling, depth, plane lengths,
// codes, model, range, filters, positions, Kr/Kb): Validate never panics, and whatever it accepts,
// Sample and SampleBounds evaluate without a panic, to finite values, at the picture's corners and
// centre. That is Validate's contract: Sample panics on exactly what Validate rejects.
func FuzzValidate(f *testing.F) {
	// Real pictures: 4:2:0, 4:2:2, 4:4:4, odd sizes, 8/10/16 bits, every model and chroma position.
	f.Add(64, 48, 1, 1, 8, true, 0, 0, []byte{16, 128, 240}, 2, 1, 0.0, 0.5, 1, 1, false, false, false, 0.0, 0.0)
	f.Add(63, 47, 1, 1, 10, true, 0, 0, []byte{0, 3, 255}, 3, 0, 0.5, 0.5, 1, 1, false, true, true, 0.0, 0.0)
	f.Add(16, 8, 1, 0, 12, true, 0, 0, []byte{7}, 4, 1, 0.0, 0.0, 0, 1, true, false, false, 0.0, 0.0)
	f.Add(5, 3, 0, 0, 16, true, 0, 0, []byte{255, 255}, 0, 0, 0.0, 0.0, 0, 0, false, false, false, 0.0, 0.0)
	f.Add(9, 9, 2, 2, 8, true, 0, 0, []byte{1}, 1, 1, 1.0, 1.0, 1, 1, false, false, false, 0.212, 0.087)
	// Sizes whose products overflow int, with empty planes that a wrapped product would accept.
	f.Add(1<<32, 1<<32, 0, 0, 8, false, 0, 0, []byte{}, 2, 1, 0.0, 0.0, 1, 1, false, false, false, 0.0, 0.0)
	f.Add(math.MaxInt, 1, 4, 4, 8, false, 0, 0, []byte{}, 2, 1, 0.0, 0.0, 1, 1, false, false, false, 0.0, 0.0)
	f.Fuzz(func(t *testing.T, w, h, lw, lh, bits int, consistent bool, ny, nc int, data []byte,
		model, rng int, xpos, ypos float64, lumaF, chromaF int, explicit, swap, x6 bool, kr, kb float64) {
		p := &Picture{Width: w, Height: h, Log2ChromaW: lw, Log2ChromaH: lh, Bits: bits}
		if consistent && w > 0 && h > 0 && w <= 64 && h <= 64 && lw >= 0 && lw <= 4 && lh >= 0 && lh <= 4 {
			cw, ch := p.ChromaSize()
			ny, nc = w*h, cw*ch
		}
		if ny < 0 || ny > 1<<14 || nc < 0 || nc > 1<<14 {
			return
		}
		code := func(i int) uint16 {
			if len(data) == 0 {
				return 0
			}
			v := uint16(data[i%len(data)])
			if bits > 8 && bits <= 16 {
				v = v<<uint(bits-8) | v>>uint(16-bits) // spread over the depth
			}
			return v
		}
		p.Y, p.Cb, p.Cr = make([]uint16, ny), make([]uint16, nc), make([]uint16, nc)
		for i := range p.Y {
			p.Y[i] = code(i)
		}
		for i := range p.Cb {
			p.Cb[i], p.Cr[i] = code(i+1), code(i+2)
		}
		prm := Params{Model: Model(model), Range: Range(rng), XChromaPos: xpos, YChromaPos: ypos,
			LumaFilter: Filter(lumaF), ChromaFilter: Filter(chromaF), Explicit: explicit, SwapCbCr: swap, X6: x6, Kr: kr, Kb: kb}
		if p.Validate() != nil || prm.Validate(p) != nil {
			return
		}
		tol := HardwareTolerance(bits, 8)
		tol.UnormBits = 8
		for _, st := range [][2]float64{{0, 0}, {1, 1}, {0.5, 0.5}, {0.999, 0.001}} {
			v := Sample(p, prm, st[0], st[1])
			b := Bounds{}
			if prm.Bounded() { // the non-linear systems have exact values only
				b = SampleBounds(p, prm, st[0], st[1], tol)
			}
			for c := 0; c < 4; c++ {
				if math.IsNaN(v[c]) || math.IsInf(v[c], 0) || math.IsNaN(b.Lo[c]) || math.IsNaN(b.Hi[c]) {
					t.Fatalf("%dx%d %d-bit %+v at %v: sample %v, bounds %v", w, h, bits, prm, st, v, b)
				}
			}
		}
	})
}
