package ycbcr_test

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/ycbcr"
	"github.com/ycbcrkit/ycbcrkit/ycbcr/oracle"
)

// The tests here hold the tone stage against code written by others: libplacebo's own BT.2390 EETF
// and its metadata inference (mpv's gpu-next renderer), built from testdata/placebo.c against the
// system's libplacebo (Debian's libplacebo-dev; make deps installs it).

var placeboOnce struct {
	sync.Once
	path string
	err  error
}

// placebo builds testdata/placebo.c once per test binary and returns the program's path.
func placebo(t *testing.T) string {
	t.Helper()
	placeboOnce.Do(func() {
		dir, err := os.MkdirTemp("", "ycbcr-placebo")
		if err != nil {
			placeboOnce.err = err
			return
		}
		flags, err := exec.Command("pkg-config", "--cflags", "--libs", "libplacebo").Output()
		if err != nil {
			placeboOnce.err = fmt.Errorf("pkg-config libplacebo: %v (libplacebo-dev missing: make deps installs it)", err)
			return
		}
		path := filepath.Join(dir, "placebo")
		args := append([]string{"-O1", "-o", path, "testdata/placebo.c"}, strings.Fields(string(flags))...)
		if out, err := exec.Command("cc", args...).CombinedOutput(); err != nil {
			placeboOnce.err = fmt.Errorf("cc testdata/placebo.c: %v: %s", err, out)
			return
		}
		placeboOnce.path = path
	})
	if placeboOnce.err != nil {
		t.Fatal(placeboOnce.err)
	}
	return placeboOnce.path
}

// placeboEETF maps PQ signals xs through libplacebo's pl_tone_map_bt2390 for a source of black lb and
// peak lw and a target of lmin and lmax (cd/m²), knee offset as in KS = (1 + offset)·maxLum − offset.
func placeboEETF(t *testing.T, xs []float64, lb, lw, lmin, lmax, offset float64) []float64 {
	t.Helper()
	var in bytes.Buffer
	for _, x := range xs {
		fmt.Fprintf(&in, "%.12g\n", x)
	}
	pq := func(v float64) string { return strconv.FormatFloat(oracle.PQInverseEOTF(v), 'g', 12, 64) }
	cmd := exec.Command(placebo(t), "eetf", pq(lb), pq(lw), pq(lmin), pq(lmax), strconv.FormatFloat(offset, 'g', 12, 64))
	cmd.Stdin = &in
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("placebo eetf: %v", err)
	}
	f := strings.Fields(string(out))
	if len(f) != len(xs) {
		t.Fatalf("placebo eetf: %d values for %d", len(f), len(xs))
	}
	ys := make([]float64, len(f))
	for i, s := range f {
		if ys[i], err = strconv.ParseFloat(s, 64); err != nil {
			t.Fatal(err)
		}
	}
	return ys
}

// hlgInverseOETF is BT.2100 Table 5's HLG inverse OETF (a, b, c of the table), written here from the
// standard rather than taken from the toolkit or its oracle.
func hlgInverseOETF(e float64) float64 {
	const a = 0.17883277
	const b = 1 - 4*a
	c := 0.5 - a*math.Log(4*a)
	if e <= 0.5 {
		return e * e / 3
	}
	return (math.Exp((e-c)/a) + b) / 12
}

