package formats

import (
	"fmt"
	"math"
)

// The colour systems beyond Kr/Kb and the transfers beyond SDR, as data the shader path and the
// oracle glue read (docs/ycbcr-math.md §11–§14).

// System is the arithmetic a matrix needs to turn range-expanded (Y′, C1, C2) into R′G′B′.
type System int

const (
	SystemKrKb   System = iota // linear, from Kr and Kb (BT.601, BT.709, BT.2020 NCL, SMPTE 240M, FCC)
	SystemYCgCo                // linear: H.273 MatrixCoefficients 8 (C1 = Cg, C2 = Co)
	SystemYCgCoR               // linear: H.273 MatrixCoefficients 16 and 17, the reversible lifting
	SystemCL                   // non-linear: BT.2020 constant luminance (BT.2020 Table 4)
)

// MatrixForm is what the shader path needs to know of a matrix.
type MatrixForm struct {
	System System
	// Kr, Kb: the matrix coefficients (SystemKrKb), or the luminance weights of the linear-light
	// luminance (SystemCL: BT.2020's 0.2627 and 0.0593).
	Kr, Kb float64
	// AddedBits (SystemYCgCoR): how many bits the coded samples have beyond the R′G′B′ samples the
	// lifting was applied to: 2 for YCgCo-Re ("even addition"), 1 for YCgCo-Ro ("odd addition").
	AddedBits int
	// ChromaSpan is the limited-range excursion of the chroma signals, in 8-bit codes: 224 where the
	// matrix is applied before quantisation (H.264 Annex E.2.1 Equations E-11, E-12; H.273 §8.3),
	// 219 for YCgCo, whose R′G′B′ is quantised as luma is first (E-13 to E-15) and whose Cg and Co
	// are then sums of those codes (E-34 to E-36: the offsets 16 cancel, the 219 stays). Unused for
	// SystemYCgCoR, whose lifting works on the codes at any range.
	ChromaSpan float64
	// CbNeg, CbPos, CrNeg, CrPos (SystemCL): BT.2020 Table 4's divisors of B′−Y′C and R′−Y′C for
	// negative and positive differences; decoding multiplies by them.
	CbNeg, CbPos, CrNeg, CrPos float64
}

// Form is the matrix's form for the shader path, or why it has none.
func (m Matrix) Form() (MatrixForm, error) {
	if kr, kb, ok := m.Coefficients(); ok {
		return MatrixForm{System: SystemKrKb, Kr: kr, Kb: kb, ChromaSpan: 224}, nil
	}
	switch m {
	case MatrixYCgCo:
		return MatrixForm{System: SystemYCgCo, ChromaSpan: 219}, nil
	case MatrixYCgCoRe:
		return MatrixForm{System: SystemYCgCoR, AddedBits: 2}, nil
	case MatrixYCgCoRo:
		return MatrixForm{System: SystemYCgCoR, AddedBits: 1}, nil
	case MatrixBT2020CL:
		// BT.2020 Table 4: Y′C = (0.2627 R + 0.6780 G + 0.0593 B)′; CBC = (B′−Y′C)/1.9404 when
		// −0.9702 ≤ B′−Y′C ≤ 0, /1.5816 when 0 < B′−Y′C ≤ 0.7908; CRC = (R′−Y′C)/1.7184 when
		// −0.8592 ≤ R′−Y′C ≤ 0, /0.9936 when 0 < R′−Y′C ≤ 0.4968.
		return MatrixForm{System: SystemCL, Kr: 0.2627, Kb: 0.0593, ChromaSpan: 224, CbNeg: 1.9404, CbPos: 1.5816, CrNeg: 1.7184, CrPos: 0.9936}, nil
	}
	if _, err := m.Model(); err != nil {
		return MatrixForm{}, fmt.Errorf("formats: matrix %s: no form the shader path implements (%v)", m, err)
	}
	return MatrixForm{}, fmt.Errorf("formats: matrix %s: no form the shader path implements", m)
}

