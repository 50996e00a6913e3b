package player

import (
	"bytes"
	"fmt"
	"image"
	"math"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/decode"
	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/present/window"
	"github.com/ycbcrkit/ycbcrkit/stream"
	"github.com/ycbcrkit/ycbcrkit/ycbcr"
)

// stillSource plays one picture n times.
type stillSource struct {
	pic   *formats.Frame
	color formats.Color
	n, i  int
}

func (s *stillSource) Info() SourceInfo { return SourceInfo{Name: "still", FrameRate: 25} }
func (s *stillSource) Next() (*Frame, error) {
	if s.i >= s.n {
		return nil, errEOF
	}
	s.i++
	return &Frame{Frame: &decode.Frame{Picture: s.pic, PTS: float64(s.i) / 25, Color: s.color}}, nil
}
func (s *stillSource) Seek(float64) error { s.i = 0; return nil }
func (s *stillSource) Close() error       { return nil }

var bt709 = formats.Color{Matrix: formats.MatrixBT709, Range: formats.RangeLimited, ChromaLocation: formats.ChromaLeft,
	Primaries: formats.PrimariesBT709, Transfer: formats.TransferBT709}

// zonePlate420 is a grey zone plate in yuv420p, limited range: cos(k·r²), its frequency reaching the
// Nyquist limit at r = (w + h)/2.
func zonePlate420(t *testing.T, w, h int) *formats.Frame {
	pf, _ := formats.Lookup("yuv420p")
	f, err := formats.NewFrame(pf, w, h)
	if err != nil {
		t.Fatal(err)
	}
	k := math.Pi / float64(w+h)
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			dx, dy := float64(x)-float64(w)/2, float64(y)-float64(h)/2
			f.SetCode(formats.Y, x, y, uint16(math.Round(126+109*math.Cos(k*(dx*dx+dy*dy)))))
		}
	}
	for y := 0; y < h/2; y++ {
		for x := 0; x < w/2; x++ {
			f.SetCode(formats.Cb, x, y, 128)
			f.SetCode(formats.Cr, x, y, 128)
		}
	}
	return f
}

// zscaleThen converts f (yuv420p, BT.709 limited, left-sited) with zscale into 8-bit planar R′G′B′
// and, when vf is not empty, runs FFmpeg's filter vf on that (scale=…: swscale in planar RGB).
func zscaleThen(t *testing.T, f *formats.Frame, w, h int, vf string) *image.RGBA {
	t.Helper()
	var in bytes.Buffer
	for _, c := range []formats.Channel{formats.Y, formats.Cb, formats.Cr} {
		pw, ph := f.Width, f.Height
		if c != formats.Y {
			pw, ph = pw/2, ph/2
		}
		for y := 0; y < ph; y++ {
			for x := 0; x < pw; x++ {
				in.WriteByte(byte(f.Code(c, x, y)))
			}
		}
	}
	chain := "zscale=matrixin=709:rangein=limited:chromalin=left:filter=bilinear:range=full,format=gbrp"
	if vf != "" {
		chain += "," + vf
	}
	cmd := exec.Command("ffmpeg", "-v", "error", "-f", "rawvideo", "-pix_fmt", "yuv420p", "-s", fmt.Sprintf("%dx%d", f.Width, f.Height),
		"-i", "-", "-vf", chain, "-f", "rawvideo", "-pix_fmt", "gbrp", "-")
	cmd.Stdin = &in
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil || len(out) != 3*w*h {
		t.Fatalf("ffmpeg %s: %v (%d bytes)\n%s", chain, err, len(out), stderr.String())
	}
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for i := 0; i < w*h; i++ {
		img.Pix[4*i], img.Pix[4*i+1], img.Pix[4*i+2], img.Pix[4*i+3] = out[2*w*h+i], out[i], out[w*h+i], 255
	}
	return img
}

// shown plays src headless into a w×h target and reads back what the last frame drew.
func shown(t *testing.T, src Source, cfg Config, w, h int) (*image.RGBA, *Stats) {
	return shownPanned(t, src, cfg, w, h, [2]int{})
}

func psnr(a, b *image.RGBA, r image.Rectangle) (float64, int) {
	var se float64
	n, worst := 0, 0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			pa, pb := a.Pix[a.PixOffset(x, y):], b.Pix[b.PixOffset(x-r.Min.X, y-r.Min.Y):]
			for c := 0; c < 3; c++ {
				d := int(pa[c]) - int(pb[c])
				se += float64(d * d)
				worst = max(worst, d, -d)
				n++
			}
		}
	}
	if se == 0 {
		return math.Inf(1), 0
	}
	return 10 * math.Log10(255*255*float64(n)/se), worst
}

