package oracle

import (
	"errors"
	"math"
)

// The non-linear stages the shader path adds (docs/ycbcr-math.md §12–§14), in float64 from the
// standards' formulas: BT.2020 constant luminance (BT.2020 Table 4), PQ (SMPTE ST 2084, BT.2100
// Table 4), HLG with its OOTF (ARIB STD-B67, BT.2100 Table 5), the BT.2390 §5.4 EETF, the gamut
// conversion (SMPTE RP 177 normalised primary matrices, as BT.2087 derives its matrix) and the
// BT.709 OETF (BT.709 Table 1 item 1.2).

// BT.2020's transfer (Table 4): the BT.709 form with the exact solutions α and β.
const (
	bt2020Alpha = 1.09929682680944
	bt2020Beta  = 0.018053968510807
)

// BT2020OETF is BT.2020's OETF; BT2020InverseOETF its inverse.
func BT2020OETF(l float64) float64 {
	if l < bt2020Beta {
		return 4.5 * l
	}
	return bt2020Alpha*math.Pow(l, 0.45) - (bt2020Alpha - 1)
}

func BT2020InverseOETF(v float64) float64 {
	if v < 4.5*bt2020Beta {
		return v / 4.5
	}
	return math.Pow((v+bt2020Alpha-1)/bt2020Alpha, 1/0.45)
}

// constantLuminance decodes BT.2020's (Y′C, CBC, CRC) (Table 4): B′ = Y′C + CBC·1.9404 (CBC ≤ 0)
// or ·1.5816; R′ = Y′C + CRC·1.7184 (CRC ≤ 0) or ·0.9936; then G from the linear-light luminance
// YC = 0.2627 R + 0.6780 G + 0.0593 B, and G′ by the OETF.
func constantLuminance(y, cb, cr float64) [3]float64 {
	b := y + cb*pick(cb <= 0, 1.9404, 1.5816)
	r := y + cr*pick(cr <= 0, 1.7184, 0.9936)
	g := (BT2020InverseOETF(y) - 0.2627*BT2020InverseOETF(r) - 0.0593*BT2020InverseOETF(b)) / 0.6780
	return [3]float64{r, BT2020OETF(g), b}
}

func pick(c bool, a, b float64) float64 {
	if c {
		return a
	}
	return b
}

// PQ constants (SMPTE ST 2084 §5.1).
const (
	pqM1 = 2610.0 / 16384
	pqM2 = 2523.0 / 4096 * 128
	pqC1 = 3424.0 / 4096
	pqC2 = 2413.0 / 4096 * 32
	pqC3 = 2392.0 / 4096 * 32
)

// PQEOTF is ST 2084's EOTF: luminance in cd/m² of the signal e (clamped to 0..1).
func PQEOTF(e float64) float64 {
	p := math.Pow(math.Max(0, math.Min(1, e)), 1/pqM2)
	return 10000 * math.Pow(math.Max(p-pqC1, 0)/(pqC2-pqC3*p), 1/pqM1)
}

// PQInverseEOTF is its inverse: the signal of y cd/m².
func PQInverseEOTF(y float64) float64 {
	l := math.Pow(math.Max(y, 0)/10000, pqM1)
	return math.Pow((pqC1+pqC2*l)/(1+pqC3*l), pqM2)
}

// HLGInverseOETF is ARIB STD-B67's (BT.2100 Table 5) inverse OETF: scene light 0..1 of signal e.
func HLGInverseOETF(e float64) float64 {
	const a, b, c = 0.17883277, 0.28466892, 0.55991073
	if e <= 0.5 {
		return e * e / 3
	}
	return (math.Exp((e-c)/a) + b) / 12
}

// BT709OETF is BT.709's OETF (Table 1 item 1.2).
func BT709OETF(l float64) float64 {
	if l < 0.018 {
		return 4.5 * l
	}
	return 1.099*math.Pow(l, 0.45) - 0.099
}

// EETF is BT.2390 §5.4's EETF on a PQ signal e, for a source of black lb and white lw and a target of
// lmin and lmax (cd/m²): E1 = (e − PQ(lb))/(PQ(lw) − PQ(lb)); minLum and maxLum the target's ends on
// that scale; KS = 1.5·maxLum − 0.5; E2 = E1 below KS, else the Hermite spline P(E1) through (KS, KS)
// with slope 1 to (1, maxLum) with slope 0; E3 = E2 + minLum·(1 − E2)⁴; the result E3·(PQ(lw) −
// PQ(lb)) + PQ(lb). E1 is clamped to 0..1, the spline's domain.
func EETF(e, lb, lw, lmin, lmax float64) float64 {
	b, w := PQInverseEOTF(lb), PQInverseEOTF(lw)
	minLum := (PQInverseEOTF(lmin) - b) / (w - b)
	maxLum := (PQInverseEOTF(lmax) - b) / (w - b)
	ks := 1.5*maxLum - 0.5
	e1 := math.Max(0, math.Min(1, (e-b)/(w-b)))
	e2 := e1
	if e1 > ks {
		t := (e1 - ks) / (1 - ks)
		t2, t3 := t*t, t*t*t
		e2 = (2*t3-3*t2+1)*ks + (t3-2*t2+t)*(1-ks) + (-2*t3+3*t2)*maxLum
	}
	e3 := e2 + minLum*math.Pow(1-e2, 4)
	return e3*(w-b) + b
}

