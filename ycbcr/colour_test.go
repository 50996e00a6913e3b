package ycbcr_test

import (
	"fmt"
	"image"
	"math"
	"testing"

	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/testvectors/synth"
	"github.com/ycbcrkit/ycbcrkit/testvectors/zscale"
	"github.com/ycbcrkit/ycbcrkit/ycbcr"
	ycbcrcheck "github.com/ycbcrkit/ycbcrkit/ycbcr/check"
	"github.com/ycbcrkit/ycbcrkit/ycbcr/oracle"
)

// lsb is the largest difference, in 8-bit codes, between img and want (R′G′B′ in 0..1, clamped as
// the UNORM target clamps) over the pixels keep accepts (nil: all).
func lsb(img *image.RGBA, w int, want [][3]float64, keep func(i int) bool) (worst float64, at int) {
	for i, v := range want {
		if keep != nil && !keep(i) {
			continue
		}
		for c := 0; c < 3; c++ {
			got := float64(img.Pix[img.PixOffset(i%w, i/w)+c])
			if d := math.Abs(got - math.Min(math.Max(v[c], 0), 1)*255); d > worst {
				worst, at = d, i
			}
		}
	}
	return worst, at
}

// rgb drops the oracle's alpha: R′G′B′ per pixel, as lsb reads them.
func rgb(img [][4]float64) [][3]float64 {
	out := make([][3]float64, len(img))
	for i := range img {
		out[i] = [3]float64{img[i][0], img[i][1], img[i][2]}
	}
	return out
}

// oracleRGB is the oracle's R′G′B′ of pic (a frame of pf) under p.
func oracleRGB(t *testing.T, pf *formats.PixelFormat, pic *oracle.Picture, p ycbcr.Params) [][3]float64 {
	t.Helper()
	prm, err := ycbcrcheck.OracleParams(pf, p)
	if err != nil {
		t.Fatal(err)
	}
	return rgb(oracle.Image(pic, prm))
}

