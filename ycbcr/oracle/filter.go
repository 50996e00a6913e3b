package oracle

import "math"

// evaluator filters a picture at one unnormalized luma coordinate. With tol == nil it computes the
// single exact result; otherwise it enumerates the alternatives §5.4 step 2–3 allow.
type evaluator struct {
	p   *Picture
	prm Params
	tol *Tolerance
}

// taps are the texels one axis of a filter reads: indices (already clamped, §4.5) and weights.
type taps struct {
	n int
	i [2]int
	w [2]float64
}

func one(i int) taps { return taps{n: 1, i: [2]int{i}, w: [2]float64{1}} }

func clampIndex(i, size int) int {
	if i < 0 {
		return 0
	}
	if i >= size {
		return size - 1
	}
	return i
}

// tieEps is how close to an integer a NEAREST coordinate must be for rounding to pick either
// texel. It follows the CTS's coordinate format (16 fraction bits, relative; §5.2), which also
// covers fp32 coordinate arithmetic (2^−23 relative).
func tieEps(x float64) float64 { return math.Ldexp(math.Max(math.Abs(x), 1), -16) }

// axis returns the alternatives for filtering with f at unnormalized coordinate x on an axis of
// size texels (textures.adoc §Texel Filtering; §4.3).
func (e *evaluator) axis(x float64, size int, f Filter) []taps {
	if f == Nearest {
		if e.tol != nil {
			if r := math.Round(x); math.Abs(x-r) <= tieEps(x) {
				// §4.3 ties: the coordinate may round to either side of the texel boundary.
				a, b := clampIndex(int(r)-1, size), clampIndex(int(r), size)
				if a == b {
					return []taps{one(a)}
				}
				return []taps{one(a), one(b)}
			}
		}
		return []taps{one(clampIndex(int(math.Floor(x)), size))}
	}
	x0 := x - 0.5
	fi := math.Floor(x0)
	a := x0 - fi
	i0 := int(fi)
	alphas := []float64{a}
	if e.tol != nil {
		alphas = snapAlpha(a, e.tol.SubTexelBits)
	}
	out := make([]taps, 0, len(alphas))
	for _, a := range alphas {
		out = append(out, taps{n: 2, i: [2]int{clampIndex(i0, size), clampIndex(i0+1, size)}, w: [2]float64{1 - a, a}})
	}
	return out
}

// snapAlpha returns the weights an implementation with 2^−bits sub-texel precision may use for the
// exact fraction a (limits.adoc subTexelPrecisionBits; §5.4 step 3): a itself when it lies on the
// grid (texel-centre-derived fractions such as 0, ¼, ½, ¾ do), else the grid points either side.
// bits = 0 means exact weights.
func snapAlpha(a float64, bits int) []float64 {
	if bits <= 0 {
		return []float64{a}
	}
	s := math.Ldexp(a, bits)
	if r := math.Round(s); math.Abs(s-r) < 1e-6 {
		return []float64{math.Ldexp(r, -bits)}
	}
	return []float64{math.Ldexp(math.Floor(s), -bits), math.Ldexp(math.Ceil(s), -bits)}
}

// chromaCoord maps an unnormalized luma coordinate to the chroma plane's unnormalized coordinate
// for implicit reconstruction: u_RB = (u − 0.5 − p)/2^l + 0.5 (§4.2's general form; l = 1, p = 0
// gives 0.5(u+0.5) and p = 0.5 gives 0.5u). Offsets have no effect on an axis that is not
// subsampled.
func chromaCoord(x float64, log2 int, pos float64) float64 {
	if log2 == 0 {
		return x
	}
	return (x-0.5-pos)/float64(int(1)<<log2) + 0.5
}

// explicitAxis is one axis of §4.4's explicit reconstruction at (clamped) luma index i.
func (e *evaluator) explicitAxis(i, log2 int, pos float64, csize int) taps {
	if log2 == 0 {
		return one(i)
	}
	if e.prm.ChromaFilter == Nearest {
		return one(clampIndex(i>>log2, csize)) // τ(⌊0.5i⌋): offsets have no effect
	}
	// i_RB = 0.5·i (COSITED_EVEN) or 0.5·(i − 0.5) (MIDPOINT), then linear between ⌊i_RB⌋ and +1.
	x := (float64(i) - pos) / float64(int(1)<<log2)
	k := math.Floor(x)
	f := x - k
	return taps{n: 2, i: [2]int{clampIndex(int(k), csize), clampIndex(int(k)+1, csize)}, w: [2]float64{1 - f, f}}
}

