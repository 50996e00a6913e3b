package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	"math"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/ycbcrkit/ycbcrkit/internal/testkit/pictest"
	"github.com/ycbcrkit/ycbcrkit/internal/testkit/soundtest"
	"github.com/ycbcrkit/ycbcrkit/present/osd"
	"github.com/ycbcrkit/ycbcrkit/present/window"
	"github.com/ycbcrkit/ycbcrkit/wall"
)

// TestSoundPickedTile: a wall of two inputs in a 640×240 window (the canvas, one pixel for one
// pixel), the first soundtest's 4 s beep clip (a flash and a 1 kHz beep from each whole second),
// the second 5 s of a grey picture without audio, with the sound going to a private PulseAudio
// server's null sink, whose monitor is recorded (soundtest). Keys, timed from the first display
// step: 1 at 0.4 s (the beep tile alone), space at 1.6 s and 2.1 s (half a second's pause, between
// the beeps of 1 and 2 s), Esc at 3.2 s (the grid, through the beep of 3 s), 2 at 4 s (the tile
// without audio), then at 4.2 s a screenshot, o and another. Checked, against the clip's
// construction and the same FFmpeg build's decode of its track (soundtest.Reference), never against
// ycbcrwall's own figures:
//   - the recording holds the beeps of 1 and 2 s and no other (none before the pick, not the one of
//     3 s after the grid came back), 1 s and the pause apart within 20 ms (the sound stopped while
//     paused), each the track's beep (correlation);
//   - nothing is heard from 100 ms after Esc on (the tile without audio plays nothing), and stderr
//     is empty (no audio stream is no notice);
//   - a beep is heard within 45 ms of its flash on the screen (the tile's clock): closer than
//     viewers detect sound ahead of the picture (45 ms, ITU-R BT.1359-1), or behind it (125 ms);
//   - the second tile's label, alone, has a third line ("no sound").
func TestSoundPickedTile(t *testing.T) {
	if !window.Available() {
		t.Fatal("no display: run the tests under xvfb-run (make test does)")
	}
	srv := soundtest.StartServer(t)
	srv.Setenv(t)
	dir := t.TempDir()
	beeps := soundtest.Clip(t, dir, 4, 0)
	grey := filepath.Join(dir, "grey.mp4")
	soundtest.Run(t, 30*time.Second, "ffmpeg", "-hide_banner", "-nostdin", "-loglevel", "error", "-y", "-f", "lavfi",
		"-i", "color=0x606060:s=320x240:r=30:d=5", "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", grey)
	ref := soundtest.Reference(t, beeps, soundtest.Rate, soundtest.Channels)

	scr, err := soundtest.OpenScreen()
	if err != nil {
		t.Fatal(err)
	}
	defer scr.Close()
	type watched struct {
		on  []time.Time
		err error
	}
	stop, res := make(chan struct{}), make(chan watched, 1)
	rec := srv.RecordLatency(t, dir, 2)
	go func() {
		on, _, err := scr.Flashes(stop)
		res <- watched{on, err}
	}()

	var start, picked, pause, resume, back time.Time
	var pressed []string
	keyScript = func(n int, _ bool, _ *window.Window) []window.Key {
		now := time.Now()
		if start.IsZero() {
			start = now
		}
		at := now.Sub(start)
		key := func(name string, k ...window.Key) []window.Key {
			pressed = append(pressed, name)
			return k
		}
		switch {
		case len(pressed) == 0 && at >= 400*time.Millisecond:
			picked = now
			return key("1", window.Key1)
		case len(pressed) == 1 && at >= 1600*time.Millisecond:
			pause = now
			return key("space", window.KeySpace)
		case len(pressed) == 2 && at >= 2100*time.Millisecond:
			resume = now
			return key("space", window.KeySpace)
		case len(pressed) == 3 && at >= 3200*time.Millisecond:
			back = now
			return key("Esc", window.KeyEscape)
		case len(pressed) == 4 && at >= 4000*time.Millisecond: // after the beep of 3 s
			return key("2", window.Key2)
		case len(pressed) == 5 && at >= 4200*time.Millisecond:
			return key("s", window.KeyS)
		case len(pressed) == 6:
			return key("o s", window.KeyO, window.KeyS)
		}
		return nil
	}
	t.Cleanup(func() { keyScript = nil })
	t.Chdir(dir) // s writes its screenshots into the working directory
	var o, e bytes.Buffer
	code := run([]string{"-validate", "-geometry", "640x240", beeps, grey}, &o, &e)
	close(stop)
	got := rec.Stop(t)
	w := <-res
	if code != 0 || e.String() != "screenshot: ycbcrwall-0001.png\nscreenshot: ycbcrwall-0002.png\n" {
		t.Fatalf("exit %d, stderr %q: want 0 and the two screenshots' lines alone", code, e.String())
	}
	if len(pressed) != 7 {
		t.Fatalf("keys pressed: %v, want 1, space, space, Esc, 2, s, o s", pressed)
	}
	if w.err != nil {
		t.Fatalf("watching the screen: %v", w.err)
	}

	// The beeps: 1 and 2 s of the clip, nothing else.
	on := soundtest.Onsets(got, 2, soundtest.Rate, 0.05, 0.5)
	heard := make([]time.Time, len(on))
	for i, s := range on {
		heard[i] = rec.SampleTime(s * soundtest.Rate)
	}
	t.Logf("picked at %v, paused %v to %v, back at %v; beeps heard at %v after the pick", picked.Sub(start),
		pause.Sub(start), resume.Sub(start), back.Sub(start), since(heard, picked))
	if len(on) != 2 {
		t.Fatalf("recording: %d beeps (%v after the pick), want 2: those of 1 and 2 s", len(on), since(heard, picked))
	}
	if d, want := on[1]-on[0], 1+resume.Sub(pause).Seconds(); math.Abs(d-want) > 0.020 {
		t.Errorf("the beeps are %.4f s apart, want 1 s and the pause's %v: %.4f ± 0.020", d, resume.Sub(pause), want)
	}
	for i, s := range on {
		at := int(math.Round(s * soundtest.Rate))
		n := soundtest.Rate / 10 // the beep's 100 ms
		refAt := (i + 1) * soundtest.Rate
		lag, r := soundtest.Align(got, ref[2*refAt:2*(refAt+n)], 2, at, 96, n)
		if r < 0.999 {
			t.Errorf("beep %d s: correlation %.5f with the track's (at sample %d), want ≥ 0.999", i+1, r, lag)
		}
	}
	// Silence once the grid is back: every sample the sink played 100 ms after Esc on.
	loud, last := 0, time.Time{}
	for i := 0; 2*i < len(got); i++ {
		if v := math.Abs(float64(got[2*i])); v > 1e-4 {
			if at := rec.SampleTime(float64(i)); at.After(back.Add(100 * time.Millisecond)) {
				loud++
				last = at
			}
		}
	}
	if loud > 0 {
		t.Errorf("%d samples heard after the grid came back (the last %v after Esc), want silence", loud, last.Sub(back))
	}
	// Sync: each beep against its flash on the screen (the tile alone, or the first tile's half of
	// the grid: the window's centre is the second tile's first column then, grey). The closer of
	// the two counts: a picture shown late (lavapipe on a loaded machine) moves one flash, not the
	// sound, whose beeps keep their spacing (above).
	closest := math.Inf(1)
	for i, b := range heard {
		best := math.Inf(1)
		for _, f := range w.on {
			if d := f.Sub(b).Seconds() * 1000; math.Abs(d) < math.Abs(best) {
				best = d
			}
		}
		t.Logf("beep %d s: its flash %+.1f ms from it", i+1, best)
		if math.Abs(best) < math.Abs(closest) {
			closest = best
		}
	}
	if math.Abs(closest) > 45 {
		t.Errorf("the flashes are %+.1f ms or more from the beeps, want within 45 ms (flashes at %v after the pick)", closest, since(w.on, picked))
	}

	// The tile without audio, alone: its label (the difference labels make over the grey picture)
	// has three lines.
	shot := func(n int) *image.RGBA {
		return toRGBA(pictest.ReadPNG(t, filepath.Join(dir, fmt.Sprintf("ycbcrwall-%04d.png", n))))
	}
	with, without := shot(1), shot(2)
	var box image.Rectangle
	for y := 0; y < with.Rect.Dy(); y++ {
		for x := 0; x < with.Rect.Dx(); x++ {
			if with.RGBAAt(x, y) != without.RGBAAt(x, y) {
				box = box.Union(image.Rect(x, y, x+1, y+1))
			}
		}
	}
	f, err := osd.NewFont(wall.LabelPx)
	if err != nil {
		t.Fatal(err)
	}
	if want := 3*f.LineHeight + 2*wall.LabelPad; box.Dy() != want {
		t.Errorf("the second tile's label alone: box %v, %d high; want %d (3 lines: name, figures, no sound)", box, box.Dy(), want)
	}
}

