package ycbcr_test

import (
	"math"
	"testing"

	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/ycbcr"
	ycbcrcheck "github.com/ycbcrkit/ycbcrkit/ycbcr/check"
	"github.com/ycbcrkit/ycbcrkit/ycbcr/oracle"
)

// pqCode is the 10-bit limited-range code of the PQ signal of nits cd/m², and the luminance that
// code stands for: both through the oracle's ST 2084 (ycbcr/oracle), not ycbcr.PQEOTF, which the
// peak measurement under test uses.
func pqCode(nits float64) (uint16, float64) {
	c := uint16(math.Round(64 + 876*oracle.PQInverseEOTF(nits)))
	return c, oracle.PQEOTF((float64(c) - 64) / 876)
}

// peakFrame is a 4:4:4 10-bit PQ picture: a dark grey ground (about 5 cd/m²), a grey ramp up to
// about 200 cd/m² on the first rows, and a 16×8 highlight of about `nits` cd/m²; greys, so that
// every component carries the luminance. It returns the highlight's exact luminance.
func peakFrame(t *testing.T, nits float64) (*formats.Frame, float64) {
	t.Helper()
	pf, _ := formats.Lookup("yuv444p10le")
	f, err := formats.NewFrame(pf, 64, 32)
	if err != nil {
		t.Fatal(err)
	}
	ground, _ := pqCode(5)
	hi, exact := pqCode(nits)
	for y := 0; y < 32; y++ {
		for x := 0; x < 64; x++ {
			c := ground
			if y < 4 {
				c, _ = pqCode(5 + 195*float64(x)/63)
			}
			if x >= 40 && x < 56 && y >= 16 && y < 24 {
				c = hi
			}
			f.SetCode(formats.Y, x, y, c)
			f.SetCode(formats.Cb, x, y, 512)
			f.SetCode(formats.Cr, x, y, 512)
		}
	}
	return f, exact
}

// bt709Linear is BT.709's OETF inverted (BT.709 Table 1 item 1.2): the SDR target's linear light of
// signal v.
func bt709Linear(v float64) float64 {
	if v < 4.5*0.018 {
		return v / 4.5
	}
	return math.Pow((v+0.099)/1.099, 1/0.45)
}

// TestPeakDetection is issue 27's check of HDR peak detection on the GPU: a PQ picture whose
// mastering metadata says 4000 cd/m² but whose brightest pixels are 400 cd/m². The peak pass
// measures the highlight's luminance (within 0.5%); the picture tone-mapped with the detected peak
// (Params.WithPeak) matches the oracle's tone map fed the true peak within 2/255, and its highlight
// reaches at least 90% of SDR white's luminance, where with the metadata's 4000 cd/m² it stays below
// (86%: code 236 of 255, through the BT.709 OETF).
func TestPeakDetection(t *testing.T) {
	_, conv := openConverter(t)
	f, truePeak := peakFrame(t, 400)
	meta := formats.HDRMetadata{MinLuminance: 0.005, MaxLuminance: 4000}
	p := ycbcr.Params{Matrix: formats.MatrixBT2020NCL, Range: formats.RangeLimited, ChromaLocation: formats.ChromaCenter,
		Transfer: formats.TransferSMPTE2084, Primaries: formats.PrimariesBT2020, HDR: meta}
	m, err := conv.MeasurePeak(f, p)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("measured peak %.2f cd/m² (true %.2f), mean PQ %.4f", m.Peak, truePeak, m.Mean)
	if math.Abs(m.Peak-truePeak) > 0.005*truePeak {
		t.Fatalf("measured peak %.2f cd/m², want %.2f within 0.5%%", m.Peak, truePeak)
	}
	// The mean: the grid (half the width, the whole height here: whole workgroups) covers the
	// picture evenly, so its mean is the picture's, each grey pixel's PQ signal (Y′ − 64)/876.
	sum := 0.0
	for y := 0; y < f.Height; y++ {
		for x := 0; x < f.Width; x++ {
			sum += (float64(f.Code(formats.Y, x, y)) - 64) / 876
		}
	}
	if want := sum / float64(f.Width*f.Height); math.Abs(m.Mean-want) > 0.002 {
		t.Errorf("mean PQ signal %.4f, the picture's is %.4f", m.Mean, want)
	}

	highlight := func(img []uint8) float64 { // the highlight's centre pixel's G as a fraction of SDR white's luminance
		return bt709Linear(float64(img[(20*64+48)*4+1]) / 255)
	}
	detected := p.WithPeak(m.Peak)
	got, err := conv.Convert(f, detected, formats.PathShader)
	if err != nil {
		t.Fatal(err)
	}
	truth := p
	truth.HDR.MaxCLL = truePeak
	want := oracleRGB(t, f.Format, ycbcrcheck.OraclePicture(f), truth)
	d, at := lsb(got, f.Width, want, nil)
	t.Logf("detected peak: %.3f LSB from the oracle fed the true peak; highlight at %.3f of SDR white", d, highlight(got.Pix))
	if d > 2 {
		t.Errorf("with the detected peak: %.2f LSB from the oracle fed the true peak at pixel %d, want ≤ 2", d, at)
	}
	if h := highlight(got.Pix); h < 0.9 {
		t.Errorf("with the detected peak the highlight is at %.3f of SDR white, want ≥ 0.9", h)
	}
	asToday, err := conv.Convert(f, p, formats.PathShader)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("with the metadata's peak (as without detection): highlight at %.3f of SDR white", highlight(asToday.Pix))
	if h := highlight(asToday.Pix); h >= 0.9 {
		t.Errorf("with the metadata's 4000 cd/m² the highlight is at %.3f of SDR white: the test picture does not show the problem", h)
	}
}

