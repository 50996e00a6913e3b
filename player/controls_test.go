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
	st, err := playWithin(t, 60*time.Second, src, Config{Device: -1, Validate: true, Untimed: true, ShotDir: dir,
		OnFrame: func(p *Player, n int) {
			if n == 31 {
				p.win.Press(window.KeySpace)
				paused <- p
			}
		}})
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
