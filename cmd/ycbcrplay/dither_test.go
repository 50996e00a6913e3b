package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ycbcrkit/ycbcrkit/internal/pictest"
)

// TestDitherFlags: -dither auto (the default) dithers the 10-bit PQ vector with blue noise and
// leaves the 8-bit one alone unless it is debanded, -dither ordered and off are taken as given (-stats dither); the
// screenshot of the video picture is exact (the same as with -dither off) unless -screenshot-dither,
// which dithers it: every sample then within one code of the exact picture's, and some moved.
func TestDitherFlags(t *testing.T) {
	dir := t.TempDir()
	run := func(name string, args ...string) (string, string) {
		t.Helper()
		shot := filepath.Join(dir, name+".png")
		args = append([]string{"-headless", "-frames", "1", "-stats", "-screenshot", shot}, args...)
		stdout, stderr, code := play(t, args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, stderr)
		}
		var st struct{ Dither string }
		if err := json.Unmarshal([]byte(stdout), &st); err != nil {
			t.Fatalf("-stats: %v: %s", err, stdout)
		}
		return st.Dither, shot
	}
	pq := filepath.Join(colourDir, "pq.mkv")
	eight := filepath.Join(colourDir, "ycgco_tv.mkv")
	for _, tc := range []struct {
		name, want string
		args       []string
	}{
		{"auto-10bit", "blue", []string{pq}},
		{"auto-8bit", "off", []string{eight}},
		{"auto-8bit-debanded", "blue", []string{"-deband", eight}}, // finer than the target's codes
		{"ordered", "ordered", []string{"-dither", "ordered", eight}},
		{"off", "off", []string{"-dither", "off", pq}},
	} {
		if got, _ := run(tc.name, tc.args...); got != tc.want {
			t.Errorf("%s: -stats dither %q, want %q", tc.name, got, tc.want)
		}
	}
	_, exact := run("exact", "-dither", "off", pq)
	_, plain := run("plain", pq)
	_, dithered := run("dithered", "-screenshot-dither", pq)
	a, b, c := pictest.ReadNRGBA(t, exact), pictest.ReadNRGBA(t, plain), pictest.ReadNRGBA(t, dithered)
	moved := 0
	for i := range a.Pix {
		if a.Pix[i] != b.Pix[i] {
			t.Fatalf("the screenshot with -dither auto differs from the exact picture at byte %d: screenshots are not dithered", i)
		}
		d := int(c.Pix[i]) - int(a.Pix[i])
		if d < -1 || d > 1 {
			t.Fatalf("-screenshot-dither moved byte %d by %d codes, want at most 1", i, d)
		}
		if d != 0 {
			moved++
		}
	}
	if moved == 0 {
		t.Error("-screenshot-dither left the screenshot exact")
	}
	if _, stderr, code := play(t, "-headless", "-dither", "red", pq); code == 0 || !strings.Contains(stderr, "bad -dither") {
		t.Errorf("-dither red: exit %d, %q", code, stderr)
	}
}

// TestQualityFlags: -hdr-peak and -deband as -stats reports them, and their errors.
func TestQualityFlags(t *testing.T) {
	pq := filepath.Join(colourDir, "pq.mkv")
	eight := filepath.Join(colourDir, "ycgco_tv.mkv")
	stats := func(args ...string) (peak, deband string) {
		t.Helper()
		stdout, stderr, code := play(t, append([]string{"-headless", "-frames", "1", "-stats"}, args...)...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, stderr)
		}
		var st struct {
			Peak   string `json:"hdr_peak"`
			Deband string `json:"deband"`
		}
		if err := json.Unmarshal([]byte(stdout), &st); err != nil {
			t.Fatalf("-stats: %v: %s", err, stdout)
		}
		return st.Peak, st.Deband
	}
	for _, tc := range []struct {
		args       []string
		peak, debd string
	}{
		{[]string{pq}, "metadata 1000 cd/m² (nothing detected yet)", "off"},
		{[]string{"-hdr-peak", "metadata", pq}, "metadata 1000 cd/m²", "off"},
		{[]string{"-hdr-peak", "500", pq}, "fixed 500 cd/m²", "off"},
		{[]string{"-deband", pq}, "metadata 1000 cd/m² (nothing detected yet)", "off (10-bit source; debanding is for 8-bit sources)"},
		{[]string{"-deband", eight}, "", "iterations=1:samples=4:threshold=4:radius=16:grain=0"},
		{[]string{"-deband", "-deband-params", "iterations=2:grain=6", eight}, "", "iterations=2:samples=4:threshold=4:radius=16:grain=6"},
	} {
		if peak, debd := stats(tc.args...); peak != tc.peak || debd != tc.debd {
			t.Errorf("%v: hdr_peak %q, deband %q; want %q, %q", tc.args, peak, debd, tc.peak, tc.debd)
		}
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-hdr-peak", "50", pq}, "bad -hdr-peak"},
		{[]string{"-deband-params", "grain=1", pq}, "-deband-params without -deband"},
		{[]string{"-deband", "-deband-params", "strength=2", pq}, "bad deband setting"},
	} {
		if _, stderr, code := play(t, append([]string{"-headless"}, tc.args...)...); code == 0 || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d, %q; want an error with %q", tc.args, code, stderr, tc.want)
		}
	}
}
