package audio

import (
	"fmt"
	"io"
	"math"
	"testing"
	"time"

	"github.com/ycbcrkit/ycbcrkit/decode"
	"github.com/ycbcrkit/ycbcrkit/internal/testkit/soundtest"
	"github.com/ycbcrkit/ycbcrkit/internal/testkit/timebound"
)

// tones is a Source of stereo chunks of 1024 frames: a beep of soundtest's kind at each whole
// second from first, for seconds; Seek moves it like a decoder.
type tones struct {
	first, seconds float64
	pos            int // frame index from first
}

func (s *tones) sample(i int) float32 {
	t := s.first + float64(i)/soundtest.Rate
	if f := t - math.Floor(t+1e-9); f >= -1e-9 && f < soundtest.BeepSeconds {
		return float32(soundtest.BeepAmplitude * math.Sin(2*math.Pi*soundtest.BeepHz*f))
	}
	return 0
}

func (s *tones) all() []float32 {
	n := int(s.seconds * soundtest.Rate)
	out := make([]float32, 2*n)
	for i := 0; i < n; i++ {
		out[2*i], out[2*i+1] = s.sample(i), s.sample(i)
	}
	return out
}

func (s *tones) Next() (*decode.Chunk, error) {
	n := min(1024, int(s.seconds*soundtest.Rate)-s.pos)
	if n <= 0 {
		return nil, io.EOF
	}
	c := &decode.Chunk{PTS: s.first + float64(s.pos)/soundtest.Rate, Samples: make([]float32, 2*n)}
	for i := 0; i < n; i++ {
		v := s.sample(s.pos + i)
		c.Samples[2*i], c.Samples[2*i+1] = v, v
	}
	s.pos += n
	return c, nil
}

func (s *tones) Seek(t float64) error {
	s.pos = max(0, int(math.Round((t-s.first)*soundtest.Rate)))
	return nil
}

