package player

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/ycbcrkit/ycbcrkit/present/window"
)

// TestSeeksAddUpWhilePaused: paused at 1.0 s of a 60 s synthetic clip (30 fps), six presses of →
// 50 ms apart land 30 s on, and the picture at the target is shown while still paused: the s key's
// screenshot (the video picture) is synth's frame 930, checked against the CPU oracle's picture of
// that frame. Then , steps one frame back: frame 929.
func TestSeeksAddUpWhilePaused(t *testing.T) {
	if !window.Available() {
		t.Fatal("no display: run the tests under xvfb-run (make test does)")
	}
	src := synthetic(t, "yuv420p", 64, 36, 1800)
	dir := t.TempDir()
	paused := make(chan *Player, 1)
	go func() {
		p := <-paused
		time.Sleep(200 * time.Millisecond)
		for range 6 {
			p.win.Press(window.KeyRight)
			time.Sleep(50 * time.Millisecond)
		}
		time.Sleep(700 * time.Millisecond)
		p.win.Press(window.KeyS)
		time.Sleep(300 * time.Millisecond)
		p.win.Press(window.KeyComma)
		time.Sleep(700 * time.Millisecond)
		p.win.Press(window.KeyS)
		time.Sleep(300 * time.Millisecond)
		p.win.Press(window.KeyQuit)
	}()
	st, err := playWithin(t, 60*time.Second, src, Config{GPU: GPUConfig{Device: -1, Validate: true}, Output: OutputConfig{ShotDir: dir}, Playback: PlaybackConfig{Untimed: true}, Hooks: Hooks{OnFrame: func(p *Player, n int) {
		if n == 31 {
			p.win.Press(window.KeySpace)
			paused <- p
		}
	}}})
	if err != nil {
		t.Fatal(err)
	}
	// Presented: 31 frames, then while paused a picture per seek the decoder took (1 to 6: seeks it
	// had not taken yet were replaced by the next), then the step back's.
	if n := st.FramesPresented; n < 33 || n > 38 {
		t.Errorf("%d frames presented, want 33 to 38", n)
	}
	checkScreenshot(t, filepath.Join(dir, "ycbcrplay-0001.png"), src, 931)
	checkScreenshot(t, filepath.Join(dir, "ycbcrplay-0002.png"), src, 930)
}

// TestMousePanning: in a window at 1:1, dragging with the left button moves the picture with the
// pointer (DragBy feeds the drag as GLFW's cursor callbacks do, whole pixels taken, fractions kept);
// a drag or arrow keys far past the edge leave panKeep pixels of it in the window; in fit a drag
// does nothing.
func TestMousePanning(t *testing.T) {
	if !window.Available() {
		t.Fatal("no display: run the tests under xvfb-run (make test does)")
	}
	const w, h = 320, 180
	var pans [][2]int
	var tw, th int
	_, err := playWithin(t, 60*time.Second, synthetic(t, "yuv420p", w, h, 600), Config{GPU: GPUConfig{Device: -1, Validate: true}, Output: OutputConfig{Width: 400, Height: 300}, Playback: PlaybackConfig{Untimed: true}, View: ViewConfig{Zoom: 1}, Hooks: Hooks{OnFrame: func(p *Player, n int) {
		switch n {
		case 3:
			p.win.DragBy(40.5, -25.25)
		case 6:
			pans = append(pans, [2]int{p.rend.PanX, p.rend.PanY})
			p.win.DragBy(1e5, 1e5)
		case 9:
			pans = append(pans, [2]int{p.rend.PanX, p.rend.PanY})
			for range 40 {
				p.win.Press(window.KeyRight) // zoomed: each moves the picture 64 pixels left
			}
		case 12:
			pans = append(pans, [2]int{p.rend.PanX, p.rend.PanY})
			tw, th = p.win.Size()
			p.win.Press(window.Key1) // back to fit
		case 15:
			p.win.DragBy(30, 30)
		case 18:
			pans = append(pans, [2]int{p.rend.PanX, p.rend.PanY})
			p.win.Press(window.KeyQuit)
		}
	}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(pans) != 4 {
		t.Fatalf("pans %v: playback ended early", pans)
	}
	limX, limY := (tw+w)/2-64, (th+h)/2-64
	want := [][2]int{{40, -25}, {limX, limY}, {-limX, limY}, {0, 0}}
	t.Logf("window %dx%d: pans %v", tw, th, pans)
	for i := range want {
		if pans[i] != want[i] {
			t.Errorf("step %d: pan %v, want %v (all: %v)", i, pans[i], want[i], pans)
		}
	}
}
