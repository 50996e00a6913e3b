package player

import (
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ycbcrkit/ycbcrkit/internal/testkit/timebound"
)

// slowSource delays its third frame by delay; while it waits, its progress count grows (a decoder
// working through a long seek) unless stalled (an input that sends nothing).
type slowSource struct {
	*Synthetic
	delay    time.Duration
	stalled  bool
	n        int
	progress atomic.Int64
}

func (s *slowSource) Next() (*Frame, error) {
	if s.n++; s.n == 3 {
		for end := time.Now().Add(s.delay); time.Now().Before(end); time.Sleep(5 * time.Millisecond) {
			if !s.stalled {
				s.progress.Add(1)
			}
		}
	}
	return s.Synthetic.Next()
}

func (s *slowSource) Progress() int64 { return s.progress.Load() }

// TestStallNeedsNoProgress: waiting for a frame ends playback only when the source makes no
// progress for stallLimit; a source at work may take longer than that for one frame.
func TestStallNeedsNoProgress(t *testing.T) {
	old := stallLimit
	stallLimit = 300 * time.Millisecond
	defer func() { stallLimit = old }()
	cfg := Config{GPU: GPUConfig{Validate: true}, Output: OutputConfig{Headless: true}, Playback: PlaybackConfig{Untimed: true}}

	working := &slowSource{Synthetic: synthetic(t, "nv12", 32, 16, 5), delay: 4 * stallLimit}
	st, err := Play(working, cfg)
	if err != nil {
		t.Fatalf("a source making progress for %s was taken for a stall: %v", working.delay, err)
	}
	if st.FramesPresented != 5 {
		t.Errorf("%d frames presented, want 5", st.FramesPresented)
	}

	// The stall is noticed after stallLimit plus a waiting slice (100 ms headless), well before the
	// source's frame comes (4 × stallLimit). A player kept from running for longer than that
	// difference by a loaded machine can miss it: where the process waited for a CPU that long, the
	// run is made again (at most twice), with the reason logged.
	for try := 1; ; try++ {
		stalled := &slowSource{Synthetic: synthetic(t, "nv12", 32, 16, 5), delay: 4 * stallLimit, stalled: true}
		span := timebound.Start()
		_, err = Play(stalled, cfg)
		if _, waited := span.Elapsed(); err == nil && try < 3 && waited > 2*stallLimit {
			t.Logf("run %d: the stall went unnoticed while the process waited %s for a CPU (a loaded machine): again", try, waited.Round(time.Millisecond))
			continue
		}
		if err == nil || !strings.Contains(err.Error(), "no progress") {
			t.Fatalf("a stalled source: %v", err)
		}
		// Then the time the device's start-up and the first two frames took.
		span.Within(t, "the end of playback by the stall", stallLimit+time.Second)
		return
	}
}