// TestColourSystemsAgainstZscale draws YCgCo and BT.2020 constant-luminance noise through the shader
// path (drawn and computed) and compares it with zscale (matrixin=ycgco, matrixin=2020_cl): within
// 1/255 at every pixel, for 4:2:0 at every chroma location, 4:2:2 and 4:4:4. The oracle must agree
// with zscale too (to float precision), which makes it the judge of the depths and ranges zscale is
// not used for (TestColourSystemsDepths).
//
// Both ranges are compared: in limited range YCgCo's Cg and Co have luma's 219 excursion (H.264
// Annex E.2.1 Equations E-13 to E-15 and E-34 to E-36, docs/ycbcr-math.md §11.1), as in zimg. One
// difference of zimg 3.0.4 is left out, measured: for constant luminance it returns 0 for negative
// R′ or B′ (outside BT.2020 Table 4's ranges), so pixels whose exact R′ or B′ is negative are
// skipped. zscale's CL output is linear light (see testvectors/zscale), encoded here with BT.2020's
// OETF.
func TestColourSystemsAgainstZscale(t *testing.T) {
	_, conv := openConverter(t)
	worst, oworst := 0.0, 0.0
	for _, m := range []formats.Matrix{formats.MatrixYCgCo, formats.MatrixBT2020CL} {
		for _, name := range []string{"yuv420p", "yuv422p", "yuv444p"} {
			pf, _ := formats.Lookup(name)
			f, err := synth.Noise(pf, 16, 8, 11)
			if err != nil {
				t.Fatal(err)
			}
			locs := locations
			if name != "yuv420p" {
				locs = []formats.ChromaLocation{formats.ChromaLeft}
			}
			var cases []zscale.Case // every range and location, in one ffmpeg run
			for _, r := range []formats.Range{formats.RangeLimited, formats.RangeFull} {
				for _, loc := range locs {
					cases = append(cases, zscale.Case{Matrix: m, Range: r, ChromaLocation: loc})
				}
			}
			refs, err := zscale.ConvertMany(f, cases)
			if err != nil {
				t.Fatal(err)
			}
			for k, cs := range cases {
				r, loc, ref := cs.Range, cs.ChromaLocation, refs[k]
				p := ycbcr.Params{Matrix: m, Range: r, ChromaLocation: loc}
				prm, err := ycbcrcheck.OracleParams(pf, p)
				if err != nil {
					t.Fatal(err)
				}
				img := oracle.Image(ycbcrcheck.OraclePicture(f), prm)
				legal := make([]bool, len(img))
				for i := range ref {
					legal[i] = m != formats.MatrixBT2020CL || (img[i][0] >= 0 && img[i][2] >= 0)
					if m == formats.MatrixBT2020CL {
						for c := range ref[i] {
							ref[i][c] = oracle.BT2020OETF(ref[i][c])
						}
					}
					for c := 0; c < 3 && legal[i]; c++ {
						// As the target shows them (0..1): outside, zimg's CL differs (see above).
						cl := func(v float64) float64 { return math.Min(math.Max(v, 0), 1) }
						oworst = math.Max(oworst, math.Abs(cl(img[i][c])-cl(ref[i][c])))
					}
				}
				for _, compute := range []bool{false, true} {
					var got *image.RGBA
					if compute {
						got, err = conv.ConvertCompute(f, p, formats.PathShader)
					} else {
						got, err = conv.Convert(f, p, formats.PathShader)
					}
					if err != nil {
						t.Fatal(err)
					}
					d, at := lsb(got, f.Width, ref, func(i int) bool { return legal[i] })
					worst = math.Max(worst, d)
					if d > 1 {
						t.Errorf("%s %s %s %s (compute %v): %.2f LSB from zscale at pixel %d", name, m, r, loc, compute, d, at)
					}
				}
			}
		}
	}
	t.Logf("worst: shader path %.3f LSB from zscale; oracle %.3g from zscale", worst, oworst)
	if oworst > 1e-3 { // a quarter LSB: zimg's fp32 transfer functions (measured 6e−4 for CL)
		t.Errorf("the oracle differs from zscale by %.3g", oworst)
	}
}

// TestColourSystemsDepths runs YCgCo, YCgCo-Re, YCgCo-Ro and BT.2020 constant luminance through the
// shader path at 8 to 16 bits, planar and semi-planar, and compares every pixel with the oracle's
// exact value: within 1/255.
func TestColourSystemsDepths(t *testing.T) {
	_, conv := openConverter(t)
	for _, name := range []string{"yuv420p", "nv12", "yuv422p10le", "p010le", "yuv444p12le", "yuv420p16le", "yuv444p16le"} {
		pf, ok := formats.Lookup(name)
		if !ok {
			t.Fatalf("%s not in the table", name)
		}
		f, err := synth.Noise(pf, 18, 10, 5)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range []formats.Matrix{formats.MatrixYCgCo, formats.MatrixYCgCoRe, formats.MatrixYCgCoRo, formats.MatrixBT2020CL} {
			for _, r := range []formats.Range{formats.RangeLimited, formats.RangeFull} {
				p := ycbcr.Params{Matrix: m, Range: r, ChromaLocation: formats.ChromaTopLeft}
				want3 := oracleRGB(t, pf, ycbcrcheck.OraclePicture(f), p)
				img, err := conv.Convert(f, p, formats.PathShader)
				if err != nil {
					t.Fatal(err)
				}
				limit := 1.0
				if form, _ := m.Form(); form.System == formats.SystemYCgCoR && pf.Log2ChromaW+pf.Log2ChromaH > 0 {
					// Interpolated chroma is rounded to a code before the integer lifting (H.273's
					// t = Y − (Cg >> 1), G = t + Cg, B = t − (Co >> 1), R = B + Co). Where fp32 and
					// float64 land either side of a rounding step, Cg and Co may each move by one code;
					// through the lifting that moves G by at most one code and B and R by at most two
					// (B: one from t and one from Co >> 1; R: one from t and one from Co). Hence two
					// m-bit codes: NVIDIA's fp32 met exactly this (4.31 LSB at 8 bits, YCgCo-Ro 4:2:0).
					limit += 2 * 255 / (math.Exp2(float64(pf.Depth-form.AddedBits)) - 1)
				}
				if d, at := lsb(img, f.Width, want3, nil); d > limit {
					t.Errorf("%s %s %s: %.2f LSB from the oracle at pixel %d (limit %.2f)", name, m, r, d, at, limit)
				}
			}
		}
	}
}