// ToneTransfer is the HDR signal a Tone decodes.
type ToneTransfer int

const (
	TonePQ  ToneTransfer = iota + 1 // SMPTE ST 2084
	ToneHLG                         // ARIB STD-B67
	// ToneSDR: an SDR signal, displayed by BT.1886's EOTF (Annex 1, black 0: L = Lw·V^2.4); only
	// with HDR10 output.
	ToneSDR
)

// Tone takes PQ or HLG R′G′B′ to SDR BT.709 R′G′B′ (§13): display light in cd/m² (HLG through its
// OOTF), the EETF per component on the PQ signal (or on max(R, G, B): MaxRGB; or none: Clip), scaled so that TargetPeak is 1,
// converted to BT.709 primaries, clipped to 0..1 and encoded with the BT.709 OETF.
type Tone struct {
	Transfer ToneTransfer
	Clip     bool // no EETF: luminance above TargetPeak clips
	// MaxRGB applies the EETF to max(R, G, B) of the display light and scales R, G and B by
	// EETF(max)/max (BT.2390 §5.4's maxRGB application), instead of to each component.
	MaxRGB                  bool
	SourceBlack, SourcePeak float64 // LB, LW (cd/m²)
	TargetBlack, TargetPeak float64 // Lmin, Lmax (cd/m²)
	HLGPeak, HLGGamma       float64 // the OOTF's LW and γ (HLG only)
	// Primaries are the source's xy of red, green, blue and white.
	Primaries [4][2]float64
	// HDR10 keeps the display light instead of mapping it to SDR: converted to BT.2020 primaries,
	// clipped to 0..10000 cd/m² and encoded with ST 2084's inverse EOTF (no curve, no SDR
	// target). SDRWhite is Lw of ToneSDR.
	HDR10    bool
	SDRWhite float64
	// ExtendedLinear keeps the display light as HDR10 does, but as extended-linear sRGB (scRGB):
	// converted to BT.709 primaries and divided by LinearWhite (the cd/m² of 1.0), neither clipped
	// nor encoded. SDRWhite is Lw of ToneSDR here too.
	ExtendedLinear bool
	LinearWhite    float64
}

func (t *Tone) validate() error {
	if t.ExtendedLinear && !(t.LinearWhite > 0) {
		return errors.New("oracle: tone: bad extended-linear white")
	}
	if t.HDR10 || t.ExtendedLinear {
		if (t.Transfer == ToneSDR && !(t.SDRWhite > 0)) || (t.Transfer == ToneHLG && !(t.HLGPeak > 0 && t.HLGGamma > 0)) ||
			(t.Transfer != TonePQ && t.Transfer != ToneHLG && t.Transfer != ToneSDR) {
			return errors.New("oracle: tone: bad display-light source")
		}
		return nil
	}
	if t.Transfer != TonePQ && t.Transfer != ToneHLG {
		return errors.New("oracle: tone: bad transfer")
	}
	if !(t.SourcePeak > t.SourceBlack && t.TargetPeak > t.TargetBlack && t.SourceBlack >= 0 && t.TargetBlack >= 0) {
		return errors.New("oracle: tone: bad luminances")
	}
	if t.Transfer == ToneHLG && !(t.HLGPeak > 0 && t.HLGGamma > 0) {
		return errors.New("oracle: tone: bad HLG OOTF")
	}
	return nil
}

// BT709Primaries are BT.709's xy (Table 1 items 1.3, 1.4).
var BT709Primaries = [4][2]float64{{0.640, 0.330}, {0.300, 0.600}, {0.150, 0.060}, {0.3127, 0.3290}}

// BT2020Primaries are BT.2020's xy (Table 3).
var BT2020Primaries = [4][2]float64{{0.708, 0.292}, {0.170, 0.797}, {0.131, 0.046}, {0.3127, 0.3290}}

