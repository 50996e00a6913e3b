package player

import (
	"testing"
	"time"

	"github.com/ycbcrkit/ycbcrkit/internal/testkit/timebound"
)

// jumpSource shifts the timestamps of frames from the third on by jump seconds (a timestamp wrap, a
// gap, or, negative, a restart).
type jumpSource struct {
	*Synthetic
	jump     float64
	n        int
	declared bool
}

func (s *jumpSource) Next() (*Frame, error) {
	f, err := s.Synthetic.Next()
	if err == nil {
		if s.n++; s.n >= 3 {
			f.PTS += s.jump
		}
	}
	return f, err
}

func (s *jumpSource) Info() SourceInfo {
	i := s.Synthetic.Info()
	i.Discontinuous = s.declared
	return i
}

// TestDiscontinuities: timed playback (the wall clock) over timestamp jumps. Far jumps forward and
// any jump back start a new timeline (every frame shown, at the frame rate, counted in -stats); a
// plausible pause is kept: the player waits it out.
func TestDiscontinuities(t *testing.T) {
	cfg := Config{GPU: GPUConfig{Validate: true}, Output: OutputConfig{Headless: true}}
	for _, c := range []struct {
		name             string
		jump             float64
		declared         bool
		discontinuity    bool
		wallMin, wallMax time.Duration
	}{
		{"1000 s gap", 1000, false, true, 0, 3 * time.Second},
		{"MPEG-TS wrap (2^33 / 90 kHz)", 95443.7, true, true, 0, 3 * time.Second},
		{"restart", -1, false, true, 0, 3 * time.Second},
		{"2 s jump in MPEG-TS", 2, true, true, 0, 3 * time.Second},
		{"0.8 s pause (VFR)", 0.8, false, false, 1700 * time.Millisecond, 4 * time.Second},
	} {
		t.Run(c.name, func(t *testing.T) {
			// 10 frames per second: a frame's time is long enough that a loaded test machine does not
			// make frames late (which the player rightly drops).
			// Where frames were dropped all the same and the process waited for a CPU more than a
			// frame's time meanwhile, the run is made again (at most twice), with the reason logged.
			var st *Stats
			var span *timebound.Span
			for try := 1; ; try++ {
				syn := synthetic(t, "nv12", 32, 16, 10)
				syn.FPS = 10
				src := &jumpSource{Synthetic: syn, jump: c.jump, declared: c.declared}
				span = timebound.Start()
				var err error
				if st, err = Play(src, cfg); err != nil {
					t.Fatal(err)
				}
				_, waited := span.Elapsed()
				if st.FramesDropped == 0 || try == 3 || waited < 100*time.Millisecond {
					break
				}
				t.Logf("run %d: %d frames dropped while the process waited %s for a CPU (a loaded machine): again",
					try, st.FramesDropped, waited.Round(time.Millisecond))
			}
			wall, _ := span.Elapsed()
			if st.FramesPresented != 10 || st.FramesDropped != 0 {
				t.Errorf("presented %d, dropped %d; want all 10 shown", st.FramesPresented, st.FramesDropped)
			}
			if got := st.Discontinuities == 1; got != c.discontinuity {
				t.Errorf("%d discontinuities counted", st.Discontinuities)
			}
			// 10 frames at 10 fps: 0.9 s, plus the device's start-up, plus a kept pause. The lower
			// bound is the wall clock's (waiting for a CPU only lengthens a run); the upper one holds
			// against the time the process could run.
			if wall < c.wallMin {
				t.Errorf("played in %s, want at least %s", wall, c.wallMin)
			}
			span.Within(t, "playback", c.wallMax)
		})
	}
}
