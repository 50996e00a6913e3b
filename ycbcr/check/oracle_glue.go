package check

import (
	"fmt"

	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/ycbcr"
	"github.com/ycbcrkit/ycbcrkit/ycbcr/oracle"
)

// OraclePicture (glue between the toolkit and the oracle, for the checker and the tests) takes a frame's integer codes, de-padded, as the oracle's picture.
func OraclePicture(f *formats.Frame) *oracle.Picture {
	pf := f.Format
	p := oracle.NewPicture(f.Width, f.Height, pf.Log2ChromaW, pf.Log2ChromaH, pf.Depth)
	for y := 0; y < f.Height; y++ {
		for x := 0; x < f.Width; x++ {
			p.Y[y*f.Width+x] = f.Code(formats.Y, x, y)
		}
	}
	if !pf.HasChroma() { // gray: neutral chroma, which the shader path's zero chroma scale matches
		mid := uint16(1) << uint(pf.Depth-1)
		for i := range p.Cb {
			p.Cb[i], p.Cr[i] = mid, mid
		}
		return p
	}
	cw, ch := f.ChannelSize(formats.Cb)
	for y := 0; y < ch; y++ {
		for x := 0; x < cw; x++ {
			p.Cb[y*cw+x], p.Cr[y*cw+x] = f.Code(formats.Cb, x, y), f.Code(formats.Cr, x, y)
		}
	}
	return p
}

// OracleParams states params for layout pf in the oracle's terms: bilinear luma and chroma,
// implicit reconstruction, the siting's exact positions and any matrix by its Kr/Kb. The frame's
// codes are already in Cb/Cr order, so no swizzle is asked for.
func OracleParams(pf *formats.PixelFormat, p ycbcr.Params) (oracle.Params, error) {
	o := oracle.Params{LumaFilter: oracle.Linear, ChromaFilter: oracle.Linear, X6: pf.Depth == 10}
	switch p.Range {
	case formats.RangeFull:
		o.Range = oracle.RangeFull
	case formats.RangeLimited:
		o.Range = oracle.RangeNarrow
	default:
		return o, fmt.Errorf("check: range %s: resolve first", p.Range)
	}
	switch {
	case p.YCbCrIdentity:
		o.Model = oracle.ModelYCbCrIdentity
	case p.Matrix == formats.MatrixRGB:
		o.Model = oracle.ModelRGBIdentity
	default:
		form, err := p.Matrix.Form()
		if err != nil {
			return o, fmt.Errorf("check: %w", err)
		}
		switch form.System {
		case formats.SystemKrKb:
			o.Model, o.Kr, o.Kb = oracle.Model709, form.Kr, form.Kb
		case formats.SystemYCgCo:
			o.Model = oracle.ModelYCgCo
		case formats.SystemYCgCoR:
			o.Model, o.YCgCoRAddedBits = oracle.ModelYCgCoR, form.AddedBits
		case formats.SystemCL:
			o.Model = oracle.Model2020CL
		}
	}
	if t, err := oracleTone(p); err != nil {
		return o, err
	} else if t != nil {
		o.Tone = t
	}
	if pf.HasChroma() && (pf.Log2ChromaW > 0 || pf.Log2ChromaH > 0) {
		x, y, err := p.ChromaLocation.Position()
		if err != nil {
			return o, fmt.Errorf("check: %w", err)
		}
		o.XChromaPos, o.YChromaPos = x, y
	}
	return o, nil
}

// oracleTone is the tone stage of p in the oracle's terms (nil when p has none): the luminances the
// toolkit picks (Params.ToneInputs) and the primaries' chromaticities; the oracle computes the rest
// from the standards itself.
func oracleTone(p ycbcr.Params) (*oracle.Tone, error) {
	kind := p.Transfer.Kind()
	if p.Output == ycbcr.OutputHDR10 || p.Output == ycbcr.OutputExtendedLinear {
		prim, ok := p.Primaries.Chromaticities()
		if !ok {
			return nil, fmt.Errorf("check: primaries %s: no chromaticities", p.Primaries)
		}
		in := p.ToneInputs()
		t := &oracle.Tone{Transfer: oracle.ToneSDR, HDR10: true, SDRWhite: ycbcr.HDRReferenceWhite, Primaries: prim,
			HLGPeak: in.HLGPeak, HLGGamma: in.HLGGamma}
		if p.Output == ycbcr.OutputExtendedLinear {
			t.HDR10, t.ExtendedLinear = false, true
			t.SDRWhite, t.LinearWhite = p.ExtendedLinearWhite(), p.ExtendedLinearWhite()
		}
		switch kind {
		case formats.TransferPQ:
			t.Transfer = oracle.TonePQ
		case formats.TransferHLG:
			t.Transfer = oracle.ToneHLG
		}
		return t, nil
	}
	if p.Transfer == 0 || p.Tone == ycbcr.ToneOff || (kind != formats.TransferPQ && kind != formats.TransferHLG) {
		return nil, nil
	}
	prim, ok := p.Primaries.Chromaticities()
	if !ok {
		return nil, fmt.Errorf("check: primaries %s: no chromaticities", p.Primaries)
	}
	in := p.ToneInputs()
	t := &oracle.Tone{Transfer: oracle.TonePQ, Clip: p.Tone == ycbcr.ToneClip, MaxRGB: p.Tone == ycbcr.ToneBT2390Max,
		SourceBlack: in.SourceBlack, SourcePeak: in.SourcePeak, TargetBlack: in.TargetBlack, TargetPeak: in.TargetPeak,
		HLGPeak: in.HLGPeak, HLGGamma: in.HLGGamma, Primaries: prim}
	if kind == formats.TransferHLG {
		t.Transfer = oracle.ToneHLG
	}
	return t, nil
}
