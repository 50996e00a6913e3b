package player

import (
	"fmt"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/internal/testkit/pictest"
	"github.com/ycbcrkit/ycbcrkit/internal/testkit/vktest"
	"github.com/ycbcrkit/ycbcrkit/planes"
	"github.com/ycbcrkit/ycbcrkit/present/window"
	"github.com/ycbcrkit/ycbcrkit/testvectors/synth"
	"github.com/ycbcrkit/ycbcrkit/ycbcr"
	"github.com/ycbcrkit/ycbcrkit/ycbcr/check"
	"github.com/ycbcrkit/ycbcrkit/ycbcr/oracle"
)

func synthetic(t *testing.T, name string, w, h, n int) *Synthetic {
	t.Helper()
	pf, ok := formats.Lookup(name)
	if !ok {
		t.Fatalf("no layout %s", name)
	}
	c := formats.Color{Matrix: formats.MatrixBT709, Range: formats.RangeLimited, ChromaLocation: formats.ChromaTopLeft,
		Primaries: formats.PrimariesBT709, Transfer: formats.TransferBT709}
	return &Synthetic{Format: pf, Width: w, Height: h, Count: n, FPS: 30, Color: c}
}

// checkScreenshot compares the PNG with the oracle's picture of the last frame (frame n−1).
func checkScreenshot(t *testing.T, path string, src *Synthetic, n int) {
	t.Helper()
	img := pictest.ReadPNG(t, path)
	if img.Bounds() != image.Rect(0, 0, src.Width, src.Height) {
		t.Fatalf("screenshot is %v, want the video size %dx%d", img.Bounds(), src.Width, src.Height)
	}
	last, err := synth.Moving(src.Format, src.Width, src.Height, n-1)
	if err != nil {
		t.Fatal(err)
	}
	prm, err := check.OracleParams(src.Format, ycbcr.FromColor(src.Color))
	if err != nil {
		t.Fatal(err)
	}
	tol := oracle.HardwareTolerance(src.Format.Depth, 8)
	tol.UnormBits = 8
	bounds := oracle.ImageBounds(check.OraclePicture(last), prm, tol)
	fails := 0
	for i, b := range bounds {
		r, g, bl, _ := img.At(i%src.Width, i/src.Width).RGBA()
		for c, v := range []uint32{r >> 8, g >> 8, bl >> 8} {
			if f := float64(v) / 255; f < b.Lo[c]-1e-9 || f > b.Hi[c]+1e-9 {
				fails++
			}
		}
	}
	if fails > 0 {
		t.Fatalf("screenshot: %d values outside the oracle's bounds for the last frame", fails)
	}
}

func TestHeadlessPlayback(t *testing.T) {
	for _, tc := range []struct {
		upload   planes.Upload
		cpuBytes int
	}{{planes.UploadCopy, 64 * 36 * 3 / 2}, {planes.UploadImport, 0}} {
		t.Run(tc.upload.String(), func(t *testing.T) {
			src := synthetic(t, "nv12", 64, 36, 12)
			shot := filepath.Join(t.TempDir(), "last.png")
			stats, err := Play(src, Config{GPU: GPUConfig{Device: -1, Validate: true}, Output: OutputConfig{Headless: true, Screenshot: shot}, Playback: PlaybackConfig{Untimed: true}, Convert: ConvertConfig{Upload: tc.upload}})
			if err != nil {
				t.Fatal(err)
			}
			if stats.FramesPresented != 12 || stats.FramesDecoded != 12 || stats.FramesDropped != 0 {
				t.Fatalf("stats %+v: want 12 decoded and presented, none dropped", stats)
			}
			if stats.Path != "sampler" || stats.PixelFormat != "nv12" || stats.Upload != tc.upload.String() || stats.CPUBytesCopiedPerFrame != tc.cpuBytes {
				t.Fatalf("stats %+v", stats)
			}
			checkScreenshot(t, shot, src, 12)
		})
	}
}