// gbr returns the normalized, swizzled (C′[G], C′[B], C′[R]) at unnormalized luma (u,v): one value
// in exact mode, every allowed alternative in bounds mode.
func (e *evaluator) gbr(u, v float64) [][3]float64 {
	p, prm := e.p, e.prm
	cw, ch := p.ChromaSize()
	var out [][3]float64
	if !prm.Explicit {
		// Implicit: luma filtered with min/magFilter, chroma planes with chromaFilter at the
		// chroma coordinate (§4.2, §4.3); the two filters are independent.
		var ys []float64
		for _, ax := range e.axis(u, p.Width, prm.LumaFilter) {
			for _, ay := range e.axis(v, p.Height, prm.LumaFilter) {
				ys = append(ys, filter2(p.Y, p.Width, ax, ay))
			}
		}
		pos := [][2]float64{{prm.XChromaPos, prm.YChromaPos}}
		if e.tol != nil && prm.ChromaFilter == Nearest && e.cosited() {
			// §4.3: implicit NEAREST "may behave as if xChromaOffset and yChromaOffset were
			// both MIDPOINT".
			pos = append(pos, [2]float64{PosMidpoint, PosMidpoint})
		}
		var cs [][2]float64
		for _, ps := range pos {
			uc := chromaCoord(u, p.Log2ChromaW, ps[0])
			vc := chromaCoord(v, p.Log2ChromaH, ps[1])
			for _, ax := range e.axis(uc, cw, prm.ChromaFilter) {
				for _, ay := range e.axis(vc, ch, prm.ChromaFilter) {
					cs = append(cs, [2]float64{filter2(p.Cb, cw, ax, ay), filter2(p.Cr, cw, ax, ay)})
				}
			}
		}
		for _, y := range ys {
			for _, c := range cs {
				out = append(out, [3]float64{y, c[0], c[1]})
			}
		}
	} else {
		// Explicit: each luma texel the luma filter reads gets τ′ from §4.4 at its (clamped)
		// index; ordinary luma filtering of those texels follows.
		for _, ax := range e.axis(u, p.Width, prm.LumaFilter) {
			for _, ay := range e.axis(v, p.Height, prm.LumaFilter) {
				var g [3]float64
				for a := 0; a < ax.n; a++ {
					tx := e.explicitAxis(ax.i[a], p.Log2ChromaW, prm.XChromaPos, cw)
					for b := 0; b < ay.n; b++ {
						w := ax.w[a] * ay.w[b]
						if w == 0 {
							continue
						}
						ty := e.explicitAxis(ay.i[b], p.Log2ChromaH, prm.YChromaPos, ch)
						g[0] += w * float64(p.Y[ay.i[b]*p.Width+ax.i[a]])
						g[1] += w * filter2(p.Cb, cw, tx, ty)
						g[2] += w * filter2(p.Cr, cw, tx, ty)
					}
				}
				out = append(out, g)
			}
		}
	}
	// UNORM → float (§1.3), then the conversion's swizzle (§1.2): the swap reads B as R and R as B.
	max := float64(uint32(1)<<p.Bits - 1)
	for k := range out {
		out[k][0] /= max
		out[k][1] /= max
		out[k][2] /= max
		if prm.SwapCbCr {
			out[k][1], out[k][2] = out[k][2], out[k][1]
		}
	}
	return out
}

// cosited reports whether a subsampled axis uses COSITED_EVEN in a configuration Vulkan can
// express (the MIDPOINT allowance is a Vulkan rule; non-Vulkan sitings get no such alternative).
func (e *evaluator) cosited() bool {
	p, prm := e.p, e.prm
	if (p.Log2ChromaW > 0 && !vulkanPos(prm.XChromaPos)) || (p.Log2ChromaH > 0 && !vulkanPos(prm.YChromaPos)) {
		return false
	}
	return (p.Log2ChromaW > 0 && prm.XChromaPos == PosCositedEven) || (p.Log2ChromaH > 0 && prm.YChromaPos == PosCositedEven)
}

// filter2 is the weighted sum of a plane's codes over the taps of both axes.
func filter2(plane []uint16, stride int, ax, ay taps) float64 {
	var s float64
	for a := 0; a < ax.n; a++ {
		for b := 0; b < ay.n; b++ {
			if w := ax.w[a] * ay.w[b]; w != 0 {
				s += w * float64(plane[ay.i[b]*stride+ax.i[a]])
			}
		}
	}
	return s
}