// zonePlateRef returns the 3840×2160 zone plate and zscale's R′G′B′ of it downscaled by FFmpeg
// (`scale=1280:720:flags=lanczos`), made by the first test that asks and kept for the other (1.5
// CPU-s each time: the plate's 8.3 M cosines and FFmpeg's conversion).
func zonePlateRef(t *testing.T) (*formats.Frame, *image.RGBA) {
	t.Helper()
	zonePlate.Lock()
	defer zonePlate.Unlock()
	if zonePlate.pic == nil {
		pic := zonePlate420(t, 3840, 2160)
		zonePlate.ref = zscaleThen(t, pic, 1280, 720, "scale=1280:720:flags=lanczos")
		zonePlate.pic = pic
	}
	return zonePlate.pic, zonePlate.ref
}

var zonePlate struct {
	sync.Mutex
	pic *formats.Frame
	ref *image.RGBA
}

// TestZonePlateInWindow: a 3840×2160 zone plate shown in a 1280×720 target, through both
// conversion variants, against zscale's R′G′B′ downscaled by FFmpeg (`scale=1280:720:flags=lanczos`).
// Before the scale pass the picture was drawn with a bilinear sampler from the full-size picture:
// 16.6 dB, full-contrast false rings.
func TestZonePlateInWindow(t *testing.T) {
	const tw, th = 1280, 720
	pic, ref := zonePlateRef(t)
	for _, c := range []struct {
		filter  ycbcr.Filter
		variant stream.Variant
		min     float64
	}{{ycbcr.FilterLanczos, stream.VariantDraw, 35}, {ycbcr.DefaultFilter, stream.VariantCompute, 30}, {ycbcr.FilterCatmullRom, stream.VariantDraw, 0}} {
		got, st := shown(t, &stillSource{pic: pic, color: bt709, n: 2}, Config{Convert: ConvertConfig{Variant: c.variant}, View: ViewConfig{Filter: c.filter}}, tw, th)
		db, worst := psnr(got, ref, got.Rect)
		t.Logf("%s (%s): %.2f dB against zscale + FFmpeg's lanczos, largest difference %d/255; scale %q", c.filter, st.Conversion, db, worst, st.Scale)
		if db < c.min {
			t.Errorf("%s (%s): %.2f dB, want ≥ %.0f", c.filter, st.Conversion, db, c.min)
		}
	}
}

// TestZonePlateOnScreen is TestZonePlateInWindow through a real window: the 3840×2160 zone plate
// played in a 1280×720 window (Xvfb's screen is 1280×720), presented by the swapchain, read back
// from the X server (xwd) and compared with zscale + FFmpeg's lanczos downscale: the default filter
// (Lanczos) ≥ 35 dB, the bar for Lanczos (and so its ≥ 30 for the default).
func TestZonePlateOnScreen(t *testing.T) {
	if !window.Available() {
		t.Fatal("no display: run the tests under xvfb-run -s \"-screen 0 1280x720x24\" (make test does)")
	}
	const tw, th = 1280, 720
	pic, ref := zonePlateRef(t)
	var grab *image.RGBA
	var gx, gy int
	var grabErr error
	st, err := Play(&stillSource{pic: pic, color: bt709, n: 2}, Config{GPU: GPUConfig{Device: -1, Validate: true}, Output: OutputConfig{Width: tw, Height: th}, Playback: PlaybackConfig{Untimed: true}, Hooks: Hooks{OnFrame: func(p *Player, n int) {
		if n != 2 {
			return
		}
		vk.QueueWaitIdle(p.dev.Queue)
		time.Sleep(200 * time.Millisecond) // let the X server take the presented image
		win := p.Window()
		gx, gy = win.Pos()
		if fw, fh := win.Size(); fw != tw || fh != th {
			grabErr = fmt.Errorf("window is %dx%d, want %dx%d (is the screen 1280x720?)", fw, fh, tw, th)
			return
		}
		grab, grabErr = screenGrab()
	}}})
	if err != nil {
		t.Fatal(err)
	}
	if grabErr != nil {
		t.Fatal(grabErr)
	}
	got := image.NewRGBA(image.Rect(0, 0, tw, th))
	for y := 0; y < th; y++ {
		for x := 0; x < tw; x++ {
			got.Set(x, y, grab.At(gx+x, gy+y))
		}
	}
	db, worst := psnr(got, ref, got.Rect)
	t.Logf("%s (%s) on screen: %.2f dB against zscale + FFmpeg's lanczos, largest difference %d/255; scale %q",
		ycbcr.DefaultFilter, st.Conversion, db, worst, st.Scale)
	if db < 35 {
		t.Errorf("%.2f dB, want ≥ 35", db)
	}
}