// TestOutputPlaysWhatItIsGiven plays 3 s of beeps that start 0.5 s after the output's start into a
// private server's null sink and records its monitor: the recording holds the samples given,
// preceded by exactly 0.5 s of silence (the beeps 1.000 s apart and at 0.5 s + whole seconds from
// the stream's first sample); the position runs with the wall clock (within 1%, or within 1% and
// the time the player and the server waited for a CPU: a starved server's clock falls behind and
// catches up, timebound) and ends on it after the last sample. Then, on the same server,
// testResamples.
func TestOutputPlaysWhatItIsGiven(t *testing.T) {
	srv := soundtest.StartServer(t)
	srv.Setenv(t)
	rec := srv.Record(t, t.TempDir())

	src := &tones{first: 0.5, seconds: 3}
	want := src.all()
	o, err := Open(src, soundtest.Rate, 2, Config{Name: "ycbcrkit test", Volume: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer o.Close()
	var span *timebound.Span
	var pos0 float64
	for deadline := time.Now().Add(10 * time.Second); !o.Ended(); {
		if time.Now().After(deadline) {
			t.Fatal("the output did not end within 10 s")
		}
		if p, ok := o.Position(); ok && p > 0.2 && span == nil {
			span, pos0 = timebound.Start(srv.PID()), p
		}
		time.Sleep(5 * time.Millisecond)
	}
	p, _ := o.Position()
	wall, waited := span.Elapsed()
	if drift := math.Abs(p - pos0 - wall.Seconds()); drift > 0.01*wall.Seconds() {
		msg := fmt.Sprintf("position ran at %.4f× the wall clock from %.3fs to %.3fs; the player and the server waited %s for a CPU meanwhile",
			(p-pos0)/wall.Seconds(), pos0, p, waited.Round(time.Millisecond))
		if drift-waited.Seconds() > 0.01*wall.Seconds() {
			t.Error(msg)
		} else {
			t.Log(msg + ": within 1% of the time they could run")
		}
	}
	if p < 3.5 || p > 3.6 {
		t.Errorf("position just after the end: %.3fs, want 3.5 s and a little", p)
	}
	st := o.Stats()
	t.Logf("stats: %+v", st)
	if st.Latency <= 0 || st.Latency > 500*time.Millisecond || st.Silence != 500*time.Millisecond {
		t.Errorf("stats %+v: want a latency in (0, 500 ms] and 0.5 s of silence inserted", st)
	}
	if err := o.Err(); err != nil {
		t.Fatal(err)
	}
	o.Close()
	got := rec.Stop(t)

	on := soundtest.Onsets(got, 2, soundtest.Rate, 0.05, 0.5)
	if len(on) != 3 {
		t.Fatalf("recording: beeps at %v, want 3", on)
	}
	for i := 1; i < len(on); i++ {
		if d := on[i] - on[i-1]; math.Abs(d-1) > 1.0/soundtest.Rate {
			t.Errorf("recording: beeps %d and %d are %.6f s apart, want 1", i, i+1, d)
		}
	}
	// Where the stream's first sample is: 0.5 s of silence before the first beep.
	lag, r := soundtest.Align(got, want, 2, int((on[0]-0.5)*soundtest.Rate), 48, soundtest.Rate)
	if r < 0.9999 {
		t.Errorf("recording vs. the samples given: correlation %.6f", r)
	}
	if d, _ := maxAbsDiff(got[2*lag:], want); d > 1e-6 {
		t.Errorf("recording differs from the samples given by up to %g", d)
	}
	t.Run("Resampled", func(t *testing.T) { testResamples(t, srv) })
}

func maxAbsDiff(a, b []float32) (float64, int) {
	worst, at := 0.0, -1
	for i := range b {
		if i >= len(a) {
			return math.Inf(1), i
		}
		if d := math.Abs(float64(a[i]) - float64(b[i])); d > worst {
			worst, at = d, i
		}
	}
	return worst, at
}

// TestOutputNoServer: without a reachable server Open fails at once with one line, and the caller
// plays without sound.
func TestOutputNoServer(t *testing.T) {
	t.Setenv("PULSE_SERVER", "unix:"+t.TempDir()+"/none")
	start := time.Now()
	_, err := Open(&tones{seconds: 1}, soundtest.Rate, 2, Config{Name: "ycbcrkit test", Volume: 1})
	if err == nil {
		t.Fatal("Open succeeded without a server")
	}
	if time.Since(start) > 5*time.Second {
		t.Errorf("Open took %v to fail", time.Since(start))
	}
	t.Logf("error: %v", err)
}

// testResamples plays beeps 1 s apart at 1.01× their rate (SetSpeed, as the player's
// display-synced timing asks, at its largest) into srv: the sink receives them 1/1.01 s apart, to a
// sample, and the position ends on the media time of the last sample. It shares
// TestOutputPlaysWhatItIsGiven's server (starting and stopping one takes 3 s).
//
// Up to three plays: on a loaded machine (CI runs many test binaries on 2 cores) the server can
// starve on either side, the played stream (underflows, counted) or the recording (samples the
// recorder did not read in time are lost, and nothing counts them), and either moves the beeps. A
// resampler at the wrong rate moves them the same way every time, and fails all three.
func testResamples(t *testing.T, srv *soundtest.Server) {
	const attempts = 3
	for attempt := 1; ; attempt++ {
		d, underflows := playResampled(t, srv, 1.01)
		if math.Abs(d-1/1.01) <= 1.0/soundtest.Rate {
			return
		}
		msg := fmt.Sprintf("recording: beeps %.6f s apart, want %.6f (1 s at 1.01×); %d underflows", d, 1/1.01, underflows)
		if attempt == attempts {
			t.Fatalf("%s (play %d of %d)", msg, attempt, attempts)
		}
		t.Log(msg + ": the server may have starved, once more")
	}
}

// playResampled plays two beeps at speed and returns their distance in the recording and the
// stream's underflows (1: its end).
func playResampled(t *testing.T, srv *soundtest.Server, speed float64) (float64, int) {
	rec := srv.Record(t, t.TempDir())
	src := &tones{first: 0.9, seconds: 1.2} // beeps at 1 and 2 s
	o, err := Open(src, soundtest.Rate, 2, Config{Name: "ycbcrkit test", Volume: 1, Resample: true})
	if err != nil {
		t.Fatal(err)
	}
	defer o.Close()
	if err := o.SetSpeed(speed); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(10 * time.Second); !o.Ended(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the output did not end within 10 s")
		}
	}
	if p, _ := o.Position(); p < 2.1 || p > 2.2 {
		t.Errorf("position just after the end: %.3fs, want 2.1 s and a little", p)
	}
	under := o.Stats().Underflows
	o.Close()
	on := soundtest.Onsets(rec.Stop(t), 2, soundtest.Rate, 0.05, 0.5)
	if len(on) != 2 {
		t.Fatalf("recording: beeps at %v, want 2", on)
	}
	t.Logf("beeps at %v, %d underflows", on, under)
	return on[1] - on[0], under
}
