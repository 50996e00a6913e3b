package wall

import (
	"image"
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
// has not.
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
}
