package player

import (
	"math"
	"testing"
	"time"

	"github.com/ycbcrkit/ycbcrkit/present/window"
)

// chaptered is a Synthetic source with chapters.
type chaptered struct {
	*Synthetic
	chapters []Chapter
}

func (c chaptered) Info() SourceInfo {
	i := c.Synthetic.Info()
	i.Chapters = c.chapters
	return i
}

// TestChapterMarks: paused in a window under Xvfb, the progress bar of a 4 s clip with chapters at
// 0, 1 and 3 s has a mark (osdMark, 2 pixels wide) above its track at 1/4 and 3/4 of its length,
// and none at 0 (a chapter at the start has no mark); PgUp then jumps from chapter a (0.3 s) to
// b, at 1 s, and the frame shown is the one at 1 s.
func TestChapterMarks(t *testing.T) {
	if !window.Available() {
		t.Fatal("no display: run the tests under xvfb-run (make test does)")
	}
	const w, h = 640, 360
	src := chaptered{synthetic(t, "yuv420p", w, h, 120), []Chapter{{"a", 0, 1}, {"b", 1, 3}, {"c", 3, 4}}}
	var p0 *Player
	var wx, wy int
	paused := make(chan struct{})
	var row []int // x of the mark pixels in the row above the track
	var grabErr error
	var jumped float64
	go func() {
		<-paused
		time.Sleep(400 * time.Millisecond)
		g, err := screenGrab()
		if err != nil {
			grabErr = err
		} else {
			y := wy + h - osdMargin - osdBarH - 2
			for x := 0; x < w; x++ {
				if c := g.RGBAAt(wx+x, y); c.R == osdMark.R && c.G == osdMark.G && c.B == osdMark.B {
					row = append(row, x)
				}
			}
		}
		p0.win.Press(window.KeyChapterNext)
		time.Sleep(400 * time.Millisecond)
		p0.win.Press(window.KeyQuit)
	}()
	_, err := playWithin(t, 60*time.Second, src, Config{GPU: GPUConfig{Device: -1, Validate: true}, Playback: PlaybackConfig{Untimed: true}, Hooks: Hooks{OnFrame: func(p *Player, n int) {
		if n == 10 {
			p0 = p
			wx, wy = p.win.Pos()
			p.win.Press(window.KeySpace)
			close(paused)
		}
		if n > 10 {
			jumped = p.position()
		}
	}}})
	if err != nil {
		t.Fatal(err)
	}
	if grabErr != nil {
		t.Fatal(grabErr)
	}
	x0, x1 := osdMargin, w-osdMargin
	var want []int
	for _, s := range []float64{1, 3} {
		x := x0 + int(math.Round(float64(x1-x0)*s/4))
		want = append(want, x-1, x)
	}
	if len(row) != len(want) || row[0] != want[0] || row[1] != want[1] || row[2] != want[2] || row[3] != want[3] {
		t.Errorf("mark pixels at %v, want %v", row, want)
	}
	if jumped != 1 {
		t.Errorf("PgUp from 0.3 s (chapter a) showed %v, want chapter b at 1 s", jumped)
	}
}