// TransferKind groups transfers by what the shader path does with them.
type TransferKind int

const (
	// TransferSDR: the R′G′B′ is for an SDR display as it is (BT.709, BT.601, BT.2020 10/12-bit,
	// sRGB, gamma 2.2/2.8, SMPTE 240M, xvYCC, BT.1361): shown without a transfer conversion.
	TransferSDR TransferKind = iota
	TransferPQ               // SMPTE ST 2084 / BT.2100 PQ: tone-mapped to SDR
	TransferHLG              // ARIB STD-B67 / BT.2100 HLG: tone-mapped to SDR
	// TransferUnhandled: linear, logarithmic and SMPTE ST 428 signals: shown as if SDR R′G′B′, with
	// a notice naming the transfer.
	TransferUnhandled
)

// Kind says what the shader path does with the transfer.
func (t Transfer) Kind() TransferKind {
	switch t {
	case TransferSMPTE2084:
		return TransferPQ
	case TransferARIBSTDB67:
		return TransferHLG
	case TransferLinear, TransferLog, TransferLogSqrt, TransferSMPTE428:
		return TransferUnhandled
	}
	return TransferSDR
}

// Chromaticities returns the CIE 1931 xy of the red, green and blue primaries and of the white
// point (H.273 Table 2; BT.709 Table 1 item 1.3/1.4, BT.2020 Table 3, BT.601, SMPTE RP 431-2/EG 432-1).
func (p Primaries) Chromaticities() (rgbw [4][2]float64, ok bool) {
	d65 := [2]float64{0.3127, 0.3290}
	switch p {
	case PrimariesBT709:
		return [4][2]float64{{0.640, 0.330}, {0.300, 0.600}, {0.150, 0.060}, d65}, true
	case PrimariesBT470M:
		return [4][2]float64{{0.67, 0.33}, {0.21, 0.71}, {0.14, 0.08}, {0.310, 0.316}}, true
	case PrimariesBT470BG:
		return [4][2]float64{{0.64, 0.33}, {0.29, 0.60}, {0.15, 0.06}, d65}, true
	case PrimariesSMPTE170M, PrimariesSMPTE240M:
		return [4][2]float64{{0.630, 0.340}, {0.310, 0.595}, {0.155, 0.070}, d65}, true
	case PrimariesBT2020:
		return [4][2]float64{{0.708, 0.292}, {0.170, 0.797}, {0.131, 0.046}, d65}, true
	case PrimariesSMPTE431:
		return [4][2]float64{{0.680, 0.320}, {0.265, 0.690}, {0.150, 0.060}, {0.314, 0.351}}, true
	case PrimariesSMPTE432:
		return [4][2]float64{{0.680, 0.320}, {0.265, 0.690}, {0.150, 0.060}, d65}, true
	}
	return rgbw, false
}

// RGBToXYZ is the normalised primary matrix of SMPTE RP 177 §3.3: the columns are the primaries' XYZ,
// scaled so that R = G = B = 1 gives the white point with Y = 1. Its middle row is the luminance
// weights of linear R, G, B.
func RGBToXYZ(rgbw [4][2]float64) [3][3]float64 {
	xyz := func(c [2]float64) [3]float64 { return [3]float64{c[0] / c[1], 1, (1 - c[0] - c[1]) / c[1]} }
	var p [3][3]float64
	for j := 0; j < 3; j++ {
		v := xyz(rgbw[j])
		for i := 0; i < 3; i++ {
			p[i][j] = v[i]
		}
	}
	s := Mul3(Inverse3(p), xyz(rgbw[3]))
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			p[i][j] *= s[j]
		}
	}
	return p
}

