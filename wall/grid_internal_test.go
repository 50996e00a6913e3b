package wall

import (
	"testing"
	"time"
)

// TestGrid: a clock started on a step that came late (after a stall, the ticker's missed tick at
// once) starts on the steps' grid, not on that step.
func TestGrid(t *testing.T) {
	const p = 10 * time.Millisecond
	t0 := time.Unix(100, 0)
	at := func(periods float64) time.Time { return t0.Add(time.Duration(periods * float64(p))) }
	var g grid
	var prev time.Time
	for _, s := range []float64{0, 1, 2.02, 3} { // regular steps, one 0.2 ms late
		g.step(at(s), prev, p)
		prev = at(s)
	}
	if got := g.next(at(3), p); !got.Equal(at(3)) {
		t.Fatalf("on a regular step: next %v, want the step itself", got.Sub(t0))
	}
	g.step(at(8.4), prev, p) // a stall of 5.4 periods: this step is off the grid
	if got, want := g.next(at(8.4), p), at(9); !got.Equal(want) {
		t.Fatalf("after a stall: next %v, want %v (on the grid)", got.Sub(t0), want.Sub(t0))
	}
	if got, want := g.next(at(8.4).Add(23*time.Millisecond), p), at(11); !got.Equal(want) {
		t.Fatalf("after a stall, 23 ms of drawing: next %v, want %v", got.Sub(t0), want.Sub(t0))
	}
	g.step(at(9), at(8.4), p) // 0.6 periods after the late one: still not a regular step
	g.step(at(10), at(9), p)
	if got, want := g.next(at(10), p), at(10); !got.Equal(want) {
		t.Fatalf("regular again: next %v, want %v", got.Sub(t0), want.Sub(t0))
	}
}

// TestPrepare: Prepare takes each stream's first picture and configures its stream for it, so that
// the first timed step makes no conversion (Stream.Generation counts the configurations).
func TestPrepare(t *testing.T) {
	w := openClocked(t, 2, false)
	if err := w.Prepare(20 * time.Second); err != nil {
		t.Fatal(err)
	}
	gens := make([]int, len(w.tiles))
	for i, tl := range w.tiles {
		if tl.next == nil {
			t.Fatalf("tile %d: no first picture after Prepare", i)
		}
		if gens[i] = tl.st.Generation(); gens[i] == 0 {
			t.Fatalf("tile %d: not configured by Prepare", i)
		}
	}
	if n, err := w.Tick(time.Now()); err != nil || n != len(w.tiles) {
		t.Fatalf("first step: %d tiles drawn, %v; want %d", n, err, len(w.tiles))
	}
	for i, tl := range w.tiles {
		if g := tl.st.Generation(); g != gens[i] {
			t.Errorf("tile %d: configured again in the first step (generation %d, then %d)", i, gens[i], g)
		}
	}
}