// TestOneToOne: -zoom 1 shows the video's own pixels (zscale's within 1/255) centred in a larger
// target, and moved by a pan; the scale pass is skipped.
func TestOneToOne(t *testing.T) {
	const w, h, tw, th = 320, 180, 400, 300
	pic := zonePlate420(t, w, h)
	ref := zscaleThen(t, pic, w, h, "")
	for _, pan := range [][2]int{{0, 0}, {-30, 17}} {
		got, st := shownPanned(t, &stillSource{pic: pic, color: bt709, n: 2}, Config{Convert: ConvertConfig{Variant: stream.VariantDraw}, View: ViewConfig{Zoom: 1}}, tw, th, pan)
		x0, y0 := (tw-w)/2+pan[0], (th-h)/2+pan[1]
		db, worst := psnr(got, ref, image.Rect(x0, y0, x0+w, y0+h))
		t.Logf("pan %v: %.2f dB, largest difference %d/255; scale %q", pan, db, worst, st.Scale)
		if worst > 1 {
			t.Errorf("pan %v: %d/255 from zscale, want ≤ 1", pan, worst)
		}
	}
}

// shownPanned is shown with the picture panned by pan from the second frame on: the frames from
// the second are read back, the last one's kept.
func shownPanned(t *testing.T, src Source, cfg Config, w, h int, pan [2]int) (*image.RGBA, *Stats) {
	t.Helper()
	var got *image.RGBA
	var grabErr error
	cfg.Output.Headless, cfg.Playback.Untimed, cfg.GPU.Device, cfg.GPU.Validate, cfg.Output.Width, cfg.Output.Height = true, true, -1, true, w, h
	cfg.Hooks.OnFrame = func(p *Player, n int) {
		p.rend.PanX, p.rend.PanY = pan[0], pan[1] // the next frame is drawn moved
		if n < 2 {
			return
		}
		vk.QueueWaitIdle(p.dev.Queue)
		grabErr = p.dev.Submit(func(cb vk.CommandBuffer) { p.off.RecordReadback(cb) })
		got = p.off.RGBA()
	}
	st, err := Play(src, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if grabErr != nil {
		t.Fatal(grabErr)
	}
	return got, st
}

// TestScaleIntoMatchesDrawn: the player writing the scale pass into its target from compute (a
// storage target, the letterbox included, the pass after it loading instead of clearing) shows the
// picture it shows when the pass is drawn (-scale-draw): within 1/255 everywhere, bars included,
// unturned and turned 90° and 180° (-rotate), letterboxed both ways.
func TestScaleIntoMatchesDrawn(t *testing.T) {
	const w, h, tw, th = 640, 360, 400, 300
	pic := zonePlate420(t, w, h)
	for _, rot := range []int{0, 1, 2} {
		cfg := Config{View: ViewConfig{Rotate: &rot}}
		drawnCfg := cfg
		drawnCfg.View.ScaleDraw = true
		into, st := shown(t, &stillSource{pic: pic, color: bt709, n: 2}, cfg, tw, th)
		drawn, dst := shown(t, &stillSource{pic: pic, color: bt709, n: 2}, drawnCfg, tw, th)
		if !strings.Contains(st.Scale, "written into the target by compute") || !strings.Contains(dst.Scale, "drawn") {
			t.Fatalf("rotate %d: scale %q and %q: want one written by compute and one drawn", rot, st.Scale, dst.Scale)
		}
		db, worst := psnr(into, drawn, into.Rect)
		t.Logf("rotate %d: %.2f dB, largest difference %d/255; %q, %q", rot*90, db, worst, st.Scale, dst.Scale)
		if worst > 1 {
			t.Errorf("rotate %d: written by compute %d/255 from drawn, want ≤ 1", rot*90, worst)
		}
	}
}
