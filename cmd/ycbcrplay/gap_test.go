package main

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/ycbcrkit/ycbcrkit/decode"
	"github.com/ycbcrkit/ycbcrkit/player"
	"github.com/ycbcrkit/ycbcrkit/present/window"
)

// TestQuitInTimestampGap: in a window, timed, a real Matroska file (H.264, 10 fps, 20 frames) whose
// timestamps jump 1000 s after frame 5. The player plays through the gap as a discontinuity (it does
// not wait 1000 s), and q, pressed on the window from OnFrame at the second frame after the gap,
// ends playback within 1 s, before the file's end.
func TestQuitInTimestampGap(t *testing.T) {
	if !window.Available() {
		t.Fatal("no display: run under xvfb-run")
	}
	clip := filepath.Join(t.TempDir(), "gap.mkv")
	ffmpegCLI(t, "-f", "lavfi", "-i", "testsrc=size=64x48:rate=10:duration=2",
		"-vf", `setpts=PTS+if(gte(N\,5)\,1000/TB\,0)`, "-c:v", "libx264", "-preset", "ultrafast",
		"-fps_mode", "passthrough", clip)
	d, err := decode.Open(clip, decode.Options{Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	src := &decoderSource{d: d, name: "gap.mkv"}
	var pressed time.Time
	cfg := player.Config{Output: player.OutputConfig{Width: 320, Height: 240}, Hooks: player.Hooks{OnFrame: func(p *player.Player, n int) {
		if n == 7 {
			pressed = time.Now()
			p.Window().Press(window.KeyQuit)
		}
	}}}
	start := time.Now()
	st, err := player.Play(src, cfg)
	if err != nil {
		t.Fatal(err)
	}
	after := time.Since(pressed)
	if pressed.IsZero() || st.End != player.EndQuit || st.FramesPresented >= 20 || st.Discontinuities != 1 {
		t.Fatalf("pressed %v, end %v, %d frames presented, %d discontinuities: want q at frame 7 after one discontinuity",
			!pressed.IsZero(), st.End, st.FramesPresented, st.Discontinuities)
	}
	if after > time.Second {
		t.Errorf("ended %v after q: want within 1 s", after)
	}
	t.Logf("played %v in all; ended %v after q, %d frames presented", time.Since(start).Round(time.Millisecond),
		after.Round(time.Millisecond), st.FramesPresented)
}