// TestPeakFilter checks the smoothing: a still scene's peak does not move at all (no flicker); a cut
// from a dark scene to a bright one is taken at once (the stream's readback adds its ring's frames:
// two, within issue 27's five); a highlight growing within a scene is followed gradually; a picture
// without luminance metadata takes the detected peak even above the 1000 cd/m² default.
func TestPeakFilter(t *testing.T) {
	var f ycbcr.PeakFilter
	dark := ycbcr.PeakMeasure{Peak: 120, Mean: ycbcr.PQInverseEOTF(2)}
	bright := ycbcr.PeakMeasure{Peak: 900, Mean: ycbcr.PQInverseEOTF(60)}
	first := f.Update(dark)
	for i := 0; i < 50; i++ {
		if got := f.Update(dark); got != first {
			t.Fatalf("still scene, frame %d: peak %v, was %v", i, got, first)
		}
	}
	if got := f.Update(bright); math.Abs(got-900) > 1e-6 {
		t.Errorf("after a cut to a bright scene the peak is %.1f, want 900 at once", got)
	}
	// Within the scene a highlight appears: the peak moves towards it over frames, not at once.
	lit := bright
	lit.Peak = 2000
	got := f.Update(lit)
	if got <= 900 || got >= 1500 {
		t.Errorf("a highlight within the scene moved the peak to %.1f at once, want a step towards 2000", got)
	}
	for i := 0; i < 100; i++ {
		got = f.Update(lit)
	}
	if math.Abs(got-2000) > 20 {
		t.Errorf("after 100 frames the peak is %.1f, want about 2000", got)
	}

	p := ycbcr.Params{Transfer: formats.TransferSMPTE2084}
	if in := p.WithPeak(1500).ToneInputs(); in.SourcePeak != 1500 {
		t.Errorf("without metadata the detected 1500 cd/m² gives a source peak of %v", in.SourcePeak)
	}
	p.HDR = formats.HDRMetadata{MaxLuminance: 1000}
	if in := p.WithPeak(1500).ToneInputs(); in.SourcePeak != 1000 {
		t.Errorf("a detected peak above the metadata's 1000 cd/m² gives a source peak of %v, want the metadata's", in.SourcePeak)
	}
	if in := p.WithPeak(20).ToneInputs(); in.SourcePeak != ycbcr.SDRPeak {
		t.Errorf("a detected peak of 20 cd/m² gives a source peak of %v, want the SDR target's %v", in.SourcePeak, ycbcr.SDRPeak)
	}
}

// TestPeakSlices: on a 1024×1088 picture (544 workgroups, their results spread over the pass's
// 32 slices) the peak is a 4×4 highlight's near the bottom-right corner, in a workgroup far from the
// first, and the mean is the picture's own mean PQ signal within 0.002.
func TestPeakSlices(t *testing.T) {
	_, conv := openConverter(t)
	const w, h = 1024, 1088
	pf, _ := formats.Lookup("yuv444p10le")
	f, err := formats.NewFrame(pf, w, h)
	if err != nil {
		t.Fatal(err)
	}
	hi, exact := pqCode(600)
	sum := 0.0
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			c, _ := pqCode(1 + 99*float64(x)/w) // a ramp from 1 to 100 cd/m²
			if x >= 900 && x < 904 && y >= 1000 && y < 1004 {
				c = hi
			}
			f.SetCode(formats.Y, x, y, c)
			f.SetCode(formats.Cb, x, y, 512)
			f.SetCode(formats.Cr, x, y, 512)
			sum += (float64(c) - 64) / 876
		}
	}
	p := ycbcr.Params{Matrix: formats.MatrixBT2020NCL, Range: formats.RangeLimited, ChromaLocation: formats.ChromaCenter,
		Transfer: formats.TransferSMPTE2084, Primaries: formats.PrimariesBT2020, HDR: formats.HDRMetadata{MaxLuminance: 4000}}
	m, err := conv.MeasurePeak(f, p)
	if err != nil {
		t.Fatal(err)
	}
	mean := sum / (w * h)
	t.Logf("peak %.2f cd/m² (true %.2f), mean PQ %.4f (picture %.4f)", m.Peak, exact, m.Mean, mean)
	if math.Abs(m.Peak-exact) > 0.005*exact {
		t.Errorf("peak %.2f cd/m², want %.2f within 0.5%%", m.Peak, exact)
	}
	if math.Abs(m.Mean-mean) > 0.002 {
		t.Errorf("mean PQ signal %.4f, the picture's is %.4f", m.Mean, mean)
	}
}