// TestToneCurveAgainstLibplacebo checks the BT.2390 tone curve across its knee against libplacebo's
// implementation of the same Report (pl_tone_map_bt2390, knee offset 0.5 as BT.2390 §5.4 has it):
//   - the oracle's EETF, the CPU reference the shader path is held to (TestToneMapping), at 24 PQ
//     signals from just below KS to the source peak, for PQ sources of 1000 and 4000 cd/m² and the
//     HLG reference display (1000 cd/m²): within 2e-5 of a PQ signal (libplacebo computes in float);
//   - negative control: the same comparison against libplacebo with the knee moved by one 10-bit PQ
//     code (KS·(PQ(LW) − PQ(LB)) one step down: libplacebo takes knee offsets from 0.5 up only) must
//     fail, so the tolerance resolves the knee's place;
//   - the shader path itself on lavapipe: full-range grey ramps across the knee, PQ (1000 and 4000
//     cd/m² mastering peaks) and HLG (BT.2100's OOTF for a 1000 cd/m² display: F = 1000·E^1.2 for a
//     grey), within 1/255 of libplacebo's EETF taken to BT.709 (display light / 100 cd/m², the BT.709
//     OETF) at every code from 8 below the knee to the top.
func TestToneCurveAgainstLibplacebo(t *testing.T) {
	const tol = 2e-5
	for _, c := range []struct {
		name   string
		lb, lw float64
	}{
		{"PQ, 1000 cd/m²", 0, 1000},
		{"PQ, 4000 cd/m²", 0, 4000},
		{"HLG, the 1000 cd/m² reference display", 0, ycbcr.HLGDisplayPeak},
	} {
		b, w := oracle.PQInverseEOTF(c.lb), oracle.PQInverseEOTF(c.lw)
		maxLum := (oracle.PQInverseEOTF(ycbcr.SDRPeak) - b) / (w - b)
		ks := 1.5*maxLum - 0.5
		var xs []float64
		for i := 0; i < 24; i++ { // normalized E1 from KS − 0.05 to 1
			e1 := ks - 0.05 + (1-ks+0.05)*float64(i)/23
			xs = append(xs, e1*(w-b)+b)
		}
		ref := placeboEETF(t, xs, c.lb, c.lw, 0, ycbcr.SDRPeak, 0.5)
		worst := 0.0
		for i, x := range xs {
			got := oracle.EETF(x, c.lb, c.lw, 0, ycbcr.SDRPeak)
			worst = math.Max(worst, math.Abs(got-ref[i]))
		}
		t.Logf("%s: KS %.4f (PQ %.4f); oracle's EETF against libplacebo's at %d points across the knee: largest difference %.2g", c.name, ks, ks*(w-b)+b, len(xs), worst)
		if worst > tol {
			t.Errorf("%s: the oracle's EETF is %.3g from libplacebo's (tolerance %g)", c.name, worst, tol)
		}
		// Negative control: KS one 10-bit code lower. KS' = (1 + o)·maxLum − o gives o.
		ks2 := ks - 1/1023.0/(w-b)
		moved := placeboEETF(t, xs, c.lb, c.lw, 0, ycbcr.SDRPeak, (ks2-maxLum)/(maxLum-1))
		worstMoved := 0.0
		for i, x := range xs {
			worstMoved = math.Max(worstMoved, math.Abs(oracle.EETF(x, c.lb, c.lw, 0, ycbcr.SDRPeak)-moved[i]))
		}
		t.Logf("%s: against libplacebo with the knee one 10-bit code lower: largest difference %.2g", c.name, worstMoved)
		if worstMoved <= tol {
			t.Errorf("%s: moving the knee by one code went unnoticed (%.3g ≤ %g)", c.name, worstMoved, tol)
		}
	}

	// The shader path: a grey ramp through the whole tone stage.
	_, conv := openConverter(t)
	pf, _ := formats.Lookup("yuv444p")
	for _, c := range []struct {
		name string
		tr   formats.Transfer
		h    formats.HDRMetadata
		lw   float64
		// nits is a full-range grey code's display light, from the standards.
		nits func(e float64) float64
	}{
		{"PQ, 1000 cd/m² mastering peak", formats.TransferSMPTE2084, formats.HDRMetadata{MaxLuminance: 1000}, 1000, oracle.PQEOTF},
		{"PQ, 4000 cd/m² mastering peak", formats.TransferSMPTE2084, formats.HDRMetadata{MaxLuminance: 4000}, 4000, oracle.PQEOTF},
		{"HLG", formats.TransferARIBSTDB67, formats.HDRMetadata{}, ycbcr.HLGDisplayPeak,
			func(e float64) float64 { return ycbcr.HLGDisplayPeak * math.Pow(hlgInverseOETF(e), 1.2) }},
	} {
		w := oracle.PQInverseEOTF(c.lw)
		ks := 1.5*oracle.PQInverseEOTF(ycbcr.SDRPeak)/w - 0.5
		first := 0 // the first code whose PQ signal reaches 8 codes below the knee
		for first < 255 && oracle.PQInverseEOTF(c.nits(float64(first+8)/255)) < ks*w {
			first++
		}
		n := 256 - first
		f, err := formats.NewFrame(pf, n, 1)
		if err != nil {
			t.Fatal(err)
		}
		xs := make([]float64, n)
		for x := 0; x < n; x++ {
			f.SetCode(formats.Y, x, 0, uint16(first+x))
			f.SetCode(formats.Cb, x, 0, 128)
			f.SetCode(formats.Cr, x, 0, 128)
			xs[x] = oracle.PQInverseEOTF(math.Min(c.nits(float64(first+x)/255), c.lw))
		}
		ref := placeboEETF(t, xs, 0, c.lw, 0, ycbcr.SDRPeak, 0.5)
		want := make([][3]float64, n)
		for x := range want {
			v := oracle.BT709OETF(math.Min(1, oracle.PQEOTF(ref[x])/ycbcr.SDRPeak))
			want[x] = [3]float64{v, v, v}
		}
		p := hdrParams(c.tr, c.h, ycbcr.ToneBT2390)
		img, err := conv.Convert(f, p, formats.PathShader)
		if err != nil {
			t.Fatal(err)
		}
		d, at := lsb(img, n, want, nil)
		t.Logf("%s: codes %d–255 (%d points across the knee): %.3f LSB from libplacebo's EETF", c.name, first, n, d)
		if n < 20 {
			t.Errorf("%s: only %d codes across the knee", c.name, n)
		}
		if d > 1 {
			t.Errorf("%s: %.2f LSB from libplacebo's EETF at code %d", c.name, d, first+at)
		}
	}
}

