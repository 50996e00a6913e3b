package videotex_test

import (
	"math"
	"sync"
	"testing"
	"time"

	"github.com/ycbcrkit/ycbcrkit/internal/testkit/soundtest"
	"github.com/ycbcrkit/ycbcrkit/videotex"
)

// TestAudioToEngine: with AudioOptions the engine receives the whole track, in order and joined,
// from media time 0, equal to the same FFmpeg build's decode of it; AcquireClock follows the
// engine's clock.
func TestAudioToEngine(t *testing.T) {
	dev := testDevice(t)
	clip := soundtest.Clip(t, t.TempDir(), 3, 0)
	want := soundtest.Reference(t, clip, soundtest.Rate, 2)

	var mu sync.Mutex
	var got []float32
	first, next, joined := time.Duration(-1), time.Duration(0), true
	clockAt := 1500 * time.Millisecond
	tex, err := videotex.Open(engineDevice(dev), clip, videotex.Options{
		Clock: func() time.Duration { return clockAt },
		Audio: &videotex.AudioOptions{Samples: func(pts time.Duration, s []float32) {
			mu.Lock()
			defer mu.Unlock()
			if first < 0 {
				first = pts
			} else if d := pts - next; d < -time.Microsecond || d > time.Microsecond {
				joined = false
			}
			next = pts + time.Duration(float64(len(s)/2)/soundtest.Rate*float64(time.Second))
			got = append(got, s...)
		}},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer tex.Close()
	info, ok := tex.AudioInfo()
	if !ok || info.Codec != "aac" || info.OutRate != soundtest.Rate || info.OutChannels != 2 {
		t.Fatalf("audio info %+v, %v: want the clip's aac at 48 kHz, stereo", info, ok)
	}
	for deadline := time.Now().Add(10 * time.Second); ; {
		mu.Lock()
		n := len(got)
		mu.Unlock()
		if n >= len(want) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d samples after 10 s", n, len(want))
		}
		time.Sleep(10 * time.Millisecond)
	}
	mu.Lock()
	defer mu.Unlock()
	if first != 0 || !joined {
		t.Errorf("first run at %v (want 0), runs joined: %v", first, joined)
	}
	worst := 0.0
	for i := range want {
		worst = math.Max(worst, math.Abs(float64(got[i]-want[i])))
	}
	if len(got) != len(want) || worst != 0 {
		t.Errorf("%d samples (want %d), largest difference from ffmpeg's decode %g", len(got), len(want), worst)
	}

	w := newWaiter(t, dev)
	f, err := tex.AcquireClock()
	if err != nil {
		t.Fatal(err)
	}
	if f.PTS > clockAt {
		t.Errorf("AcquireClock at %v gave the picture at %v", clockAt, f.PTS)
	}
	w.consume(f)
}
