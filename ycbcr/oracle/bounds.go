package oracle

import (
	"fmt"
	"math"
)

// Bounds is a per-channel closed interval [Lo, Hi] of R′G′B′A.
type Bounds struct{ Lo, Hi [4]float64 }

// Contains reports whether every channel of v lies in the bounds.
func (b Bounds) Contains(v [4]float64) bool {
	for k := range v {
		if !(v[k] >= b.Lo[k] && v[k] <= b.Hi[k]) {
			return false
		}
	}
	return true
}

// Width returns Hi − Lo per channel.
func (b Bounds) Width() [4]float64 {
	var w [4]float64
	for k := range w {
		w[k] = b.Hi[k] - b.Lo[k]
	}
	return w
}

func (b Bounds) String() string {
	return fmt.Sprintf("R[%.6f,%.6f] G[%.6f,%.6f] B[%.6f,%.6f] A[%.6f,%.6f]",
		b.Lo[0], b.Hi[0], b.Lo[1], b.Hi[1], b.Lo[2], b.Hi[2], b.Lo[3], b.Hi[3])
}

// Tolerance parameterizes SampleBounds (§5.4 tight mode).
type Tolerance struct {
	// SubTexelBits is the implementation's subTexelPrecisionBits: LINEAR weights are taken snapped
	// down and up to the 2^−SubTexelBits grid (exactly when they lie on it). 0 = exact weights.
	SubTexelBits int
	// Slack is the arithmetic slack added on both sides of every colour channel (§5.4 step 4):
	// about 4·2^−n for hardware (HardwareTolerance), about 1e−5 for an fp32 shader.
	Slack float64
	// UnormBits = m > 0 maps the bounds onto an m-bit UNORM render target (§5.4 step 5):
	// Lo = ⌊lo·(2^m−1)⌋/(2^m−1), Hi = ⌈hi·(2^m−1)⌉/(2^m−1), clamped to [0,1]. Read-back codes c
	// then compare as c/(2^m−1). 0 = float output.
	UnormBits int
}

// HardwareTolerance is §5.4's recommendation for a Vulkan implementation sampling n-bit data:
// slack 4·2^−n, weights snapped to subTexelBits (8 on Vulkan 1.4 / Roadmap 2022 devices, 4 minimum).
func HardwareTolerance(n, subTexelBits int) Tolerance {
	return Tolerance{SubTexelBits: subTexelBits, Slack: math.Ldexp(4, -n)}
}

// ShaderTolerance is the recommendation for the project's fp32 shader path (§5.4 step 4).
func ShaderTolerance(subTexelBits int) Tolerance {
	return Tolerance{SubTexelBits: subTexelBits, Slack: 1e-5}
}

// SampleBounds returns §5.4's tight bounds at normalized (s,t): the hull of the results of every
// alternative the spec allows (implicit NEAREST + COSITED also as MIDPOINT; NEAREST coordinate ties
// both texels; X6 texels ±1 ULP₁₀; the optional clamps of Y′/Cb/Cr (§2.4) and of R′G′B′ (§3.3);
// LINEAR weights snapped either way), widened by tol.Slack and optionally mapped to UNORM.
// It panics if p or prm is invalid, or if prm has no interval bounds (see Bounded).
func SampleBounds(p *Picture, prm Params, s, t float64, tol Tolerance) Bounds {
	mustValid(p, prm)
	return boundsUV(p, prm, s*float64(p.Width), t*float64(p.Height), tol)
}

// ImageBounds is SampleBounds at every luma texel centre, row-major, in Image's order.
func ImageBounds(p *Picture, prm Params, tol Tolerance) []Bounds {
	mustValid(p, prm)
	out := make([]Bounds, 0, p.Width*p.Height)
	for j := 0; j < p.Height; j++ {
		for i := 0; i < p.Width; i++ {
			out = append(out, boundsUV(p, prm, float64(i)+0.5, float64(j)+0.5, tol))
		}
	}
	return out
}

// interval is a closed interval.
type interval struct{ lo, hi float64 }