// Linear is the stage up to display light: cd/m² per component, before any tone curve.
func (t *Tone) Linear(rgb [3]float64) [3]float64 {
	var out [3]float64
	switch t.Transfer {
	case TonePQ:
		for k := range out {
			out[k] = PQEOTF(rgb[k])
		}
		return out
	case ToneSDR:
		for k := range out {
			out[k] = t.SDRWhite * math.Pow(math.Max(0, math.Min(1, rgb[k])), 2.4)
		}
		return out
	}
	var e [3]float64
	for k := range e {
		e[k] = HLGInverseOETF(math.Max(0, math.Min(1, rgb[k])))
	}
	y := primaryMatrix(t.Primaries)[1]
	ys := y[0]*e[0] + y[1]*e[1] + y[2]*e[2]
	for k := range out {
		// BT.2100 Table 5 OOTF: F_D = α·Y_S^(γ−1)·E, α = LW (black level β = 0).
		out[k] = t.HLGPeak * math.Pow(math.Max(ys, 0), t.HLGGamma-1) * e[k]
	}
	return out
}

// Apply is the whole tone stage (or, with HDR10, the PQ BT.2020 encoding of the display light;
// with ExtendedLinear, the display light in BT.709 over LinearWhite).
func (t *Tone) Apply(rgb [3]float64) [3]float64 {
	nits := t.Linear(rgb)
	if t.ExtendedLinear {
		g := GamutMatrix(t.Primaries, BT709Primaries)
		var out [3]float64
		for i := range out {
			out[i] = (g[i][0]*nits[0] + g[i][1]*nits[1] + g[i][2]*nits[2]) / t.LinearWhite
		}
		return out
	}
	if t.HDR10 {
		g := GamutMatrix(t.Primaries, BT2020Primaries)
		var out [3]float64
		for i := range out {
			v := g[i][0]*nits[0] + g[i][1]*nits[1] + g[i][2]*nits[2]
			out[i] = PQInverseEOTF(math.Max(0, math.Min(10000, v)))
		}
		return out
	}
	if !t.Clip && t.MaxRGB {
		eetf := func(y float64) float64 {
			return PQEOTF(EETF(PQInverseEOTF(y), t.SourceBlack, t.SourcePeak, t.TargetBlack, t.TargetPeak))
		}
		m := math.Max(nits[0], math.Max(nits[1], nits[2]))
		f := eetf(m)
		for k := range nits {
			if m > 0 {
				nits[k] *= f / m
			} else {
				nits[k] = f // black: the curve's value at 0, the ratio form's limit for greys
			}
		}
	} else if !t.Clip {
		for k := range nits {
			nits[k] = PQEOTF(EETF(PQInverseEOTF(nits[k]), t.SourceBlack, t.SourcePeak, t.TargetBlack, t.TargetPeak))
		}
	}
	g := GamutMatrix(t.Primaries, BT709Primaries)
	var lin [3]float64
	for k := range lin {
		lin[k] = nits[k] / t.TargetPeak
	}
	var out [3]float64
	for i := range out {
		v := g[i][0]*lin[0] + g[i][1]*lin[1] + g[i][2]*lin[2]
		out[i] = BT709OETF(math.Max(0, math.Min(1, v)))
	}
	return out
}

// primaryMatrix is SMPTE RP 177's normalised primary matrix (linear RGB → XYZ, white Y = 1).
func primaryMatrix(c [4][2]float64) [3][3]float64 {
	col := func(xy [2]float64) [3]float64 { return [3]float64{xy[0] / xy[1], 1, (1 - xy[0] - xy[1]) / xy[1]} }
	var p [3][3]float64
	for j := 0; j < 3; j++ {
		v := col(c[j])
		for i := range v {
			p[i][j] = v[i]
		}
	}
	w := col(c[3])
	// Solve p·s = w (Cramer's rule), then scale column j by s_j.
	det := det3(p)
	var s [3]float64
	for j := 0; j < 3; j++ {
		q := p
		for i := 0; i < 3; i++ {
			q[i][j] = w[i]
		}
		s[j] = det3(q) / det
	}
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			p[i][j] *= s[j]
		}
	}
	return p
}

func det3(m [3][3]float64) float64 {
	return m[0][0]*(m[1][1]*m[2][2]-m[1][2]*m[2][1]) - m[0][1]*(m[1][0]*m[2][2]-m[1][2]*m[2][0]) + m[0][2]*(m[1][0]*m[2][1]-m[1][1]*m[2][0])
}

// GamutMatrix converts linear RGB of primaries from to linear RGB of primaries to:
// NPM(to)⁻¹·NPM(from).
func GamutMatrix(from, to [4][2]float64) [3][3]float64 {
	a, b := primaryMatrix(from), primaryMatrix(to)
	// Invert b by Cramer's rule, column by column.
	var inv [3][3]float64
	d := det3(b)
	for j := 0; j < 3; j++ {
		for i := 0; i < 3; i++ {
			q := b
			var e [3]float64
			e[j] = 1
			for r := 0; r < 3; r++ {
				q[r][i] = e[r]
			}
			inv[i][j] = det3(q) / d
		}
	}
	var out [3][3]float64
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			for k := 0; k < 3; k++ {
				out[i][j] += inv[i][k] * a[k][j]
			}
		}
	}
	return out
}