// TestYCgCoRLifting checks the oracle's YCgCo-R against H.273's integer lifting itself: R′G′B′ codes
// of m bits go through the forward lifting (Co = R − B; t = B + (Co >> 1); Cg = G − t;
// Y = t + (Cg >> 1)), are stored with the chroma offset 2^(n−1) in n = m + added bits, and must come
// back exactly (as code/(2^m − 1)).
func TestYCgCoRLifting(t *testing.T) {
	for _, added := range []int{1, 2} {
		n := 8 + added
		m := n - added
		p := oracle.NewPicture(4, 4, 0, 0, n)
		var rgb [][3]int
		for i := range p.Y {
			r, g, b := (i*37)%(1<<m), (i*91+13)%(1<<m), (i*53+200)%(1<<m)
			co := r - b
			tt := b + (co >> 1)
			cg := g - tt
			y := tt + (cg >> 1)
			p.Y[i], p.Cb[i], p.Cr[i] = uint16(y), uint16(cg+1<<(n-1)), uint16(co+1<<(n-1))
			rgb = append(rgb, [3]int{r, g, b})
		}
		img := oracle.Image(p, oracle.Params{Model: oracle.ModelYCgCoR, YCgCoRAddedBits: added, Range: oracle.RangeFull, LumaFilter: oracle.Linear, ChromaFilter: oracle.Linear})
		for i, v := range img {
			for c := 0; c < 3; c++ {
				if d := math.Abs(v[c]*float64(int(1)<<m-1) - float64(rgb[i][c])); d > 1e-9 {
					t.Fatalf("added %d pixel %d: %v, want %v", added, i, v, rgb[i])
				}
			}
		}
	}
}

// hdrFrame is a 4:4:4 8-bit BT.2020 frame: a grey ramp over the whole code range on the first rows,
// then noise rows (colours).
func hdrFrame(t *testing.T) *formats.Frame {
	pf, _ := formats.Lookup("yuv444p")
	f, err := synth.Noise(pf, 64, 8, 3)
	if err != nil {
		t.Fatal(err)
	}
	for y := 0; y < 4; y++ {
		for x := 0; x < 64; x++ {
			f.SetCode(formats.Y, x, y, uint16(x*4+y))
			f.SetCode(formats.Cb, x, y, 128)
			f.SetCode(formats.Cr, x, y, 128)
		}
	}
	return f
}

func hdrParams(tr formats.Transfer, h formats.HDRMetadata, tone ycbcr.ToneCurve) ycbcr.Params {
	return ycbcr.Params{Matrix: formats.MatrixBT2020NCL, Range: formats.RangeFull, ChromaLocation: formats.ChromaCenter,
		Transfer: tr, Primaries: formats.PrimariesBT2020, HDR: h, Tone: tone}
}

