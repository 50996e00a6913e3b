package wall

import (
	"image"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/ycbcrkit/ycbcrkit/decode"
)

// TestLabelBox: a label goes at the bottom centre of its picture: in the letterbox below it when
// the band holds it, else over the picture's bottom, LabelInset up; never outside the cell, and
// never on the picture's corners when it is narrower than the picture.
func TestLabelBox(t *testing.T) {
	cell := image.Rect(100, 0, 420, 240)
	for _, c := range []struct {
		pic, want image.Rectangle
	}{
		// A 16:9 picture in a 4:3 cell: 30-pixel bands above and below; a 40×20 box fits below.
		{image.Rect(100, 30, 420, 210), image.Rect(240, 215, 280, 235)},
		// The picture fills the cell: over its bottom edge.
		{cell, image.Rect(240, 240-LabelInset-20, 280, 240-LabelInset)},
	} {
		got := labelBox(c.pic, cell, 40, 20)
		if got != c.want {
			t.Errorf("picture %v in cell %v: label box %v, want %v", c.pic, cell, got, c.want)
		}
		for _, corner := range []image.Point{c.pic.Min, {c.pic.Max.X - 1, c.pic.Min.Y}, {c.pic.Min.X, c.pic.Max.Y - 1}, c.pic.Max.Sub(image.Pt(1, 1))} {
			if corner.In(got) {
				t.Errorf("picture %v: the label %v hides its corner %v", c.pic, got, corner)
			}
		}
	}
	if got := labelBox(cell, cell, 400, 20); !got.In(cell) && got.Min.X != cell.Min.X {
		t.Errorf("a label wider than its cell: %v, want it from the cell's left edge", got)
	}
}

// TestSignal: a playing stream with no new picture for NoSignalAfter has lost its signal, since its
// last picture's arrival; one with a picture waiting, a fresh one, an ended one or a paused wall
// has not; nor one before its first picture, unless it is a live input that was down at the start.
func TestSignal(t *testing.T) {
	now := time.Now()
	last := now.Add(-NoSignalAfter - time.Millisecond)
	w := &Wall{tiles: []*tile{{arrived: last}}}
	if s := w.Signal(0, now); !s.Lost || !s.Since.Equal(last) {
		t.Errorf("no picture for %v: %+v, want lost since the last one", now.Sub(last), s)
	}
	tl := w.tiles[0]
	for name, set := range map[string]func(){
		"fresh":   func() { tl.arrived = now.Add(-NoSignalAfter / 2) },
		"ended":   func() { tl.ended = true },
		"paused":  func() { w.clock.paused = true },
		"waiting": func() { tl.next = &decode.Frame{} }, // taken from the pump, not yet due
	} {
		tl.arrived, tl.ended, w.clock.paused, tl.next = last, false, false, nil
		set()
		if s := w.Signal(0, now); s.Lost {
			t.Errorf("%s: %+v, want no loss", name, s)
		}
	}
	// Before any picture: a live input down at the wall's start (late) has lost its signal since
	// the start, once NoSignalAfter has passed; any other input's first picture is on its way.
	w.clock.paused, tl.ended, tl.next, tl.arrived, w.opened = false, false, nil, time.Time{}, last
	if s := w.Signal(0, now); s.Lost {
		t.Errorf("no picture yet, opened at the start: %+v, want no loss", s)
	}
	tl.late = true
	if s := w.Signal(0, now); !s.Lost || !s.Since.Equal(last) {
		t.Errorf("no picture yet, down at the start: %+v, want lost since the start", s)
	}
	w.opened = now.Add(-NoSignalAfter / 2)
	if s := w.Signal(0, now); s.Lost {
		t.Errorf("down at a start %v ago: %+v, want no loss yet", NoSignalAfter/2, s)
	}
}

// TestMedia: a timed tile is where its clock has reached (its first picture's PTS at its origin),
// held while the wall is paused and without the time spent paused after; an untimed one is at its
// last picture; before its first picture and after its end, nowhere.
func TestMedia(t *testing.T) {
	t0 := time.Now()
	w := &Wall{tiles: []*tile{{shown: 3, pts0: 2, origin: t0, lastPTS: 2.08}, {shown: 2, lastPTS: 0.5}, {}, {shown: 1, ended: true}}}
	at := func(i int, now time.Time) float64 {
		t.Helper()
		m, ok := w.Media(i, now)
		if !ok {
			t.Fatalf("tile %d: no media time", i)
		}
		return m
	}
	if m := at(0, t0.Add(1500*time.Millisecond)); math.Abs(m-3.5) > 1e-9 {
		t.Errorf("1.5 s after the origin: %.6f, want 3.5", m)
	}
	w.SetPaused(true, t0.Add(2*time.Second))
	if m := at(0, t0.Add(5*time.Second)); math.Abs(m-4) > 1e-9 {
		t.Errorf("paused at 2 s, 3 s later: %.6f, want 4", m)
	}
	w.SetPaused(false, t0.Add(6*time.Second))
	if m := at(0, t0.Add(7*time.Second)); math.Abs(m-5) > 1e-9 {
		t.Errorf("paused from 2 s to 6 s, at 7 s: %.6f, want 5", m)
	}
	if m := at(1, t0); m != 0.5 {
		t.Errorf("untimed: %.6f, want its last picture's 0.5", m)
	}
	for _, i := range []int{2, 3} {
		if m, ok := w.Media(i, t0); ok {
			t.Errorf("tile %d (not started, ended): %.6f, want none", i, m)
		}
	}
}

// TestNoteSignals: a tile's loss of signal is one notice, "tile N (label): no signal", however many
// steps it lasts, and its next picture one more, "signal back after S s" (S from its last picture
// before the loss); the losses are counted. A late input (down at the start) says only its return.
func TestNoteSignals(t *testing.T) {
	var lines []string
	now := time.Now()
	last := now.Add(-2 * time.Second)
	w := &Wall{opts: Options{Notice: func(s string) { lines = append(lines, s) }},
		tiles: []*tile{{in: Input{Label: "cam"}, num: 3, arrived: last}}}
	w.noteSignals(now)
	w.noteSignals(now.Add(time.Second))
	w.tiles[0].arrived = now.Add(1500 * time.Millisecond)
	w.noteSignals(now.Add(1500 * time.Millisecond))
	w.noteSignals(now.Add(1600 * time.Millisecond))
	want := []string{"tile 3 (cam): no signal", "tile 3 (cam): signal back after 3.5 s"}
	if strings.Join(lines, "|") != strings.Join(want, "|") || w.tiles[0].losses != 1 {
		t.Errorf("notices %q, %d losses; want %q, 1", lines, w.tiles[0].losses, want)
	}
	lines = nil
	late := &tile{in: Input{Label: "cam2"}, num: 4, late: true, lostNoted: true, lostSince: now}
	w.tiles, w.opened = []*tile{late}, now
	w.noteSignals(now.Add(time.Second))
	late.arrived = now.Add(2 * time.Second)
	w.noteSignals(now.Add(2 * time.Second))
	if want := []string{"tile 4 (cam2): signal back after 2.0 s"}; strings.Join(lines, "|") != strings.Join(want, "|") || late.losses != 0 {
		t.Errorf("late input: notices %q, %d losses; want %q, 0", lines, late.losses, want)
	}
}
