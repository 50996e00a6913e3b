package player

import (
	"image"
	"math"
	"strings"
	"testing"

	"github.com/ycbcrkit/ycbcrkit/decode"
	"github.com/ycbcrkit/ycbcrkit/formats"
)

// panSource is a pan made in the test: a white bar, barW pixels wide, moving step pixels to the
// right every frame on black, at fps.
type panSource struct {
	fps            float64
	count, n       int
	w, h           int
	x0, barW, step int
}

func (s *panSource) Info() SourceInfo {
	return SourceInfo{Name: "pan", FrameRate: s.fps, Duration: float64(s.count) / s.fps}
}

func (s *panSource) Next() (*Frame, error) {
	if s.n >= s.count {
		return nil, errEOF
	}
	pf, _ := formats.Lookup("yuv420p")
	pic, err := formats.NewFrame(pf, s.w, s.h)
	if err != nil {
		return nil, err
	}
	left := s.x0 + s.n*s.step
	for y := 0; y < s.h; y++ {
		for x := 0; x < s.w; x++ {
			code := uint16(16)
			if x >= left && x < left+s.barW {
				code = 235
			}
			pic.SetCode(formats.Y, x, y, code)
			if x < s.w/2 && y < s.h/2 {
				pic.SetCode(formats.Cb, x, y, 128)
				pic.SetCode(formats.Cr, x, y, 128)
			}
		}
	}
	c := formats.Color{Matrix: formats.MatrixBT709, Range: formats.RangeLimited, ChromaLocation: formats.ChromaLeft,
		Primaries: formats.PrimariesBT709, Transfer: formats.TransferBT709}
	f := &Frame{Frame: &decode.Frame{Picture: pic, PTS: float64(s.n) / s.fps, Color: c}}
	s.n++
	return f, nil
}

func (s *panSource) Seek(seconds float64) error {
	s.n = min(s.count, max(0, int(math.Ceil(seconds*s.fps-1e-6))))
	return nil
}
func (s *panSource) Close() error { return nil }

// barCentre is the bar's intensity-weighted centre along the middle row (pixels), measured from the
// picture alone.
func barCentre(img *image.RGBA) float64 {
	y := img.Rect.Dy() / 2
	var sum, sx float64
	for x := 0; x < img.Rect.Dx(); x++ {
		v := float64(img.Pix[y*img.Stride+4*x])
		sum += v
		sx += v * float64(x)
	}
	return sx / sum
}

// playPan plays a 24 fps pan (10 frames, 12 px a frame) headless on a 60 Hz display, display-synced
// with tscale, and returns the bar's position at each refresh and the figures.
func playPan(t *testing.T, fps float64, tscale TScale) ([]float64, *Stats) {
	t.Helper()
	src := &panSource{fps: fps, count: 10, w: 192, h: 8, x0: 8, barW: 8, step: 12}
	var pos []float64
	stats, err := Play(src, Config{GPU: GPUConfig{Device: -1, Validate: true}, Output: OutputConfig{Headless: true},
		Playback: PlaybackConfig{Untimed: true, VideoSync: SyncDisplayResample, DisplayFPS: 60, TScale: tscale},
		Hooks: Hooks{OnRefresh: func(_ *Player, r Refresh) {
			if r.Picture == nil {
				t.Fatal("no picture read back")
			}
			pos = append(pos, barCentre(r.Picture))
		}}})
	if err != nil {
		t.Fatal(err)
	}
	return pos, stats
}

// TestDisplaySyncPan measures the motion a 24 fps pan shows on a 60 Hz display, from the pictures
// presented at each refresh: with linear blending the bar advances by the same amount every
// refresh, 16.7 ms of the pan's time within ±1 ms; without it (the negative control) the bar holds
// for 3 refreshes, then 2, in turn; at 23.976 fps the video is sped up by 0.1 % to the same
// cadence, 2.5 refreshes a frame without drift.
func TestDisplaySyncPan(t *testing.T) {
	const step, fps = 12.0, 24.0
	msPerPixel := 1000 / fps / step // the pan's time per pixel of motion
	t.Run("interpolation", func(t *testing.T) {
		pos, stats := playPan(t, fps, TScaleLinear)
		// 10 frames from 0 to 9/24 s, then the last frame's duration: 25 refreshes.
		if len(pos) != 25 {
			t.Fatalf("%d refreshes, want 25 (10 frames of 2.5)", len(pos))
		}
		worst := 0.0
		for i := 1; i < 23; i++ { // up to the last frame's time: after it nothing moves
			dt := (pos[i] - pos[i-1]) * msPerPixel
			worst = max(worst, math.Abs(dt-1000.0/60))
			if math.Abs(dt-1000.0/60) > 1 {
				t.Errorf("refresh %d: the bar moved %.3f px = %.2f ms of the pan, want 16.67 ± 1 ms", i, pos[i]-pos[i-1], dt)
			}
		}
		t.Logf("steps: 16.667 ms ± %.3f ms; display_sync %+v", worst, *stats.DisplaySync)
		if ds := stats.DisplaySync; ds == nil || ds.Interpolation != "linear" || ds.VideoSpeed != 1 {
			t.Errorf("display_sync %+v: want linear interpolation at speed 1", ds)
		}
	})
	t.Run("cadence", func(t *testing.T) {
		pos, stats := playPan(t, fps, TScaleOff)
		runs := runLengths(pos)
		want := "3 2 3 2 3 2 3 2 3 2"
		if got := fmtInts(runs); got != want {
			t.Errorf("refreshes per position %s, want the 3:2 cadence %s", got, want)
		}
		if stats.DisplaySync.Cadence != want {
			t.Errorf("-stats cadence %q, want %q", stats.DisplaySync.Cadence, want)
		}
	})
	t.Run("23.976", func(t *testing.T) {
		pos, stats := playPan(t, 24000.0/1001, TScaleOff)
		ds := stats.DisplaySync
		if got := fmtInts(runLengths(pos)); got != "3 2 3 2 3 2 3 2 3 2" || ds.VideoSpeed != 1.001 || ds.Refreshes != 25 || ds.RefreshesPerFrame != 2.5 {
			t.Errorf("refreshes per frame %s, display_sync %+v: want 3 2 … (2.5 a frame, no drift), video_speed 1.001, 25 refreshes", got, *ds)
		}
	})
}

