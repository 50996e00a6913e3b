package player

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/ycbcrkit/ycbcrkit/internal/testkit/timebound"
	"github.com/ycbcrkit/ycbcrkit/present/window"
)

// TestPlayOpeningWindow: PlayOpening's window opens before its input (an Opener that takes 1.2 s),
// at OpeningWidth×OpeningHeight, and shows "opening NAME…" in its middle (light text on a dark panel
// on black, as the X server shows it); then the window takes the video's size, as Play's does, or
// keeps -geometry's, and the input plays to its end.
func TestPlayOpeningWindow(t *testing.T) {
	if !window.Available() {
		t.Fatal("no display: run the tests under xvfb-run (make test does)")
	}
	for _, geometry := range [][2]int{{0, 0}, {400, 300}} {
		src := synthetic(t, "yuv420p", 320, 180, 10)
		// The open ends once the hook has looked at the opening window (not after a fixed time: on
		// a loaded machine the window and device can take longer than any such time to appear).
		looked := make(chan struct{})
		open := func(stop <-chan struct{}) (Input, error) {
			select {
			case <-looked:
				return Input{Source: src}, nil
			case <-time.After(30 * time.Second):
				return Input{}, errors.New("the opening window was never shown for 600 ms")
			case <-stop:
				return Input{}, errors.New("stopped")
			}
		}
		var openSize, frameSize [2]int
		var lit, dark int
		var grabErr error
		cfg := Config{GPU: GPUConfig{Device: -1, Validate: true}, Output: OutputConfig{Width: geometry[0], Height: geometry[1]}, Playback: PlaybackConfig{Untimed: true}, Hooks: Hooks{OnOpening: func(p *Player, waited time.Duration) {
			if waited < 600*time.Millisecond || openSize != [2]int{} {
				return
			}
			defer close(looked)
			openSize[0], openSize[1] = p.win.Size()
			x, y := p.win.Pos()
			g, err := screenGrab()
			if err != nil {
				grabErr = err
				return
			}
			c := crop(g, x, y, openSize[0], openSize[1])
			// The message's panel is in the middle; the corners are black.
			for yy := openSize[1]/2 - 8; yy < openSize[1]/2+8; yy++ {
				for xx := openSize[0]/2 - 60; xx < openSize[0]/2+60; xx++ {
					if px := c.RGBAAt(xx, yy); px.R > 200 && px.G > 200 && px.B > 200 {
						lit++
					}
				}
			}
			for _, px := range [][2]int{{2, 2}, {openSize[0] - 3, openSize[1] - 3}} {
				if q := c.RGBAAt(px[0], px[1]); q.R < 10 && q.G < 10 && q.B < 10 {
					dark++
				}
			}
		}, OnFrame: func(p *Player, n int) {
			if n == 1 {
				frameSize[0], frameSize[1] = p.win.Size()
			}
		}}}
		st, err := PlayOpening("clip.mkv", open, cfg)
		if err != nil {
			t.Fatal(err)
		}
		if grabErr != nil {
			t.Fatal(grabErr)
		}
		wantOpen, wantFrame := [2]int{OpeningWidth, OpeningHeight}, [2]int{320, 180}
		if geometry[0] > 0 {
			wantOpen, wantFrame = geometry, geometry
		}
		if !st.Opened || st.FramesPresented != 10 || openSize != wantOpen || frameSize != wantFrame {
			t.Errorf("-geometry %v: opened %v, %d frames, window %v while opening (want %v), %v at the first frame (want %v)",
				geometry, st.Opened, st.FramesPresented, openSize, wantOpen, frameSize, wantFrame)
		}
		if lit < 20 || dark != 2 {
			t.Errorf("-geometry %v: %d light pixels in the middle, %d black corners: want the message's text on black", geometry, lit, dark)
		}
		t.Logf("-geometry %v: %v while opening (%d light pixels), %v at the first frame", geometry, openSize, lit, frameSize)
	}
}

// TestPlayOpeningQuit: an Opener that waits for ever (until stop). q, closing the window, Enter and
// < end PlayOpening within 1 s of the press with the matching End, Opened false and no error, and
// the Opener's stop was closed; an Opener that ignores stop is left after openGrace.
func TestPlayOpeningQuit(t *testing.T) {
	if !window.Available() {
		t.Fatal("no display: run the tests under xvfb-run (make test does)")
	}
	for _, c := range []struct {
		name   string
		press  func(w *window.Window)
		want   End
		ignore bool
	}{
		{"q", func(w *window.Window) { w.Press(window.KeyQuit) }, EndQuit, false},
		{"close", func(w *window.Window) { w.Close() }, EndQuit, false},
		{"Enter", func(w *window.Window) { w.Press(window.KeyNext) }, EndNext, false},
		{"<", func(w *window.Window) { w.Press(window.KeyPrev) }, EndPrev, false},
		{"q, stop ignored", func(w *window.Window) { w.Press(window.KeyQuit) }, EndQuit, true},
	} {
		stopped := make(chan struct{})
		block := make(chan struct{})
		open := func(stop <-chan struct{}) (Input, error) {
			if c.ignore {
				<-block
				return Input{}, errors.New("late")
			}
			<-stop
			close(stopped)
			return Input{}, fmt.Errorf("interrupted")
		}
		var pressed time.Time
		var span *timebound.Span
		cfg := Config{GPU: GPUConfig{Device: -1, Validate: true}, Hooks: Hooks{OnOpening: func(p *Player, waited time.Duration) {
			if pressed.IsZero() && waited > 300*time.Millisecond {
				pressed, span = time.Now(), timebound.Start()
				c.press(p.win)
			}
		}}}
		st, err := PlayOpening("never.mkv", open, cfg)
		took := time.Since(pressed)
		close(block)
		if err != nil || pressed.IsZero() || st.Opened || st.End != c.want {
			t.Errorf("%s: %+v, %v, pressed %v: want End %v, not opened, no error", c.name, st, err, !pressed.IsZero(), c.want)
			continue
		}
		if !c.ignore {
			select {
			case <-stopped:
			default:
				t.Errorf("%s: the Opener's stop was not closed", c.name)
			}
		}
		limit := time.Second
		if c.ignore {
			limit += openGrace
		}
		span.Within(t, c.name+": the end after the press", limit)
		t.Logf("%s: ended %v after the press", c.name, took.Round(time.Millisecond))
	}
}
