package player

import (
	"math"
	"testing"
	"time"
)

// TestCommands: a program drives headless playback through Config.Hooks.Commands as the keys drive a
// window. On a 30 fps synthetic clip (frame i at i/30 s): an absolute seek to 10 s shows frame 300
// next, a relative seek of −1 s from there frame 270; Pause then Step shows exactly the next frame;
// Skip ends playback with EndNext.
func TestCommands(t *testing.T) {
	cmds := make(chan Command, 4)
	var pts []float64
	st, err := playWithin(t, 60*time.Second, synthetic(t, "nv12", 32, 16, 600), Config{GPU: GPUConfig{Device: -1, Validate: true}, Output: OutputConfig{Headless: true}, Playback: PlaybackConfig{Untimed: true}, Hooks: Hooks{Commands: cmds, OnFrame: func(p *Player, n int) {
		pts = append(pts, p.last.PTS)
		switch n {
		case 2:
			cmds <- Seek{Seconds: 10}
		case 3:
			cmds <- Seek{Seconds: -1, Relative: true}
		case 4:
			cmds <- Pause{Switch: On}
			cmds <- Step{}
		case 5:
			if !p.paused {
				t.Error("not paused after Pause{On} and Step")
			}
			cmds <- Skip{End: EndNext}
		}
	}}})
	if err != nil {
		t.Fatal(err)
	}
	want := []float64{0, 1.0 / 30, 10, 9, 9 + 1.0/30}
	if len(pts) != len(want) || st.End != EndNext {
		t.Fatalf("frames at %v, end %v; want %v, EndNext", pts, st.End, want)
	}
	for i := range want {
		if math.Abs(pts[i]-want[i]) > 1e-9 {
			t.Errorf("frame %d at %.4f s, want %.4f", i+1, pts[i], want[i])
		}
	}
}

// pipeSource is a source that cannot seek, as a pipe.
type pipeSource struct{ *Synthetic }

func (pipeSource) CanSeek() bool { return false }

// TestCommandRefused: a command that cannot be done says why to its sender (do's refusal) and
// playback goes on: a seek on an input that cannot seek, the volume without sound, a Skip that
// names no list move.
func TestCommandRefused(t *testing.T) {
	src := pipeSource{synthetic(t, "nv12", 32, 16, 10)}
	st, err := playWithin(t, 60*time.Second, src, Config{GPU: GPUConfig{Device: -1, Validate: true}, Output: OutputConfig{Headless: true}, Playback: PlaybackConfig{Untimed: true}, Hooks: Hooks{OnFrame: func(p *Player, n int) {
		if n != 2 {
			return
		}
		for _, c := range []Command{Seek{Seconds: 5}, Volume{Value: 0.5}, Skip{End: EndQuit}} {
			if ended, err := p.do(c); ended || err == nil {
				t.Errorf("%#v: ended %v, refused %v; want a refusal", c, ended, err)
			}
		}
	}}})
	if err != nil {
		t.Fatal(err)
	}
	if st.FramesPresented != 10 || st.End != EndOfInput {
		t.Errorf("%d frames presented, end %v; want all 10 and the input's end", st.FramesPresented, st.End)
	}
}