// TestToneMapping checks the PQ and HLG tone stage on the shader path:
//   - against the oracle's BT.2390 EETF, HLG OOTF and gamut conversion (formulas from the standards),
//     over a grey ramp and colour noise: within 1/255;
//   - the linearization against zscale (transferin=smpte2084 / arib-std-b67, transfer=linear,
//     primaries=709, nominal peak 100 cd/m²), BT.709-encoded here, where the curve is the identity
//     (PQ below KS): within 1/255. zimg 3.0.4 applies HLG's OOTF per component, not to the luminance
//     as BT.2100 Table 5 does, so for HLG only greys (where the two agree) are compared with it;
//   - mastering metadata: a 4000 cd/m² mastering peak gives another picture than 1000, each within
//     1/255 of the EETF with its own LW, and the difference is large where the formula says it is.
func TestToneMapping(t *testing.T) {
	_, conv := openConverter(t)
	f := hdrFrame(t)
	pic := ycbcrcheck.OraclePicture(f)
	expand := func(p ycbcr.Params) [][3]float64 { // R′G′B′ before the tone stage, for the masks
		prm, err := ycbcrcheck.OracleParams(f.Format, p)
		if err != nil {
			t.Fatal(err)
		}
		prm.Tone = nil
		return rgb(oracle.Image(pic, prm))
	}
	hdr1000 := formats.HDRMetadata{MinLuminance: 0, MaxLuminance: 1000}
	for _, tc := range []struct {
		tr   formats.Transfer
		h    formats.HDRMetadata
		tone ycbcr.ToneCurve
	}{
		{formats.TransferSMPTE2084, hdr1000, ycbcr.ToneBT2390},
		{formats.TransferSMPTE2084, formats.HDRMetadata{MinLuminance: 0.005, MaxLuminance: 4000, MaxCLL: 2000}, ycbcr.ToneBT2390},
		{formats.TransferSMPTE2084, hdr1000, ycbcr.ToneClip},
		{formats.TransferARIBSTDB67, formats.HDRMetadata{}, ycbcr.ToneBT2390},
	} {
		p := hdrParams(tc.tr, tc.h, tc.tone)
		what := fmt.Sprintf("%s %v %s", tc.tr, tc.h, tc.tone)
		want3 := oracleRGB(t, f.Format, pic, p)
		img, err := conv.Convert(f, p, formats.PathShader)
		if err != nil {
			t.Fatal(err)
		}
		d, at := lsb(img, f.Width, want3, nil)
		t.Logf("%s: %.3f LSB from the oracle; applied: %s", what, d, p.Applied(f.Format))
		if d > 1 {
			t.Errorf("%s: %.2f LSB from the oracle at pixel %d", what, d, at)
		}
	}

	// The oracle's EETF against BT.2390's own statements: identity below KS, source white to the
	// target peak, continuous at KS.
	for _, lw := range []float64{1000, 4000} {
		w, lmax := oracle.PQInverseEOTF(lw), oracle.PQInverseEOTF(100)
		ks := 1.5*lmax/w - 0.5
		if got := oracle.EETF(w, 0, lw, 0, 100); math.Abs(got-lmax) > 1e-12 {
			t.Errorf("EETF(PQ(%g)) = %v, want PQ(100) = %v", lw, got, lmax)
		}
		e := 0.9 * ks * w
		if got := oracle.EETF(e, 0, lw, 0, 100); math.Abs(got-e) > 1e-12 {
			t.Errorf("EETF below KS is not the identity: %v → %v", e, got)
		}
		if a, b := oracle.EETF(ks*w-1e-9, 0, lw, 0, 100), oracle.EETF(ks*w+1e-9, 0, lw, 0, 100); math.Abs(a-b) > 1e-8 {
			t.Errorf("EETF jumps at KS: %v, %v", a, b)
		}
	}

	// Linearization against zscale where the curve leaves the signal alone.
	for _, tr := range []formats.Transfer{formats.TransferSMPTE2084, formats.TransferARIBSTDB67} {
		p := hdrParams(tr, hdr1000, ycbcr.ToneBT2390)
		zin := map[formats.Transfer]string{formats.TransferSMPTE2084: "smpte2084", formats.TransferARIBSTDB67: "arib-std-b67"}[tr]
		lin, err := zscale.ConvertWith(f, formats.MatrixBT2020NCL, formats.RangeFull, formats.ChromaCenter,
			":primariesin=2020:primaries=709:transferin="+zin+":transfer=linear:npl=100")
		if err != nil {
			t.Fatal(err)
		}
		ref := make([][3]float64, len(lin))
		for i, v := range lin {
			for c := range v {
				ref[i][c] = oracle.BT709OETF(math.Max(0, math.Min(1, v[c])))
			}
		}
		rgb := expand(p)
		in := p.ToneInputs()
		ks := 1.5*oracle.PQInverseEOTF(in.TargetPeak)/oracle.PQInverseEOTF(in.SourcePeak) - 0.5
		tone := &oracle.Tone{Transfer: oracle.TonePQ, TargetPeak: 100, SourcePeak: in.SourcePeak, HLGPeak: in.HLGPeak, HLGGamma: in.HLGGamma, Primaries: oracle.BT2020Primaries}
		if tr == formats.TransferARIBSTDB67 {
			tone.Transfer = oracle.ToneHLG
		}
		n := 0
		keep := func(i int) bool {
			if tr == formats.TransferARIBSTDB67 && i/f.Width >= 4 {
				return false // colours: zimg's per-component OOTF differs from BT.2100's
			}
			nits := tone.Linear(rgb[i])
			for _, v := range nits {
				if oracle.PQInverseEOTF(v)/oracle.PQInverseEOTF(in.SourcePeak) >= ks {
					return false
				}
			}
			n++
			return true
		}
		img, err := conv.Convert(f, p, formats.PathShader)
		if err != nil {
			t.Fatal(err)
		}
		d, at := lsb(img, f.Width, ref, keep)
		t.Logf("%s: %.3f LSB from zscale's linearization over %d pixels below KS", tr, d, n)
		if n < 40 {
			t.Errorf("%s: only %d pixels below KS", tr, n)
		}
		if d > 1 {
			t.Errorf("%s: %.2f LSB from zscale's linearization at pixel %d", tr, d, at)
		}
	}

	// Mastering metadata changes the picture as the formula says.
	a, err := conv.Convert(f, hdrParams(formats.TransferSMPTE2084, hdr1000, ycbcr.ToneBT2390), formats.PathShader)
	if err != nil {
		t.Fatal(err)
	}
	b, err := conv.Convert(f, hdrParams(formats.TransferSMPTE2084, formats.HDRMetadata{MaxLuminance: 4000}, ycbcr.ToneBT2390), formats.PathShader)
	if err != nil {
		t.Fatal(err)
	}
	maxDiff, maxWant := 0.0, 0.0
	for x := 0; x < 64; x++ { // the grey ramp, row 0: code 4x, full range
		e := float64(4*x) / 255
		wa := oracle.BT709OETF(math.Min(1, oracle.PQEOTF(oracle.EETF(e, 0, 1000, 0, 100))/100)) * 255
		wb := oracle.BT709OETF(math.Min(1, oracle.PQEOTF(oracle.EETF(e, 0, 4000, 0, 100))/100)) * 255
		ga, gb := float64(a.Pix[a.PixOffset(x, 0)]), float64(b.Pix[b.PixOffset(x, 0)])
		if math.Abs(ga-wa) > 1 || math.Abs(gb-wb) > 1 {
			t.Errorf("ramp code %d: %v (LW 1000) and %v (LW 4000), want %.2f and %.2f", 4*x, ga, gb, wa, wb)
		}
		maxDiff, maxWant = math.Max(maxDiff, math.Abs(ga-gb)), math.Max(maxWant, math.Abs(wa-wb))
	}
	t.Logf("mastering peak 1000 vs 4000 cd/m²: up to %.0f codes apart (formula: %.1f)", maxDiff, maxWant)
	if maxWant < 10 || maxDiff < maxWant-1 {
		t.Errorf("mastering metadata: pictures %.0f codes apart, formula %.1f", maxDiff, maxWant)
	}
}