// GamutMatrix converts linear R, G, B of primaries from to linear R, G, B of primaries to (both D65
// in practice): RGBToXYZ(to)⁻¹ · RGBToXYZ(from), as BT.2087 §2 derives its BT.709 → BT.2020 matrix.
func GamutMatrix(from, to Primaries) ([3][3]float64, error) {
	a, ok := from.Chromaticities()
	if !ok {
		return [3][3]float64{}, fmt.Errorf("formats: primaries %s: no chromaticities", from)
	}
	b, ok := to.Chromaticities()
	if !ok {
		return [3][3]float64{}, fmt.Errorf("formats: primaries %s: no chromaticities", to)
	}
	return MatMul3(Inverse3(RGBToXYZ(b)), RGBToXYZ(a)), nil
}

// Mul3 is m·v.
func Mul3(m [3][3]float64, v [3]float64) [3]float64 {
	var out [3]float64
	for i := range out {
		out[i] = m[i][0]*v[0] + m[i][1]*v[1] + m[i][2]*v[2]
	}
	return out
}

// MatMul3 is a·b.
func MatMul3(a, b [3][3]float64) [3][3]float64 {
	var out [3][3]float64
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			for k := 0; k < 3; k++ {
				out[i][j] += a[i][k] * b[k][j]
			}
		}
	}
	return out
}

// Inverse3 inverts a 3×3 matrix by its adjugate (the primary matrices here are far from singular).
func Inverse3(m [3][3]float64) [3][3]float64 {
	c := func(i, j int) float64 {
		i1, i2 := (i+1)%3, (i+2)%3
		j1, j2 := (j+1)%3, (j+2)%3
		return m[i1][j1]*m[i2][j2] - m[i1][j2]*m[i2][j1]
	}
	det := m[0][0]*c(0, 0) + m[0][1]*c(0, 1) + m[0][2]*c(0, 2)
	var out [3][3]float64
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			out[j][i] = c(i, j) / det
		}
	}
	return out
}

// HDRMetadata is a stream's static HDR metadata: the mastering display's colour volume (SMPTE ST
// 2086; AVMasteringDisplayMetadata) — its primaries and white point as CIE 1931 xy, its luminance
// range in cd/m² — and the content light levels in cd/m² (CTA-861.3 MaxCLL and MaxFALL;
// AVContentLightMetadata). 0 means absent.
type HDRMetadata struct {
	MinLuminance, MaxLuminance float64 // mastering display
	MaxCLL, MaxFALL            float64
	// Primaries are the mastering display's xy of red, green and blue; WhitePoint its white's. They
	// go to an HDR10 display (-hdr-output); the tone curve uses the luminances only.
	Primaries  [3][2]float64
	WhitePoint [2]float64
}

func (h HDRMetadata) String() string {
	if h == (HDRMetadata{}) {
		return "none"
	}
	s := fmt.Sprintf("mastering %g–%g cd/m², MaxCLL %g, MaxFALL %g", h.MinLuminance, h.MaxLuminance, h.MaxCLL, h.MaxFALL)
	if h.WhitePoint != [2]float64{} {
		p := h.Primaries
		s += fmt.Sprintf(", mastering primaries R %g,%g G %g,%g B %g,%g white %g,%g",
			p[0][0], p[0][1], p[1][0], p[1][1], p[2][0], p[2][1], h.WhitePoint[0], h.WhitePoint[1])
	}
	return s
}

// Valid reports whether the values are usable (finite, non-negative, min below max where both are
// given, chromaticities within 0..1 as ST 2086's 0.00002 steps from 0 to 50000 code them).
func (h HDRMetadata) Valid() bool {
	for _, v := range []float64{h.MinLuminance, h.MaxLuminance, h.MaxCLL, h.MaxFALL} {
		if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 || v > 10000 {
			return false
		}
	}
	for _, v := range []float64{h.Primaries[0][0], h.Primaries[0][1], h.Primaries[1][0], h.Primaries[1][1],
		h.Primaries[2][0], h.Primaries[2][1], h.WhitePoint[0], h.WhitePoint[1]} {
		if !(v >= 0 && v <= 1) {
			return false
		}
	}
	return h.MaxLuminance == 0 || h.MinLuminance < h.MaxLuminance
}
