package player

import (
	"fmt"
	"testing"

	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/present/window"
)

// TestDiffFigures: in a window in diff mode the display carries the measured max and mean
// |sampler − shader| of the picture on screen, equal to the figures of the two paths' pictures
// converted here (ycbcr.Paths.Convert through each path, compared in this test).
func TestDiffFigures(t *testing.T) {
	if !window.Available() {
		t.Fatal("no display: run the tests under xvfb-run (make test does)")
	}
	src := synthetic(t, "nv12", 320, 180, 10)
	var shown, want string
	_, err := Play(src, Config{GPU: GPUConfig{Validate: true}, Playback: PlaybackConfig{Untimed: true, Frames: 1}, Convert: ConvertConfig{Compare: CompareDiff}, Hooks: Hooks{OnFrame: func(p *Player, n int) {
		shown = p.osd.diff
		a, err := p.rend.Conv.Convert(p.last.Picture, p.params(p.last.Color), formats.PathSampler)
		if err != nil {
			t.Fatal(err)
		}
		b, err := p.rend.Conv.Convert(p.last.Picture, p.params(p.last.Color), formats.PathShader)
		if err != nil {
			t.Fatal(err)
		}
		largest, sum := 0, 0
		for i := range a.Pix {
			if i%4 == 3 {
				continue
			}
			d := max(int(a.Pix[i])-int(b.Pix[i]), int(b.Pix[i])-int(a.Pix[i]))
			largest, sum = max(largest, d), sum+d
		}
		want = fmt.Sprintf("max %d, mean %.3f LSB (8-bit)", largest, float64(sum)/float64(len(a.Pix)/4*3))
	}}})
	if err != nil {
		t.Fatal(err)
	}
	if shown == "" || shown != want {
		t.Errorf("diff figures on the display %q, want %q", shown, want)
	}
}
