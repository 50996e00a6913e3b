package player

import (
	"image"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/ycbcrkit/ycbcrkit/internal/testkit/pictest"
	"github.com/ycbcrkit/ycbcrkit/internal/testkit/subtest"
	"github.com/ycbcrkit/ycbcrkit/present/window"
	"github.com/ycbcrkit/ycbcrkit/subtitle"
)

// TestSubtitlesInWindow plays a 320×240 synthetic clip with subtest's styled ASS file (red, 1–2 s)
// in a window under Xvfb, pauses at 1.5 s and reads what the X server shows: the red line is there,
// drawn on the GPU in the display's pass (osd.ImagePass), and equals the screenshot's (the same
// pass over the picture at the video's size) within 2/255 per channel; with v it is gone.
func TestSubtitlesInWindow(t *testing.T) {
	if !window.Available() {
		t.Fatal("no display: run the tests under xvfb-run (make test does)")
	}
	const w, h, pauseAt = 320, 240, 46 // frame 46 at 30 fps: 1.5 s
	dir := t.TempDir()
	file := filepath.Join(dir, "styled.ass")
	if err := os.WriteFile(file, []byte(subtest.StyledASS), 0o644); err != nil {
		t.Fatal(err)
	}
	subs, err := subtitle.Open("", subtitle.Options{Files: []string{file}, Log: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	defer subs.Close()
	<-subs.Done()
	if subs.SID() != 1 {
		t.Fatalf("the external file's track is not selected: sid %d", subs.SID())
	}
	src := synthetic(t, "yuv444p", w, h, 90)
	shot := filepath.Join(dir, "shot.png")
	var p0 *Player
	var wx, wy int
	paused := make(chan struct{})
	var grabs [2]*image.RGBA
	var grabErr error
	go func() {
		<-paused
		for i := range grabs {
			time.Sleep(400 * time.Millisecond) // a few paused redraws reach the X server
			g, err := screenGrab()
			if err != nil {
				grabErr = err
				break
			}
			grabs[i] = crop(g, wx, wy, w, h)
			p0.win.Press(window.KeySubToggle)
		}
		p0.win.Press(window.KeyQuit)
	}()
	_, err = playWithin(t, 60*time.Second, src, Config{GPU: GPUConfig{Device: -1, Validate: true}, Playback: PlaybackConfig{Untimed: true},
		Subtitles: SubtitlesConfig{Source: subs}, Hooks: Hooks{OnFrame: func(p *Player, n int) {
			if n == pauseAt {
				p0 = p
				wx, wy = p.win.Pos()
				if err := p.screenshot(shot); err != nil {
					t.Error(err)
				}
				p.win.Press(window.KeySpace)
				close(paused)
			}
		}}})
	if err != nil {
		t.Fatal(err)
	}
	if grabErr != nil {
		t.Fatal(grabErr)
	}
	want := pictest.ReadNRGBA(t, shot)
	saveShot(grabs[0], "subtitles-window")
	// The line's place: its top left at (40, 60), "Red" in bold 32 px.
	textBox := image.Rect(30, 50, 150, 110)
	red, worst := 0, 0
	// Compared where the line is: the paused window also shows the progress bar and the paused sign.
	for y := textBox.Min.Y; y < textBox.Max.Y; y++ {
		for x := textBox.Min.X; x < textBox.Max.X; x++ {
			g, s := grabs[0].RGBAAt(x, y), want.NRGBAAt(x, y)
			worst = max(worst, diff8(g.R, s.R), diff8(g.G, s.G), diff8(g.B, s.B))
			if g.R > 200 && g.G < 60 && g.B < 60 && s.R > 200 && s.G < 60 && s.B < 60 {
				red++
			}
		}
	}
	if worst > 2 || red < 200 {
		t.Errorf("window vs screenshot: worst difference %d/255, %d red pixels in both", worst, red)
	}
	hidden := 0
	for y := range h {
		for x := range w {
			if g := grabs[1].RGBAAt(x, y); image.Pt(x, y).In(textBox) && g.R > 200 && g.G < 60 && g.B < 60 {
				hidden++
			}
		}
	}
	if hidden >= red/4 {
		t.Errorf("after v: %d red pixels remain of %d", hidden, red)
	}
}

func diff8(a, b uint8) int {
	if a > b {
		return int(a - b)
	}
	return int(b - a)
}