// TestGamutMatrix checks the BT.2020 → BT.709 conversion both sides compute from chromaticities
// against BT.2087's published BT.709 → BT.2020 matrix (its inverse).
func TestGamutMatrix(t *testing.T) {
	bt2087 := [3][3]float64{{0.6274, 0.3293, 0.0433}, {0.0691, 0.9195, 0.0114}, {0.0164, 0.0880, 0.8956}}
	toolkit, err := formats.GamutMatrix(formats.PrimariesBT709, formats.PrimariesBT2020)
	if err != nil {
		t.Fatal(err)
	}
	orc := oracle.GamutMatrix(oracle.BT709Primaries, oracle.BT2020Primaries)
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			if math.Abs(toolkit[i][j]-bt2087[i][j]) > 1e-4 || math.Abs(orc[i][j]-bt2087[i][j]) > 1e-4 {
				t.Errorf("[%d][%d]: toolkit %.5f, oracle %.5f, BT.2087 %.4f", i, j, toolkit[i][j], orc[i][j], bt2087[i][j])
			}
		}
	}
}

// TestHDR10Output checks the shader path's HDR10 output (Params.Output = OutputHDR10: display light
// kept, BT.2020 primaries, PQ-encoded; docs/ycbcr-math.md §13.5), drawn into the 8-bit offscreen
// target:
//   - every pixel of PQ (BT.2020), HLG (BT.2020) and SDR (BT.709, limited) pictures, grey ramp and
//     colour noise, within 1/255 of the oracle's encoding (ST 2084 inverse EOTF of the BT.2087
//     gamut conversion of the display light);
//   - two values from the standards themselves, not from the oracle: a PQ BT.2020 grey passes
//     through unchanged (the pass-through's definition), and SDR white lands on BT.2408's HDR
//     reference white, 203 cd/m², which BT.2408 Table 1 gives as PQ signal 58 %.
func TestHDR10Output(t *testing.T) {
	_, conv := openConverter(t)
	f := hdrFrame(t)
	pic := ycbcrcheck.OraclePicture(f)
	sdr := ycbcr.Params{Matrix: formats.MatrixBT709, Range: formats.RangeLimited, ChromaLocation: formats.ChromaCenter,
		Transfer: formats.TransferBT709, Primaries: formats.PrimariesBT709, Output: ycbcr.OutputHDR10}
	pq := hdrParams(formats.TransferSMPTE2084, formats.HDRMetadata{MaxLuminance: 1000}, ycbcr.ToneBT2390)
	pq.Output = ycbcr.OutputHDR10
	hlg := hdrParams(formats.TransferARIBSTDB67, formats.HDRMetadata{}, ycbcr.ToneBT2390)
	hlg.Output = ycbcr.OutputHDR10
	for _, p := range []ycbcr.Params{pq, hlg, sdr} {
		want3 := oracleRGB(t, f.Format, pic, p)
		img, err := conv.Convert(f, p, formats.PathShader)
		if err != nil {
			t.Fatal(err)
		}
		d, at := lsb(img, f.Width, want3, nil)
		t.Logf("%s: %.3f LSB from the oracle; applied: %s", p, d, p.Applied(f.Format))
		if d > 1 {
			t.Errorf("%s: %.2f LSB from the oracle at pixel %d", p, d, at)
		}
		switch p.Transfer {
		case formats.TransferSMPTE2084:
			for x := 0; x < 64; x++ { // row 0: full-range grey codes 4x, Cb = Cr = 128
				if got := int(img.Pix[img.PixOffset(x, 0)]); math.Abs(float64(got-4*x)) > 1 {
					t.Errorf("PQ grey %d came out as %d", 4*x, got)
				}
			}
		}
	}
	if _, err := conv.Convert(f, pq, formats.PathSampler); err == nil {
		t.Error("the sampler path accepted HDR10 output")
	}

	// SDR white (Y′ 235, Cb = Cr = 128) → 203 cd/m² → PQ 0.58 (BT.2408 Table 1).
	pf, _ := formats.Lookup("yuv444p")
	w, err := synth.Noise(pf, 4, 2, 1)
	if err != nil {
		t.Fatal(err)
	}
	for y := 0; y < 2; y++ {
		for x := 0; x < 4; x++ {
			w.SetCode(formats.Y, x, y, 235)
			w.SetCode(formats.Cb, x, y, 128)
			w.SetCode(formats.Cr, x, y, 128)
		}
	}
	img, err := conv.Convert(w, sdr, formats.PathShader)
	if err != nil {
		t.Fatal(err)
	}
	for c := 0; c < 3; c++ {
		if v := float64(img.Pix[c]) / 255; math.Abs(v-0.58) > 0.005+1.0/255 {
			t.Errorf("SDR white: channel %d = %.4f, want BT.2408's PQ 0.58", c, v)
		}
	}
}