// since is each time of ts after t0.
func since(ts []time.Time, t0 time.Time) []time.Duration {
	out := make([]time.Duration, len(ts))
	for i, v := range ts {
		out[i] = v.Sub(t0).Round(time.Millisecond)
	}
	return out
}

// TestReadOnce: the inputs a second reader cannot open, as readOnce tells them.
func TestReadOnce(t *testing.T) {
	for u, once := range map[string]bool{
		"-": true, "pipe:0": true, "udp://127.0.0.1:1234": true, "udp://@:1234": true, "rtp://[::1]:5004": true,
		"srt://:9000?mode=listener": true, "udp://239.1.1.1:1234": false, "rtp://[ff02::1]:5004": false,
		"rtsp://127.0.0.1:8554/cam": false, "srt://10.0.0.1:9000": false, "clip.mp4": false, "https://x/a.m3u8": false,
	} {
		if got := readOnce(u) != ""; got != once {
			t.Errorf("readOnce(%q) = %q: want read once %v", u, readOnce(u), once)
		}
	}
}

// TestWallNoSoundServer: without a PulseAudio server, picking a tile with sound gives one notice
// line naming the tile, and the wall plays on to its end.
func TestWallNoSoundServer(t *testing.T) {
	if !window.Available() {
		t.Fatal("no display: run the tests under xvfb-run (make test does)")
	}
	dir := t.TempDir()
	clip := soundtest.Clip(t, dir, 1, 0)
	t.Setenv("PULSE_SERVER", "unix:"+filepath.Join(dir, "no-server"))
	var start time.Time
	keys := []window.Key{window.Key1, window.KeyEscape, window.Key1} // the tile twice: one notice
	keyScript = func(int, bool, *window.Window) []window.Key {
		if start.IsZero() {
			start = time.Now()
		}
		if len(keys) > 0 && time.Since(start) >= time.Duration(4-len(keys))*200*time.Millisecond {
			k := keys[0]
			keys = keys[1:]
			return []window.Key{k}
		}
		return nil
	}
	t.Cleanup(func() { keyScript = nil })
	var o, e bytes.Buffer
	code := run([]string{"-stats", clip}, &o, &e)
	if code != 0 || !regexp.MustCompile(`^notice: tile 1 \(beep-[^)]*\): no sound: .+\n$`).MatchString(e.String()) {
		t.Fatalf("exit %d, stderr %q: want 0 and one notice line", code, e.String())
	}
	var st wall.Stats
	if err := json.Unmarshal(o.Bytes(), &st); err != nil || len(st.PerStream) != 1 ||
		st.PerStream[0].Frames+st.PerStream[0].Dropped != 30 || st.PerStream[0].Error != "" {
		t.Fatalf("-stats: %v, %+v: want the second's 30 pictures shown or dropped", err, st.PerStream)
	}
}
