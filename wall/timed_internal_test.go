package wall

import (
	"fmt"
	"math"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/ycbcrkit/ycbcrkit/internal/testkit/vktest"
)

// feedClips writes one clip per FFmpeg test source named in srcs: w×h, 30 pictures a second, n of
// them (lossless H.264, Debian's ffmpeg), different pictures from each source.
func feedClips(t *testing.T, srcs []string, w, h, n int) []string {
	t.Helper()
	dir := t.TempDir()
	var out []string
	for _, src := range srcs {
		p := filepath.Join(dir, src+".mkv")
		cmd := exec.Command("ffmpeg", "-hide_banner", "-nostdin", "-loglevel", "error", "-f", "lavfi",
			"-i", fmt.Sprintf("%s=s=%dx%d:r=30", src, w, h), "-frames:v", fmt.Sprint(n), "-pix_fmt", "yuv420p",
			"-c:v", "libx264", "-qp", "0", "-bf", "0", p)
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("ffmpeg %s: %v: %s", src, err, b)
		}
		out = append(out, p)
	}
	return out
}

// TestTimedStepsKeepRate drives four timed streams of different 30 fps clips (60 pictures each) with
// made-up step times, 30 steps a second (Options.Period: the display's rate the content's, the case
// where a picture can only be shown at its own step), each step a little early or late (±3 ms, a
// ticker's or vsync's jitter), every stream's decoder ahead and its slots free before each
// step (what the machine's speed would otherwise decide). From the wall's own presentation times
// (the steps that showed the first and last pictures) each stream presents 30 pictures a second
// within 1%, none dropped. Then steps resume after a gap of 100 ms, twice: each stream drops the
// pictures that fell due in each gap but the newest, and counts them as late display.
func TestTimedStepsKeepRate(t *testing.T) {
	const n, period = 60, time.Second / 30
	dev := vktest.Open(t)
	var in []Input
	for _, c := range feedClips(t, []string{"testsrc2", "testsrc", "smptehdbars", "rgbtestsrc"}, 96, 54, n) {
		in = append(in, Input{URL: c})
	}
	w, err := Open(dev, in, Options{Period: period, Loop: 3})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.Close)
	step := func(at time.Time) {
		t.Helper()
		full(t, w)
		for _, tl := range w.tiles {
			if err := tl.st.Ring.Drain(); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := w.Tick(at); err != nil {
			t.Fatal(err)
		}
	}
	t0 := time.Now()
	jitter := []time.Duration{0, 3 * time.Millisecond, -3 * time.Millisecond, 2 * time.Millisecond, -time.Millisecond, -3 * time.Millisecond}
	// The first play: each stream's clock starts once its first picture is drawn (made-up times
	// plus the real time the first draw took: tile.origin, the first picture's presentation time),
	// so each reaches its last picture at a step of its own; its rate is read then.
	rates := make([]float64, len(w.tiles))
	k, done := 0, 0
	for ; done < len(w.tiles) && k < 10*n; k++ {
		step(t0.Add(time.Duration(k)*period + jitter[k%len(jitter)]))
		for i, tl := range w.tiles {
			if rates[i] == 0 && tl.shown == n {
				rates[i] = float64(tl.shown-1) / tl.shownAt.Sub(tl.firstAt).Seconds()
				done++
				if tl.dropped != 0 || math.Abs(rates[i]-30) > 0.3 {
					t.Errorf("stream %d: %d shown, %d dropped, %.3f a second between its presentation times; want none dropped, 30 within 1%%",
						i+1, tl.shown, tl.dropped, rates[i])
				}
			}
		}
	}
	if done < len(w.tiles) {
		t.Fatalf("after %d steps, %d of %d streams have shown their %d pictures", k, done, len(w.tiles), n)
	}
	t.Logf("rates: %.3f", rates)
	// Then steps resume after gaps of 100 ms: each stream drops what fell due in the gap but the
	// newest (two, or three where the pictures' millisecond PTS bunch them), all late display.
	for range 10 { // the slowest stream into its second play
		k++
		step(t0.Add(time.Duration(k) * period))
	}
	for gap := range 2 {
		dropped := make([]int, len(w.tiles))
		for i, tl := range w.tiles {
			dropped[i] = tl.dropped
		}
		k += 3
		step(t0.Add(time.Duration(k) * period))
		for i, tl := range w.tiles {
			if d := tl.dropped - dropped[i]; d < 2 || d > 3 || tl.lateDisplay != tl.dropped {
				t.Errorf("gap %d, stream %d: %d dropped (in all %d late display, %d late decode, %d late conversion); want 2 or 3, all late display",
					gap+1, i+1, d, tl.lateDisplay, tl.lateDecode, tl.lateConversion)
			}
		}
		for range 10 {
			k++
			step(t0.Add(time.Duration(k) * period))
		}
	}
}
