package wall

import (
	"math"
	"path/filepath"
	"testing"
	"time"

	"github.com/ycbcrkit/ycbcrkit/internal/testkit/vktest"
)

// clip is 25 pictures a second, 100 of them, PTS from 0 in steps of 0.04 s.
var clip = filepath.Join("..", "testvectors", "media", "default.mkv")

// openClocked opens n copies of clip, timed, on a device with validation.
func openClocked(t *testing.T, n int, one bool) *Wall {
	return openTimed(t, clip, n, Options{OneClock: one})
}

func openTimed(t *testing.T, url string, n int, o Options) *Wall {
	t.Helper()
	dev := vktest.Open(t)
	var in []Input
	for range n {
		in = append(in, Input{URL: url})
	}
	w, err := Open(dev, in, o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.Close) // before the device's cleanup, registered earlier
	return w
}

// full waits until every tile that has not ended has its queue full, or its decoder has finished.
func full(t *testing.T, w *Wall) {
	t.Helper()
	for end := time.Now().Add(20 * time.Second); time.Now().Before(end); time.Sleep(5 * time.Millisecond) {
		ok := true
		for _, tl := range w.tiles {
			// the decoder has queued all it will, or its queue is full
			ok = ok && (tl.ended || tl.pump.Ended() || tl.pump.Queued() == w.opts.Queue)
		}
		if ok {
			return
		}
	}
	t.Fatal("the decoders did not fill their queues in 20 s")
}

// tick is Tick at t0+at, the queues full and the streams' slots free before it (a timed step
// passes over a stream whose slots are all on the GPU: on a loaded machine lavapipe can lag).
func tick(t *testing.T, w *Wall, t0 time.Time, at time.Duration) int {
	t.Helper()
	full(t, w)
	for _, tl := range w.tiles {
		if err := tl.st.Ring.Drain(); err != nil {
			t.Fatal(err)
		}
	}
	n, err := w.Tick(t0.Add(at))
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestPauseStopsTheClock drives Tick with made-up times: a stream paused 10 ms after its first
// picture (PTS 0) for 5 s shows nothing while paused, and after resuming keeps its picture until
// its clock, less the pause, reaches the next one's PTS (0.04 s): none of it is dropped.
func TestPauseStopsTheClock(t *testing.T) {
	w := openClocked(t, 1, false)
	tl := w.tiles[0]
	t0 := time.Now()
	if n := tick(t, w, t0, 0); n != 1 || tl.lastPTS != tl.pts0 {
		t.Fatalf("first tick: %d drawn, PTS %g; want the first picture", n, tl.lastPTS)
	}
	t0 = tl.origin // the clock starts once the first picture is drawn
	w.SetPaused(true, t0.Add(10*time.Millisecond))
	if n := tick(t, w, t0, 5*time.Second); n != 0 {
		t.Fatalf("paused: %d drawn", n)
	}
	w.SetPaused(false, t0.Add(5*time.Second))
	if n := tick(t, w, t0, 5*time.Second+20*time.Millisecond); n != 0 { // 30 ms on the clock
		t.Fatalf("30 ms on the clock: %d drawn (PTS %g), want the picture at 0 kept", n, tl.lastPTS)
	}
	if n := tick(t, w, t0, 5*time.Second+40*time.Millisecond); n != 1 || math.Abs(tl.lastPTS-tl.pts0-0.04) > 1e-6 || tl.dropped != 0 {
		t.Fatalf("50 ms on the clock: %d drawn, PTS %g, %d dropped; want the picture at 0.04, none dropped", n, tl.lastPTS, tl.dropped)
	}
}

// TestClocks: two streams, the second one's first picture coming 1 s after the wall's first step
// (it is held back: ended as far as the ticks before can tell). With a clock each, it starts at its
// first picture (PTS 0) and keeps it while its clock has not reached 0.04 s; on one shared clock,
// started with the wall's first picture, it catches up with the first stream: after ticks at 1 s it shows the
// picture at 1 s (or the one before, 0.96, while its decoder catches up), dropping the ones passed.
func TestClocks(t *testing.T) {
	for _, one := range []bool{false, true} {
		w := openClocked(t, 2, one)
		a, b := w.tiles[0], w.tiles[1]
		t0 := time.Now()
		b.ended = true
		if n := tick(t, w, t0, 0); n != 1 || a.shown != 1 {
			t.Fatalf("one clock %v: first tick %d drawn, PTS %g", one, n, a.lastPTS)
		}
		b.ended = false
		t0 = a.origin  // the clocks start once the first picture is drawn
		for range 40 { // the queues hold two pictures: the ticks catch up as the decoders refill them
			tick(t, w, t0, time.Second)
		}
		want, dropped := 0.0, 0
		if one {
			want, dropped = 1.0, 24
		}
		if b.shown == 0 || math.Abs(b.lastPTS-b.pts0-want) > 0.041 || (b.dropped == 0) != (dropped == 0) {
			t.Errorf("one clock %v: the late stream shows PTS %g (%d shown, %d dropped); want %g", one, b.lastPTS, b.shown, b.dropped, want)
		}
		if b.pts0 != a.pts0 {
			t.Errorf("one clock %v: the late stream's clock counts from PTS %g, the clip's first picture is at %g", one, b.pts0, a.pts0)
		}
		if math.Abs(a.lastPTS-a.pts0-1.0) > 0.041 {
			t.Errorf("one clock %v: the first stream shows PTS %g at 1 s", one, a.lastPTS)
		}
		t.Logf("one clock %v: at 1 s, PTS %g (%d dropped) and %g (%d dropped)", one, a.lastPTS, a.dropped, b.lastPTS, b.dropped)
	}
}

// TestLoopKeepsEveryPicture: a 5-picture vector (25 a second) played twice, ticked every 40 ms,
// shows one picture a tick, all ten: the last picture of the first play is shown before the second
// play begins, whose clock starts at its own first picture.
func TestLoopKeepsEveryPicture(t *testing.T) {
	w := openTimed(t, filepath.Join("..", "testvectors", "media", "yuv420p_left.mkv"), 1, Options{Loop: 2})
	tl := w.tiles[0]
	t0 := time.Now()
	var ptss []float64
	for k := range 10 {
		if n := tick(t, w, t0, time.Duration(k)*40*time.Millisecond+time.Millisecond); n != 1 {
			t.Fatalf("tick %d: %d drawn", k, n)
		}
		if k == 0 {
			t0 = tl.origin.Add(-time.Millisecond) // the clock starts once the first picture is drawn
		}
		ptss = append(ptss, tl.lastPTS-tl.pts0)
	}
	if tl.shown != 10 || tl.dropped != 0 {
		t.Errorf("%d shown, %d dropped (PTS from each play's first: %v); want 10, none dropped", tl.shown, tl.dropped, ptss)
	}
}