// runLengths counts the refreshes each position (the bar's centre to 0.01 px) held for.
func runLengths(pos []float64) []int {
	var runs []int
	for i, p := range pos {
		if i > 0 && math.Abs(p-pos[i-1]) < 0.01 {
			runs[len(runs)-1]++
			continue
		}
		runs = append(runs, 1)
	}
	return runs
}

func fmtInts(v []int) string {
	s := make([]string, len(v))
	for i, n := range v {
		s[i] = string(rune('0' + n))
	}
	return strings.Join(s, " ")
}

// TestFitSpeed checks the video's speed on a display against the cases mpv's display sync names:
// a frame rate that fits a whole number of refreshes (or a run of up to 5 frames does) plays at 1,
// the NTSC rates 0.1 % fast, and a rate more than 1 % off a fit not at all.
func TestFitSpeed(t *testing.T) {
	for _, c := range []struct {
		hz, fps, want float64
		ok            bool
	}{
		{60, 24, 1, true}, {60, 25, 1, true}, {60, 30, 1, true}, {50, 25, 1, true}, {60, 50, 1, true},
		{60, 24000.0 / 1001, 1.001, true}, {60, 30000.0 / 1001, 1.001, true}, {144, 24000.0 / 1001, 1.001, true},
		{60 / 1.001, 24, 1 / 1.001, true}, {60, 24.5, 1, false},
	} {
		got, ok := fitSpeed(1/c.hz, 1/c.fps, MaxVideoChange)
		if ok != c.ok || math.Abs(got-c.want) > 1e-9 {
			t.Errorf("%.3f fps on %.2f Hz: speed %.6f (%v), want %.6f (%v)", c.fps, c.hz, got, ok, c.want, c.ok)
		}
	}
}

// TestDisplayClockHoldsTheOffset runs the A/V offset correction against a sound device whose clock
// is 0.1 % off the display's (either way) and a sound that starts 40 ms late, each offset read ±2 ms
// off (a real reading's noise), for 20,000 refreshes (5.6 minutes at 60 Hz): the offset comes within
// half a refresh and stays within a refresh; without the correction it would reach 0.1 % of 333 s.
// Once settled, the speed that cancels the device's drift is found: the sound's speed changes at
// most twice a minute (5 a minute, ending 0.1 % off, with mpv's plain rule), and the speed it
// rests at between corrections ends within 0.02 % of the video's speed ÷ (1 ± 0.1 %).
func TestDisplayClockHoldsTheOffset(t *testing.T) {
	for _, skew := range []float64{+0.001, -0.001} {
		c := displayClock{vsync: 1.0 / 60, speed: 1.001}
		video, audio := 0.0, -0.040 // the sound 40 ms behind
		speed := c.speed
		settled, worst, changes, resting := -1, 0.0, 0, 0.0
		noise := uint32(1)
		for n := 0; n < 20000; n++ {
			video += c.step()
			audio += c.vsync * speed * (1 + skew)
			off := video - audio
			noise = noise*1664525 + 1013904223
			read := off + 0.002*(float64(noise>>8)/(1<<24)*2-1)
			was := speed
			speed = c.correct(read)
			if speed < c.speed*(1-MaxAudioChange)-1e-12 || speed > c.speed*(1+MaxAudioChange)+1e-12 {
				t.Fatalf("audio speed %.6f beyond ±%.3f %% of the video's", speed, MaxAudioChange*100)
			}
			if settled < 0 && math.Abs(off) <= c.vsync/2 {
				settled = n
			}
			if c.drift == 0 {
				resting = speed
			}
			if settled >= 0 {
				worst = max(worst, math.Abs(off))
				if speed != was {
					changes++
				}
			}
		}
		want := c.speed / (1 + skew)
		t.Logf("skew %+.1f %%: within half a refresh after %d refreshes; then |offset| ≤ %.2f ms, %d speed changes, resting at %.6f (cancels %.6f)",
			skew*100, settled, worst*1000, changes, resting, want)
		if settled < 0 || worst > c.vsync {
			t.Errorf("skew %+.1f %%: offset settled at refresh %d, worst %.2f ms after; want within %.2f ms", skew*100, settled, worst*1000, c.vsync*1000)
		}
		if minutes := float64(20000-settled) / 3600; float64(changes) > 2*minutes || math.Abs(resting/want-1) > 0.0002 {
			t.Errorf("skew %+.1f %%: %d speed changes in %.1f minutes, resting at %.6f; want at most 2 a minute, within 0.02 %% of %.6f",
				skew*100, changes, minutes, resting, want)
		}
	}
}
