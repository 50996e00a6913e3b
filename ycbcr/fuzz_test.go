package ycbcr

import (
	"math"
	"testing"

	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/shaders"
)

// FuzzShaderConstants: Params.Shader never panics; for metadata formats.Resolve would return (valid
// matrix with Kr/Kb or RGB, range tv/pc, a siting) and a real picture size it gives finite constants
// that read existing textures; for anything else it gives finite constants or an error. Seeds are
// every table layout with the metadata of the committed test vectors.
func FuzzShaderConstants(f *testing.F) {
	all := formats.All()
	for i := range all {
		f.Add(1, 1, 1, false, i, 64, 48)     // bt709 tv left
		f.Add(6, 2, 2, false, i, 63, 47)     // smpte170m pc center, odd size
		f.Add(9, 1, 3, false, i, 1920, 1080) // bt2020nc tv topleft
		f.Add(7, 1, 6, false, i, 2, 2)       // smpte240m tv bottom (shader path only)
		f.Add(0, 2, 2, false, i, 1, 1)       // gbr pc
	}
	f.Add(2, 0, 0, false, 0, 64, 48) // unresolved
	f.Add(1, 1, 1, true, 0, 64, 48)  // YCbCr identity
	f.Add(1, 1, 1, false, 0, 0, 0)   // no picture
	f.Add(1, 1, 1, false, 0, -3, 5)  // negative width
	f.Fuzz(func(t *testing.T, m, r, l int, identity bool, layout, w, h int) {
		if layout < 0 || layout >= len(all) {
			return
		}
		pf := all[layout]
		p := Params{Matrix: formats.Matrix(m), Range: formats.Range(r), ChromaLocation: formats.ChromaLocation(l), YCbCrIdentity: identity}
		c, err := p.Shader(pf, w, h)
		_, _, hasK := p.Matrix.Coefficients()
		resolved := (hasK || p.Matrix == formats.MatrixRGB || identity) &&
			(p.Range == formats.RangeLimited || p.Range == formats.RangeFull) &&
			p.ChromaLocation >= formats.ChromaLeft && p.ChromaLocation <= formats.ChromaBottom
		sized := w > 0 && h > 0 && w <= 1<<16 && h <= 1<<16
		if err != nil {
			if resolved && sized {
				t.Fatalf("%s %dx%d %v: %v", pf.Name, w, h, p, err)
			}
			return
		}
		if !sized {
			// A picture without pixels has no constants: Shader gives NaN and ±Inf chroma constants for
			// 0×0 without an error (found by this target; docs/reliability.md). Flip
			// shaderRejectsEmptySize once Shader returns an error for width or height ≤ 0.
			if !shaderRejectsEmptySize {
				return
			}
			for _, v := range constants(c) {
				if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
					t.Fatalf("%s %dx%d %v: no error, and constants are not finite: %+v", pf.Name, w, h, p, *c)
				}
			}
			return
		}
		for _, v := range constants(c) {
			if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
				t.Fatalf("%s %dx%d %v: constants are not finite: %+v", pf.Name, w, h, p, *c)
			}
		}
		for ch := 0; ch < 3; ch++ {
			if c.SrcTex[ch] < 0 || int(c.SrcTex[ch]) >= len(pf.Textures) || c.SrcComp[ch] < 0 || c.SrcComp[ch] > 3 {
				t.Fatalf("%s: channel %d reads texture %d component %d", pf.Name, ch, c.SrcTex[ch], c.SrcComp[ch])
			}
		}
		if len(c.Bytes()) != shaders.ShaderParamsSize {
			t.Fatalf("push-constant block is %d bytes", len(c.Bytes()))
		}
	})
}

// shaderRejectsEmptySize: whether Params.Shader refuses non-positive sizes (not yet).
const shaderRejectsEmptySize = true

func constants(c *ShaderConstants) []float32 {
	var out []float32
	for _, r := range c.Rows {
		out = append(out, r[:]...)
	}
	out = append(out, c.Scale[:]...)
	out = append(out, c.Offset[:]...)
	return append(out, c.Chroma[:]...)
}