func TestSamplerPathRefusedWithReason(t *testing.T) {
	src := synthetic(t, "yuv420p", 32, 16, 2)
	src.Color.ChromaLocation = formats.ChromaBottom
	_, err := Play(src, Config{GPU: GPUConfig{Device: -1}, Output: OutputConfig{Headless: true}, Playback: PlaybackConfig{Untimed: true}, Convert: ConvertConfig{Path: formats.ChooseSampler}})
	if err == nil {
		t.Fatal("-path sampler played bottom-sited chroma, which no Vulkan offset expresses")
	}
	t.Log(err)
}

// TestWindowPlayback plays in a real window under Xvfb: resizes in a row, fullscreen and back while
// playing, then a screenshot of the X screen (what was presented) must show the picture: the window's
// content equals the oracle's picture of the frame on screen.
func TestWindowPlayback(t *testing.T) {
	if !window.Available() {
		t.Fatal("no display: run the tests under xvfb-run (make test does)")
	}
	const w, h = 64, 36
	src := synthetic(t, "yuv420p", w, h, 60)
	shot := filepath.Join(t.TempDir(), "last.png")
	resizes, fulls := 0, 0
	var grab *image.RGBA
	var gx, gy, grabbed int
	var grabErr error
	stats, err := Play(src, Config{GPU: GPUConfig{Device: -1, Validate: true}, Output: OutputConfig{Screenshot: shot}, Playback: PlaybackConfig{Frames: 50, Untimed: true}, Hooks: Hooks{OnFrame: func(p *Player, n int) {
		win := p.Window()
		switch {
		case n < 25 && n%2 == 0: // a resize storm while playing
			win.SetSize(100+n*7, 60+n*3)
			resizes++
		case n == 26 || n == 30:
			win.ToggleFullscreen()
			fulls++
		case n == 34:
			win.SetSize(w, h)
		case n == 45:
			vk.QueueWaitIdle(p.dev.Queue)
			time.Sleep(200 * time.Millisecond) // let the X server take the presented image
			gx, gy = win.Pos()
			fw, fh := win.Size()
			if fw != w || fh != h {
				grabErr = fmt.Errorf("window is %dx%d, want %dx%d", fw, fh, w, h)
				return
			}
			grab, grabErr = screenGrab()
			grabbed = n
		}
	}}})
	if err != nil {
		t.Fatal(err)
	}
	if stats.FramesPresented != 50 || resizes < 10 || fulls != 2 {
		t.Fatalf("stats %+v, %d resizes, %d fullscreen toggles", stats, resizes, fulls)
	}
	checkScreenshot(t, shot, src, 50)
	if grabErr != nil {
		t.Fatal(grabErr)
	}
	// The frame on screen when grabbed is the grabbed-th one (t = grabbed−1).
	win := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			win.Set(x, y, grab.At(gx+x, gy+y))
		}
	}
	windowPNG := filepath.Join(t.TempDir(), "window.png")
	f, _ := os.Create(windowPNG)
	png.Encode(f, win)
	f.Close()
	checkScreenshot(t, windowPNG, src, grabbed)
}

// TestCompareDiff: in diff mode the picture is |sampler − shader| × DiffGain, which must equal the
// same difference computed on the CPU from each path's own conversion of that frame.
func TestCompareDiff(t *testing.T) {
	src := synthetic(t, "nv12", 48, 24, 3)
	var got *image.RGBA
	var shown int
	var grabErr error
	_, err := Play(src, Config{GPU: GPUConfig{Device: -1, Validate: true}, Output: OutputConfig{Headless: true}, Playback: PlaybackConfig{Untimed: true, Frames: 3}, Convert: ConvertConfig{Compare: CompareDiff}, Hooks: Hooks{OnFrame: func(p *Player, n int) {
		if n != 3 {
			return
		}
		vk.QueueWaitIdle(p.dev.Queue)
		grabErr = p.dev.Submit(func(cb vk.CommandBuffer) { p.off.RecordReadback(cb) })
		got, shown = p.off.RGBA(), n
	}}})
	if err != nil {
		t.Fatal(err)
	}
	if grabErr != nil {
		t.Fatal(grabErr)
	}
	dev := vktest.Open(t)
	conv, err := ycbcr.NewPaths(dev)
	if err != nil {
		t.Fatal(err)
	}
	defer conv.Destroy()
	f, err := synth.Moving(src.Format, src.Width, src.Height, shown-1)
	if err != nil {
		t.Fatal(err)
	}
	a, err := conv.Convert(f, ycbcr.FromColor(src.Color), formats.PathSampler)
	if err != nil {
		t.Fatal(err)
	}
	b, err := conv.Convert(f, ycbcr.FromColor(src.Color), formats.PathShader)
	if err != nil {
		t.Fatal(err)
	}
	nonzero := 0
	for i := 0; i < len(a.Pix); i += 4 {
		for c := 0; c < 3; c++ {
			d := int(a.Pix[i+c]) - int(b.Pix[i+c])
			if d < 0 {
				d = -d
			}
			want := min(d*DiffGain, 255)
			if g := int(got.Pix[i+c]); g < want-1 || g > want+1 {
				t.Fatalf("diff pixel %d channel %d = %d, want %d (|%d − %d| × %d)", i/4, c, g, want, a.Pix[i+c], b.Pix[i+c], DiffGain)
			}
			if d != 0 {
				nonzero++
			}
		}
	}
	t.Logf("%d of %d values differ between the paths", nonzero, 3*len(a.Pix)/4)
}