// TestToneInputs checks which black and peak luminance the tone stage takes for each kind of static
// metadata a stream may carry, against what others take:
//   - libplacebo's pl_color_space_infer (what mpv's gpu-next renderer tone-maps from), run here;
//   - FFmpeg's tonemap filters (libavfilter/colorspace.c ff_determine_signal_peak: MaxCLL where
//     present, else the mastering display's peak, else 10000 cd/m² for PQ and 1000 for HLG);
//   - BT.2390 §5.4 (LB and LW: the mastering display's black and peak) and BT.2100 Table 5 (HLG's
//     OOTF for a display of nominal peak LW, 1000 cd/m² the reference; γ = 1.2 there).
//
// Where they agree the toolkit must too. Where they differ the test says whom the toolkit follows and
// checks that: MaxCLL, where present and below the mastering peak, is the peak (FFmpeg; libplacebo
// ignores MaxCLL); a PQ stream with no luminance metadata is taken as graded on a 1000 cd/m² display
// (DefaultPQPeak; libplacebo and FFmpeg take PQ's 10000 cd/m² ceiling, which would leave such a
// stream dim), and the source black is the mastering display's (BT.2390; libplacebo takes 0 for PQ
// in its renderer).
func TestToneInputs(t *testing.T) {
	pq, hlg := formats.TransferSMPTE2084, formats.TransferARIBSTDB67
	infer := func(tr string, h formats.HDRMetadata) (black, peak float64) {
		out, err := exec.Command(placebo(t), "infer", tr, fmt.Sprint(h.MinLuminance), fmt.Sprint(h.MaxLuminance), fmt.Sprint(h.MaxCLL)).Output()
		if err != nil {
			t.Fatalf("placebo infer: %v", err)
		}
		if _, err := fmt.Sscan(string(out), &black, &peak); err != nil {
			t.Fatalf("placebo infer: %q: %v", out, err)
		}
		return black, peak
	}
	ffmpegPeak := func(tr formats.Transfer, h formats.HDRMetadata) float64 {
		switch {
		case h.MaxCLL > 0:
			return h.MaxCLL
		case h.MaxLuminance > 0:
			return h.MaxLuminance
		case tr == pq:
			return 10000
		}
		return 1000
	}
	mastering := formats.HDRMetadata{MinLuminance: 0.005, MaxLuminance: 4000}
	for _, c := range []struct {
		name     string
		tr       formats.Transfer
		h        formats.HDRMetadata
		lb, lw   float64 // what the toolkit must take
		agreeLP  bool    // libplacebo's peak is lw too
		agreeFF  bool    // FFmpeg's peak is lw too
		hlgGamma float64
	}{
		{"PQ, mastering display only", pq, mastering, 0.005, 4000, true, true, 0},
		{"PQ, MaxCLL only", pq, formats.HDRMetadata{MaxCLL: 1500}, 0, 1500, false, true, 0},
		{"PQ, mastering display and MaxCLL", pq, formats.HDRMetadata{MinLuminance: 0.005, MaxLuminance: 4000, MaxCLL: 1500}, 0.005, 1500, false, true, 0},
		{"PQ, neither", pq, formats.HDRMetadata{}, 0, ycbcr.DefaultPQPeak, false, false, 0},
		{"HLG, no metadata", hlg, formats.HDRMetadata{}, 0, 1000, true, true, 1.2},
		{"HLG, mastering metadata (not used: HLG is scene-referred)", hlg, mastering, 0, 1000, false, false, 1.2},
	} {
		in := hdrParams(c.tr, c.h, ycbcr.ToneBT2390).ToneInputs()
		tr := "pq"
		if c.tr == hlg {
			tr = "hlg"
		}
		lpBlack, lpPeak := infer(tr, c.h)
		ffPeak := ffmpegPeak(c.tr, c.h)
		t.Logf("%s: toolkit LB %g LW %g; libplacebo %g, %g; FFmpeg's peak %g", c.name, in.SourceBlack, in.SourcePeak, lpBlack, lpPeak, ffPeak)
		if in.SourceBlack != c.lb || in.SourcePeak != c.lw {
			t.Errorf("%s: LB %g, LW %g; want %g, %g", c.name, in.SourceBlack, in.SourcePeak, c.lb, c.lw)
		}
		if (math.Abs(lpPeak-c.lw) < 0.01) != c.agreeLP {
			t.Errorf("%s: libplacebo's peak %g: agreement with %g expected %v", c.name, lpPeak, c.lw, c.agreeLP)
		}
		if (ffPeak == c.lw) != c.agreeFF {
			t.Errorf("%s: FFmpeg's peak %g: agreement with %g expected %v", c.name, ffPeak, c.lw, c.agreeFF)
		}
		if in.TargetBlack != 0 || in.TargetPeak != 100 {
			t.Errorf("%s: target %g–%g cd/m², want 0–100 (the SDR reference of BT.2035)", c.name, in.TargetBlack, in.TargetPeak)
		}
		if c.tr == hlg && (in.HLGPeak != 1000 || math.Abs(in.HLGGamma-c.hlgGamma) > 1e-12) {
			t.Errorf("%s: HLG OOTF LW %g γ %g, want 1000 and %g (BT.2100 Table 5)", c.name, in.HLGPeak, in.HLGGamma, c.hlgGamma)
		}
	}
}