// maxRGBFrame is a 4:4:4 16-bit full-range BT.2020 PQ frame (64×8): rows 0–1 a grey ramp over the
// whole PQ signal; rows 2–3 BT.2020's primaries and secondaries (x mod 6) at PQ signals 0.3 to 1;
// rows 4–7 four BT.709-gamut colours (hue rows) whose brightest BT.709 component goes from 20 to
// 4000 cd/m² along x. hue lists the hue rows' BT.709 linear colours (any scale).
func maxRGBFrame(t *testing.T) (f *formats.Frame, hue [4][3]float64) {
	pf, _ := formats.Lookup("yuv444p16le")
	f, err := synth.Noise(pf, 64, 8, 1)
	if err != nil {
		t.Fatal(err)
	}
	const kr, kb = 0.2627, 0.0593 // BT.2020 non-constant luminance (BT.2020 Table 4)
	set := func(x, y int, rgb [3]float64) {
		yy := kr*rgb[0] + (1-kr-kb)*rgb[1] + kb*rgb[2]
		code := func(v, off float64) uint16 { return uint16(math.Round(v*65535 + off)) }
		f.SetCode(formats.Y, x, y, code(yy, 0))
		f.SetCode(formats.Cb, x, y, code((rgb[2]-yy)/(2*(1-kb)), 32768))
		f.SetCode(formats.Cr, x, y, code((rgb[0]-yy)/(2*(1-kr)), 32768))
	}
	to2020 := oracle.GamutMatrix(oracle.BT709Primaries, oracle.BT2020Primaries)
	hue = [4][3]float64{{1, 0.6, 0.3}, {0.35, 1, 0.5}, {0.45, 0.55, 1}, {1, 0.4, 0.85}}
	secondaries := [6][3]float64{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {0, 1, 1}, {1, 0, 1}, {1, 1, 0}}
	for x := 0; x < 64; x++ {
		g := float64(x) / 63
		set(x, 0, [3]float64{g, g, g})
		set(x, 1, [3]float64{g, g, g})
		s := 0.3 + 0.7*g
		for y := 2; y < 4; y++ {
			c := secondaries[(x+3*(y-2))%6]
			set(x, y, [3]float64{c[0] * s, c[1] * s, c[2] * s})
		}
		peak := 20 * math.Pow(4000.0/20, g)
		for i, c := range hue {
			var pq [3]float64
			for k := range pq {
				nits := peak * (to2020[k][0]*c[0] + to2020[k][1]*c[1] + to2020[k][2]*c[2])
				pq[k] = oracle.PQInverseEOTF(nits)
			}
			set(x, 4+i, pq)
		}
	}
	return f, hue
}