// counting is a Synthetic source that counts the frames asked of it.
type counting struct {
	*Synthetic
	calls atomic.Int32
}

func (c *counting) Next() (*Frame, error) {
	c.calls.Add(1)
	return c.Synthetic.Next()
}

// TestDecodeAhead: before the first picture the decoder goes on while the device and the stream
// are made, up to Config.Playback.DecodeAhead bytes of frames (8 frames here), and no further; with run-ahead
// off it stops at the steady queue's 3 frames; by default at what the pipeline needs (3, and one
// for the synthetic source's single thread). The synthetic source makes a 64×36 frame in
// microseconds, the device takes tens of milliseconds: the queue is full when the first frame shows.
// Once the first frame is presented, the queue goes back to 3 frames. (lavapipe renders on the CPU,
// where the player does not decode ahead: aheadOnCPU lets it here.)
func TestDecodeAhead(t *testing.T) {
	aheadOnCPU = true
	defer func() { aheadOnCPU = false }()
	frame := 64 * 36 * 3 / 2
	for _, tc := range []struct {
		ahead, want int
	}{{8 * frame, 8}, {-1, queueAhead}, {0, queueAhead + 1}} {
		src := &counting{Synthetic: synthetic(t, "nv12", 64, 36, 40)}
		atFirst, atLast := int32(0), int32(0)
		cfg := Config{GPU: GPUConfig{Device: -1, Validate: true}, Output: OutputConfig{Headless: true}, Playback: PlaybackConfig{Untimed: true, DecodeAhead: tc.ahead}, Hooks: Hooks{OnFrame: func(p *Player, n int) {
			switch n {
			case 1:
				atFirst = src.calls.Load()
			case 30:
				time.Sleep(50 * time.Millisecond) // the decoder fills what room there is
				atLast = src.calls.Load()
			}
		}}}
		stats, err := Play(src, cfg)
		if err != nil {
			t.Fatal(err)
		}
		// Before the first picture want frames waited, the first of them that picture; the room it
		// left is refilled (one more frame asked for) unless the decoder has not run yet when the
		// queue is counted, right after the first picture.
		if atFirst < int32(tc.want) || atFirst > int32(1+tc.want) || stats.DecodedAhead < tc.want-1 || stats.DecodedAhead > tc.want {
			t.Errorf("DecodeAhead %d: %d frames asked for at the first picture, %d waiting; want %d waiting",
				tc.ahead, atFirst, stats.DecodedAhead, tc.want)
		}
		// At the 30th: 30 taken, at most the steady 3 waiting, one being decoded.
		if atLast > 30+queueAhead+1 {
			t.Errorf("DecodeAhead %d: %d frames asked for at the 30th picture: the queue did not shrink back to %d", tc.ahead, atLast, queueAhead)
		}
		if stats.FramesPresented != 40 {
			t.Errorf("DecodeAhead %d: %d frames presented, want 40", tc.ahead, stats.FramesPresented)
		}
	}
}