// clampHull is the hull of [lo,hi] and its clamp to [a,b]: the clamp is optional (CTS clampMaybe).
func (x interval) clampHull(a, b float64) interval {
	return interval{math.Min(x.lo, math.Max(a, math.Min(b, x.lo))), math.Max(x.hi, math.Max(a, math.Min(b, x.hi)))}
}

// Bounded reports whether SampleBounds and ImageBounds cover prm: interval arithmetic through the
// non-linear stages (constant luminance, YCgCo-R lifting, tone mapping) is not implemented; those
// are judged by Sample's exact values with a fixed tolerance (§12.4, §14.5).
func (prm Params) Bounded() bool {
	return prm.Model != Model2020CL && prm.Model != ModelYCgCoR && prm.Tone == nil
}

func boundsUV(p *Picture, prm Params, u, v float64, tol Tolerance) Bounds {
	if !prm.Bounded() {
		// Interval arithmetic through the non-linear stages is not implemented: compare Sample's
		// exact values with a fixed tolerance instead (§12.4, §14.5).
		panic("oracle: no bounds for constant luminance, YCgCo-R lifting or tone mapping")
	}
	e := evaluator{p: p, prm: prm, tol: &tol}
	var w float64
	if prm.X6 {
		// §1.3: an implementation may read the X6 container as 16-bit UNORM; each fetched texel
		// may be off by up to 1 ULP₁₀. Weights are non-negative and sum to 1, so the filtered value
		// moves by at most as much.
		w = 1 / float64(uint32(1)<<p.Bits-1)
	}
	var b Bounds
	for k := 0; k < 3; k++ {
		b.Lo[k], b.Hi[k] = math.Inf(1), math.Inf(-1)
	}
	for _, g := range e.gbr(u, v) {
		var in [3]interval
		for k := range in {
			in[k] = interval{g[k] - w, g[k] + w}
		}
		var out [3]interval
		switch prm.Model {
		case ModelRGBIdentity:
			out = [3]interval{in[2], in[0], in[1]}
			for k := range out {
				out[k] = out[k].clampHull(0, 1)
			}
		default:
			// Range expansion is increasing in each input, so it maps interval ends to ends.
			ylo, cblo, crlo := expandFor(prm, p.Bits, in[0].lo, in[1].lo, in[2].lo)
			yhi, cbhi, crhi := expandFor(prm, p.Bits, in[0].hi, in[1].hi, in[2].hi)
			ycc := [3]interval{
				interval{ylo, yhi}.clampHull(0, 1),
				interval{cblo, cbhi}.clampHull(-0.5, 0.5),
				interval{crlo, crhi}.clampHull(-0.5, 0.5),
			}
			if prm.Model == ModelYCbCrIdentity {
				// No R′G′B′ clamp: R and B are signed here (the CTS skips it too, §5.2).
				out = [3]interval{ycc[2], ycc[0], ycc[1]}
				break
			}
			m := matrix(prm)
			for k := range out {
				for c := 0; c < 3; c++ {
					if m[k][c] >= 0 {
						out[k].lo += m[k][c] * ycc[c].lo
						out[k].hi += m[k][c] * ycc[c].hi
					} else {
						out[k].lo += m[k][c] * ycc[c].hi
						out[k].hi += m[k][c] * ycc[c].lo
					}
				}
				out[k] = out[k].clampHull(0, 1)
			}
		}
		for k := range out {
			b.Lo[k] = math.Min(b.Lo[k], out[k].lo)
			b.Hi[k] = math.Max(b.Hi[k], out[k].hi)
		}
	}
	for k := 0; k < 3; k++ {
		b.Lo[k] -= tol.Slack
		b.Hi[k] += tol.Slack
	}
	b.Lo[3], b.Hi[3] = 1, 1 // alpha is the substituted 1, never modified (§1.2, §2.3)
	if tol.UnormBits > 0 {
		// §5.4 step 5: float→UNORM should round to nearest but may pick either neighbour.
		m := float64(uint64(1)<<tol.UnormBits - 1)
		for k := 0; k < 4; k++ {
			b.Lo[k] = math.Max(0, math.Min(m, math.Floor(b.Lo[k]*m))) / m
			b.Hi[k] = math.Max(0, math.Min(m, math.Ceil(b.Hi[k]*m))) / m
		}
	}
	return b
}