// TestToneMaxRGB checks -tonemap bt2390-max, BT.2390's EETF applied to max(R, G, B) of the display
// light with R, G and B scaled by the same ratio (docs/ycbcr-math.md §13.2):
//   - the shader path against the oracle (its formula written from BT.2390 §5.4) over a grey ramp,
//     BT.2020's primaries and secondaries and bright BT.709-gamut colours, with and without
//     mastering metadata: within 1/255;
//   - greys give the per-component curve's picture (max(R, G, B) is each component);
//   - hue: on the hue rows, the drawn colours' BT.709 linear components must be one common multiple
//     of the input's (a ratio k exists inside every component's ±1-code interval) at every pixel that
//     is not clipped at code 255; the per-component curve fails that on the highlights, where it
//     compresses the brightest component more than the others.
func TestToneMaxRGB(t *testing.T) {
	_, conv := openConverter(t)
	f, hue := maxRGBFrame(t)
	pic := ycbcrcheck.OraclePicture(f)
	master := formats.HDRMetadata{MinLuminance: 0.005, MaxLuminance: 4000}
	draw := func(p ycbcr.Params) *image.RGBA {
		img, err := conv.Convert(f, p, formats.PathShader)
		if err != nil {
			t.Fatal(err)
		}
		return img
	}
	for _, h := range []formats.HDRMetadata{{}, master} {
		p := hdrParams(formats.TransferSMPTE2084, h, ycbcr.ToneBT2390Max)
		img := draw(p)
		d, at := lsb(img, f.Width, oracleRGB(t, f.Format, pic, p), nil)
		t.Logf("bt2390-max, %v: %.3f LSB from the oracle; applied: %s", h, d, p.Applied(f.Format))
		if d > 1 {
			t.Errorf("bt2390-max, %v: %.2f LSB from the oracle at pixel %d", h, d, at)
		}
		per := oracleRGB(t, f.Format, pic, hdrParams(formats.TransferSMPTE2084, h, ycbcr.ToneBT2390))
		if d, at := lsb(img, f.Width, per, func(i int) bool { return i < 2*f.Width }); d > 1 {
			t.Errorf("bt2390-max, %v: greys %.2f LSB from the per-component curve at pixel %d", h, d, at)
		}
	}

	// Hue: the input's BT.709 linear colour (before the tone stage, from the decoded codes) against
	// the drawn one.
	prm, err := ycbcrcheck.OracleParams(f.Format, hdrParams(formats.TransferSMPTE2084, master, ycbcr.ToneOff))
	if err != nil {
		t.Fatal(err)
	}
	prm.Tone = nil
	in := oracle.Image(pic, prm)
	to709 := oracle.GamutMatrix(oracle.BT2020Primaries, oracle.BT709Primaries)
	inv709 := func(v float64) float64 { // BT.709 OETF inverse
		if v < 4.5*0.018 {
			return v / 4.5
		}
		return math.Pow((v+0.099)/1.099, 1/0.45)
	}
	shifts := func(img *image.RGBA) (kept, shifted int) {
		for y := 4; y < 8; y++ {
			for x := 0; x < f.Width; x++ {
				i := y*f.Width + x
				var nits, lin [3]float64
				for k := range nits {
					nits[k] = oracle.PQEOTF(in[i][k])
				}
				for k := range lin {
					lin[k] = to709[k][0]*nits[0] + to709[k][1]*nits[1] + to709[k][2]*nits[2]
				}
				lo, hi, clipped := 0.0, math.Inf(1), false
				for c := 0; c < 3; c++ {
					code := float64(img.Pix[img.PixOffset(x, y)+c])
					clipped = clipped || code == 255
					lo = math.Max(lo, inv709(math.Max(code-1, 0)/255)/lin[c])
					hi = math.Min(hi, inv709(math.Min(code+1, 255)/255)/lin[c])
				}
				if clipped {
					continue
				}
				kept++
				if lo > hi {
					shifted++
				}
			}
		}
		return kept, shifted
	}
	kept, shifted := shifts(draw(hdrParams(formats.TransferSMPTE2084, master, ycbcr.ToneBT2390Max)))
	t.Logf("bt2390-max: %d of %d unclipped hue-row pixels off a common ratio (colours %v)", shifted, kept, hue)
	if kept < 100 || shifted != 0 {
		t.Errorf("bt2390-max: %d of %d unclipped hue-row pixels change R:G:B beyond 1 code", shifted, kept)
	}
	keptPer, shiftedPer := shifts(draw(hdrParams(formats.TransferSMPTE2084, master, ycbcr.ToneBT2390)))
	t.Logf("bt2390 per component: %d of %d unclipped hue-row pixels off a common ratio", shiftedPer, keptPer)
	if shiftedPer < 20 {
		t.Errorf("bt2390 per component: only %d of %d hue-row pixels shifted; the test no longer shows the difference", shiftedPer, keptPer)
	}
}
