package player

import (
	"errors"
	"fmt"
	"image"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/gpu"
	"github.com/ycbcrkit/ycbcrkit/internal/vkx"
	"github.com/ycbcrkit/ycbcrkit/planes"
	"github.com/ycbcrkit/ycbcrkit/present"
	"github.com/ycbcrkit/ycbcrkit/present/osd"
	"github.com/ycbcrkit/ycbcrkit/present/window"
	"github.com/ycbcrkit/ycbcrkit/stream"
	"github.com/ycbcrkit/ycbcrkit/ycbcr"
)

var errEOF = io.EOF

// Config is how to play.
type Config struct {
	Headless bool
	Frames   int // stop after this many presented frames; 0 = play to the end
	// Loop is how many times the input plays: 0 and 1 once, N > 1 N times (a seek to the start at
	// each end), negative forever.
	Loop    int
	Untimed bool
	Path    formats.Choice
	Compare Compare
	Upload  planes.Upload
	// HWRoute is how hardware-decoded frames reach the conversion (stream.RouteAuto by default).
	HWRoute stream.Route
	// Conversion is how the conversion runs, drawn or compute; the zero value measures both on the
	// device and takes the faster (stream.VariantAuto).
	Conversion stream.Variant
	// Overrides of the stream's metadata (nil: keep the stream's).
	Matrix         *formats.Matrix
	Range          *formats.Range
	ChromaLocation *formats.ChromaLocation
	// Tone is how PQ and HLG streams reach the SDR target (-tonemap; the zero value is BT.2390).
	Tone ycbcr.ToneCurve
	// HDROutput asks for an HDR10 swapchain (present.HDR10Formats): PQ and HLG keep their display
	// light, PQ-encoded in BT.2020, instead of being tone-mapped (-hdr-output). Playback fails with
	// the reason where the device, instance or surface offers none, and without a window.
	HDROutput bool
	// Dither is how the shown picture is rounded to the target's depth (-dither; the zero value is
	// off). Screenshots of the picture are not dithered unless ScreenshotDither (-screenshot-dither).
	Dither           Dither
	ScreenshotDither bool
	// HDRPeak is -hdr-peak (the zero value: the metadata's); Deband debands 8-bit sources (-deband;
	// Iterations 0, the zero value: off).
	HDRPeak  HDRPeak
	Deband   ycbcr.DebandParams
	Device   int
	Validate bool
	// Exiting says the process exits when Play returns: without Validate, the source, the device
	// and the instance are then left to the operating system after the GPU is idle and the pipeline
	// cache written (gpu.Device.Leave). Not for a program that goes on using the source, or plays on.
	Exiting bool
	// Video opens the device with what Vulkan Video decoding needs (gpu.Options.Video) and, for a
	// DeviceSource, before decoding starts, handing the device to the source.
	Video      bool
	Screenshot string // PNG of the last presented frame at exit
	// Filter is the scale pass's filter (-scale); Zoom is -zoom (0: fit); Rotate is -rotate in
	// clockwise quarter turns, or nil for the stream's display matrix (auto); Width and Height, when
	// set, are the window's or offscreen target's size (-geometry).
	Filter ycbcr.Filter
	// ScaleDraw draws the scale pass's last step (-scale-draw) even where the target allows compute
	// to write it (a storage image): to compare the two.
	ScaleDraw     bool
	Zoom          float64
	Rotate        *int
	Width, Height int
	Log           io.Writer
	// OnFrame, if set, is called on the main thread after each presented frame (tests resize from it).
	OnFrame func(p *Player, n int)
	// Keys, if set, are read with the window's keys, as if pressed on it, and also without a window
	// (headless): scripted seeks, steps and screenshots (ycbcrplay's tests; keys that need a window,
	// f, do nothing there).
	Keys <-chan window.Key
	// OnOpening, if set, is called on the main thread about every 20 ms while PlayOpening's window
	// waits for the input to open, with the time since the window showed (tests press keys from it).
	OnOpening func(p *Player, waited time.Duration)
	// Clock, when set and not Untimed, is the master clock (the audio being played): each frame is
	// shown when the clock reaches its PTS and dropped when the clock is already a frame past it;
	// pause, step, seek and loop drive it too. Nil: the wall clock. AudioInfo describes its sound
	// for -stats.
	Clock     Clock
	AudioInfo AudioInfo
	// Start is where playback begins (seconds; 0: the start).
	Start float64
	// Speed is the playback speed (0 or 1: as timed). With sound, a speed other than 1 pauses the
	// sound and times pictures by the wall clock.
	Speed float64
	// Fullscreen starts the window on the full screen.
	Fullscreen bool
	// ShotDir is where the s key writes screenshots (empty: the current folder).
	ShotDir string
	// Stop, when closed, ends playback as the q key does (the programs close it on SIGINT and
	// SIGTERM): the figures are made and the screenshot written.
	Stop <-chan struct{}
	// DecodeAhead is how many bytes of decoded frames may wait for the GPU side before the first
	// picture is shown: the decoder keeps decoding while the device, the output and the conversion
	// are made, instead of stopping a few frames in. 0 means DefaultDecodeAhead; negative, only the
	// few frames of steady playback. Hardware decoding (Video) never runs ahead (its frames come
	// from a pool of fixed size), nor does decoding for a device that renders on the CPU.
	DecodeAhead int
	// CacheDir is where the device's pipeline cache is kept between runs (gpu.Options.CacheDir; the
	// programs pass gpu.DefaultCacheDir()); "" keeps nothing.
	CacheDir string
}

// aheadOnCPU lets the decoder run ahead for a CPU device too (tests, on lavapipe).
var aheadOnCPU = false

// DefaultDecodeAhead is Config.DecodeAhead's default: 256 MiB, 86 frames of 1080p 4:2:0 or 21 of
// 2160p, about what a GPU machine decodes while the player's device and pipelines are made.
const DefaultDecodeAhead = 256 << 20

// queueAhead is how many decoded frames may wait for the main thread in steady playback (as many
// as a queue of two and the decoder blocked sending a third held before); maxAhead caps the
// start-up queue, in frames.
const (
	queueAhead = 3
	maxAhead   = 256
)

// Startup is where the time before the first picture went, in milliseconds (-stats startup_ms).
// Decoding runs on its own goroutine meanwhile: first_decoded is when the first frame was ready,
// wait_decoded how long the main thread then waited for it.
type Startup struct {
	// BeforePlay is the program's time before Play (set by the program), and headless OpenInput of it:
	// opening the input and its decoder. In a window (PlayOpening) the input opens meanwhile, while
	// the device and window are made, and OpenInput is within FirstFrame instead.
	BeforePlay    float64 `json:"before_play,omitempty"`
	OpenInput     float64 `json:"open_input,omitempty"`
	Instance      float64 `json:"instance"`
	Device        float64 `json:"device"`
	PipelineCache float64 `json:"pipeline_cache"`
	Renderer      float64 `json:"renderer"` // the stream: conversion paths, slots, timer
	FirstDecoded  float64 `json:"first_decoded"`
	WaitDecoded   float64 `json:"wait_decoded"`
	Output        float64 `json:"output"`     // offscreen target, or window and swapchain
	FirstDraw     float64 `json:"first_draw"` // configuration, probe, pipelines, upload, recording, submission
	Probe         float64 `json:"probe"`      // of which the conversion-variant probe
	Pipelines     float64 `json:"pipelines"`  // pipeline creation before the first picture (in the probe or not)
	FirstFrame    float64 `json:"first_frame"`
}

// Shutdown is where the time after the last frame went, in milliseconds.
type Shutdown struct {
	StopDecoding float64 `json:"stop_decoding"` // ending the decode goroutine (not in shutdown_ms)
	Renderer     float64 `json:"renderer"`      // the last frame's release, the stream (waits for its fences)
	Output       float64 `json:"output"`        // offscreen target or swapchain and window, semaphores
	Source       float64 `json:"source"`        // closing the source (the decoder and FFmpeg's Vulkan objects)
	gpu.CloseTimes
}

func msOf(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// Stats is what -stats prints.
type Stats struct {
	FramesDecoded          int     `json:"frames_decoded"`
	FramesPresented        int     `json:"frames_presented"`
	FramesDropped          int     `json:"frames_dropped"`
	FramesDamaged          int     `json:"frames_damaged"`
	Discontinuities        int     `json:"discontinuities"`
	WallS                  float64 `json:"wall_s"`
	FPS                    float64 `json:"fps"`
	Path                   string  `json:"path"`
	PathReason             string  `json:"path_reason"`
	Conversion             string  `json:"conversion"`
	ConversionReason       string  `json:"conversion_reason"`
	Upload                 string  `json:"upload"`
	UploadReason           string  `json:"upload_reason"`
	CPUBytesCopiedPerFrame int     `json:"cpu_bytes_copied_per_frame"`
	GPUMsPerFrame          float64 `json:"gpu_ms_per_frame"`
	DecodeMsPerFrame       float64 `json:"decode_ms_per_frame"`
	FirstFrameMs           float64 `json:"first_frame_ms"`
	PixelFormat            string  `json:"pixel_format"`
	VkFormat               string  `json:"vk_format"`
	Matrix                 string  `json:"matrix"`
	Range                  string  `json:"range"`
	ChromaLocation         string  `json:"chroma_location"`
	Transfer               string  `json:"transfer"`
	Primaries              string  `json:"primaries"`
	HDRMetadata            string  `json:"hdr_metadata"`
	// HDRDisplayMetadata: with a window, what became of the metadata for the display
	// (vkSetHdrMetadataEXT on an HDR10 swapchain: sent, or why not).
	HDRDisplayMetadata string   `json:"hdr_display_metadata,omitempty"`
	ToneMap            string   `json:"tonemap"`
	Dither             string   `json:"dither"`             // how the shown picture is rounded to the target's depth
	HDRPeak            string   `json:"hdr_peak,omitempty"` // the peak PQ tone mapping uses, and whence
	Deband             string   `json:"deband"`
	ColourStage        string   `json:"colour_stage"` // what the shader path applied beyond range and matrix
	Notices            []string `json:"notices,omitempty"`
	Device             string   `json:"device"`
	// The scale pass (filter and sizes, or none), the zoom and the display orientation and whence.
	Scale    string `json:"scale"`
	Zoom     string `json:"zoom"`
	Rotation string `json:"rotation"`
	// With a Clock: the sound, and how far the picture was from it (video − audio) when presented.
	Audio      *AudioStats  `json:"audio,omitempty"`
	AVOffsetMs *OffsetStats `json:"av_offset_ms,omitempty"`
	// The decoder and hardware decoding: which, and why (software when it is not possible).
	Decoder     string `json:"decoder,omitempty"`
	HWDec       string `json:"hwdec,omitempty"`
	HWDecReason string `json:"hwdec_reason,omitempty"`
	HWDecRoute  string `json:"hwdec_route,omitempty"`
	// Startup is where the time to the first picture went; PipelineCache where the device's
	// pipeline cache came from and how many pipelines were made before the first picture.
	Startup Startup `json:"startup_ms"`
	// ShutdownMs is closing after the last frame: the source, the GPU objects, device and instance,
	// and writing the pipeline cache back (not in wall_s, which ends at the last frame).
	ShutdownMs float64 `json:"shutdown_ms"`
	// Shutdown is where the time after the last frame went: StopDecoding (ending the decode
	// goroutine, before and not in ShutdownMs) and ShutdownMs's parts.
	Shutdown Shutdown `json:"shutdown_phases_ms"`
	// DecodedAhead is how many decoded frames were waiting when the first picture was shown
	// (Config.DecodeAhead).
	DecodedAhead  int                `json:"decoded_ahead_frames"`
	PipelineCache PipelineCacheStats `json:"pipeline_cache"`
	// End is how playback ended (not printed): the input's end or Config.Frames, or what the user
	// asked for (quit, or the next or previous input of a list).
	End End `json:"-"`
	// Opened is false when PlayOpening ended before its input opened (q, Esc, closing the window,
	// Enter or <, or Config.Stop while the input was opening): there are no figures to print.
	Opened bool `json:"-"`
}

// PipelineCacheStats is the device's pipeline cache at start and the pipelines made before the
// first picture.
type PipelineCacheStats struct {
	gpu.PipelineCacheState
	PipelinesBeforeFirstFrame int `json:"pipelines_before_first_frame"`
}

// End is how playback ended.
type End int

// The ends of playback.
const (
	EndOfInput End = iota // the input ended, or Config.Frames were presented
	EndQuit               // q, Esc, closing the window, or Config.Stop
	EndNext               // Enter or >: the next input
	EndPrev               // <: the previous input
)

// Player is one playback session.
type Player struct {
	cfg   Config
	src   Source
	watch stallWatch // the wait for frames: progress seen, for the stall error
	// srcBusy: the decode goroutine was still inside the source when playback ended (a read that could
	// not be interrupted); the source is then left open, for the process's exit to end.
	srcBusy bool
	dev     *gpu.Device
	rend    *Renderer
	win     *window.Window
	swap    *present.Swapchain
	off     *gpu.Offscreen
	done    []vk.Semaphore // per swapchain image: rendering finished
	stats   Stats
	last    *Frame
	start   time.Time
	offs    offsets
	// The on-screen display (a window only), and what it shows.
	osd    display
	paused bool
	// sized: the output has the first frame's size (openOutput); PlayOpening's window exists before.
	sized bool
	speed float64 // playback speed (1: as timed)
	// presented is set at the first presented frame: the decoder's run-ahead ends there. cpuDevice:
	// the device renders on the CPU (lavapipe), whose cores decoding ahead would take from it.
	presented atomic.Bool
	cpuDevice atomic.Bool
	// taken wakes a decoder waiting for room in the queue (cap 1).
	taken chan struct{}
	// The process's pipeline creations when Play began (vkx counts them process-wide).
	pipes0    int
	pipeTime0 time.Duration
}

// Window is the player's window (nil when headless).
func (p *Player) Window() *window.Window { return p.win }

// Live counts the Vulkan objects the renderer holds for the video: the stream's (stream.Stream.Live:
// images, bindings, releases waiting for a fence) and the diff mode's pictures. It depends on the
// path, compare mode and zoom, and is bounded for each; a soak checks that it does not grow. Call it
// on the main thread (OnFrame); 0 before the first frame.
func (p *Player) Live() int {
	if p.rend == nil {
		return 0
	}
	return p.rend.live()
}

func (p *Player) logf(format string, args ...any) {
	if p.cfg.Log != nil {
		fmt.Fprintf(p.cfg.Log, format+"\n", args...)
	}
}

// Play plays src until it ends, Frames are presented, or the user quits.
func Play(src Source, cfg Config) (*Stats, error) {
	p := newPlayer(cfg)
	p.src, p.stats.Opened = src, true
	return p.end(p.play())
}

func newPlayer(cfg Config) *Player {
	p := &Player{cfg: cfg, start: time.Now(), speed: 1}
	p.pipes0, p.pipeTime0 = vkx.PipelineTime()
	if cfg.Speed > 0 {
		p.speed = cfg.Speed
	}
	return p
}

// end closes what play opened and returns the figures, or err (or the validation layer's messages).
func (p *Player) end(err error) (*Stats, error) {
	cfg := p.cfg
	// Close before draining the validation messages: destroying the device is when the layer
	// reports objects that were never destroyed.
	validating := p.dev != nil && cfg.Validate
	t := time.Now()
	p.close()
	p.stats.ShutdownMs = msOf(time.Since(t))
	if validating {
		if msgs := vkx.Messages(); len(msgs) > 0 {
			for _, m := range msgs {
				p.logf("%s", m.Text)
			}
			if err == nil {
				err = fmt.Errorf("%d validation message(s)", len(msgs))
			}
		}
	}
	if err != nil {
		return nil, err
	}
	return &p.stats, nil
}

func (p *Player) play() error {
	// Decoding starts first, so that filling the decoder's frame threads overlaps with creating the
	// Vulkan instance, device and pipelines: both are start-up costs of the first picture.
	var dec decoding
	if ds, ok := p.src.(DeviceSource); ok && p.cfg.Video {
		// Hardware decoding needs the device before the first packet: device first (PlayOpening's
		// window opened it already).
		if p.dev == nil {
			if err := p.open(); err != nil {
				return err
			}
		}
		if err := ds.UseDevice(p.dev); err != nil {
			return err
		}
		dec = p.startDecoding()
	} else {
		dec = p.startDecoding()
		if p.dev == nil {
			if err := p.open(); err != nil {
				p.srcBusy = !dec.stop(p.src)
				return err
			}
		}
	}
	defer func() {
		t := time.Now()
		p.srcBusy = !dec.stop(p.src)
		p.stats.Shutdown.StopDecoding = msOf(time.Since(t))
	}()
	if err := p.loop(dec); err != nil {
		return err
	}
	if p.cfg.Screenshot != "" {
		return p.screenshot(p.cfg.Screenshot)
	}
	return nil
}

func (p *Player) open() error {
	opts := gpu.Options{Index: p.cfg.Device, Validation: p.cfg.Validate, Video: p.cfg.Video, CacheDir: p.cfg.CacheDir}
	// PlayOpening opens the device before its source exists: a FramesSource's needs are then unknown.
	if fs, ok := p.src.(FramesSource); ok && p.cfg.Video {
		opts.Frames = fs.VulkanFrames()
	}
	if p.cfg.HDROutput && p.cfg.Headless {
		return errors.New("-hdr-output needs a window's HDR10 swapchain; -headless has none")
	}
	if !p.cfg.Headless {
		exts, err := window.Init()
		if err != nil {
			return err
		}
		opts.InstanceExtensions, opts.Swapchain = exts, true
	}
	dev, err := gpu.Open(opts)
	if err != nil {
		return err
	}
	p.dev = dev
	p.stats.Device = dev.Info.Name
	// On a CPU device the variant probe and the first draws run on the cores that decode: decoding
	// ahead made lavapipe's probe 10–25 % slower and its verdict wrong under load
	// (docs/performance.md, "Start-up"), and gains nothing where the conversion is the bound.
	p.cpuDevice.Store(dev.Info.Type == "CPU" && !aheadOnCPU)
	su := &p.stats.Startup
	su.Instance, su.Device, su.PipelineCache = msOf(dev.OpenTimes.Instance), msOf(dev.OpenTimes.Device), msOf(dev.OpenTimes.PipelineCache)
	p.stats.PipelineCache.PipelineCacheState = dev.PipelineCacheState
	t := time.Now()
	if p.rend, err = NewRenderer(dev, p.cfg.Path, p.cfg.Compare, p.cfg.Upload); err == nil {
		p.rend.HWRoute = p.cfg.HWRoute
	}
	if err != nil {
		return err
	}
	su.Renderer = msOf(time.Since(t))
	p.rend.Notice = func(n string) { p.logf("%s", n) }
	p.rend.Variant = p.cfg.Conversion
	p.rend.Filter, p.rend.Zoom, p.rend.ScaleDraw = p.cfg.Filter, p.cfg.Zoom, p.cfg.ScaleDraw
	p.rend.Peak, p.rend.Deband = p.cfg.HDRPeak, p.cfg.Deband
	return nil
}

// openOutput creates the window and swapchain, or the offscreen target, for the first frame's size;
// PlayOpening's window, open already, is resized to it.
func (p *Player) openOutput(f *Frame) error {
	p.sized = true
	w, h := p.orientation(f).DisplaySize(f.Picture.Width, f.Picture.Height)
	if p.cfg.Width > 0 && p.cfg.Height > 0 {
		w, h = p.cfg.Width, p.cfg.Height
	}
	if p.cfg.Headless {
		// With STORAGE usage where the device allows it, for the scale pass to write the target from
		// compute (no fragment shader: docs/scaling.md).
		newTarget := p.dev.NewOffscreen
		if p.dev.StorageFormat(gpu.TargetFormat) {
			newTarget = p.dev.NewStorageOffscreen
		}
		var err error
		p.off, err = newTarget(w, h)
		return err
	}
	// A window of the display size (aspect applied to the width, the picture turned), no larger than
	// 1280 wide or 1024 high; -geometry's size as asked.
	ww, wh := p.orientation(f).DisplaySize(int(float64(f.Picture.Height)*f.Aspect+0.5), f.Picture.Height)
	if ww > 1280 {
		wh = wh * 1280 / ww
		ww = 1280
	}
	if wh > 1024 {
		ww = ww * 1024 / wh
		wh = 1024
	}
	if p.cfg.Width > 0 && p.cfg.Height > 0 {
		ww, wh = p.cfg.Width, p.cfg.Height
	}
	ww, wh = max(ww, 64), max(wh, 64)
	if p.win != nil {
		return p.resizeWindow(ww, wh)
	}
	return p.openWindow(p.src.Info().Name, ww, wh)
}

// openWindow opens the window, its on-screen display and its swapchain.
func (p *Player) openWindow(name string, ww, wh int) error {
	win, err := window.New(p.dev.Instance, name+" — ycbcrplay", ww, wh)
	if err != nil {
		return err
	}
	p.win = win
	if p.osd.pass, err = osd.NewPass(p.dev, osdFontPx, framesInFlight); err != nil {
		return err
	}
	p.osd.canvas.Font = p.osd.pass.Font
	p.rend.Overlay = p.drawOSD
	if p.cfg.Fullscreen {
		win.ToggleFullscreen()
	}
	fw, fh := win.Size()
	if p.swap, err = present.NewSwapchainWith(p.dev, win.Surface, fw, fh, present.SwapchainOptions{Immediate: p.cfg.Untimed, HDR10: p.cfg.HDROutput}); err != nil {
		if p.cfg.HDROutput {
			return fmt.Errorf("-hdr-output: %w", err)
		}
		return err
	}
	for range p.swap.Images {
		s, err := p.dev.NewSemaphore()
		if err != nil {
			return err
		}
		p.done = append(p.done, s)
	}
	return nil
}

// params applies the overrides to a frame's metadata.
func (p *Player) params(c formats.Color) ycbcr.Params {
	if p.cfg.Matrix != nil {
		c.Matrix = *p.cfg.Matrix
	}
	if p.cfg.Range != nil {
		c.Range = *p.cfg.Range
	}
	if p.cfg.ChromaLocation != nil {
		c.ChromaLocation = *p.cfg.ChromaLocation
	}
	if n := ycbcr.TransferNotice(c.Transfer); n != "" && !slices.Contains(p.stats.Notices, n) {
		p.stats.Notices = append(p.stats.Notices, n) // once per transfer, not per frame
		p.logf("notice: %s", n)
	}
	prm := ycbcr.FromColor(c)
	prm.Tone = p.cfg.Tone
	if p.cfg.HDROutput {
		prm.Output = ycbcr.OutputHDR10
	}
	return p.cfg.HDRPeak.apply(prm)
}

// decoded is one item of the decode queue.
type decoded struct {
	f   *Frame
	err error
	dur time.Duration
	gen int
	// ready is when the decoder had the frame (start-up figures).
	ready time.Time
}

// startAhead is how many frames like f may wait in the queue before the first picture.
func (p *Player) startAhead(f *Frame) int {
	budget := p.cfg.DecodeAhead
	if budget == 0 {
		budget = DefaultDecodeAhead
	}
	if budget < 0 || p.cfg.Video || f.Picture == nil {
		return queueAhead
	}
	size := 0
	for _, pl := range f.Picture.Planes {
		size += len(pl)
	}
	return min(max(budget/max(size, 1), queueAhead), maxAhead)
}

// room says whether the decoder may decode a frame with queued frames waiting, and the limit from
// now on. Draining (after the first picture, or on a CPU device) the limit follows the queue down,
// so that a main thread taking the start-up backlog faster than frames are decoded never leaves
// the decoder idle, and comes down by one each time the queue is found full, so that a backlog the
// decoder keeps up with drains at the rate frames are taken; never below queueAhead.
func room(limit, queued int, draining bool) (int, bool) {
	if draining {
		limit = max(queueAhead, min(limit, queued+2))
		if queued >= limit {
			limit = max(queueAhead, limit-1)
		}
	}
	return limit, queued < limit
}

// decodeLoop runs on its own goroutine: frames into a bounded queue, seeks from the main thread.
func (p *Player) decodeLoop(out chan<- decoded, seek <-chan float64, quit <-chan struct{}) {
	defer close(out)
	gen := 0
	// seekTo starts a new generation at s; false when the source failed (reported, loop ends).
	seekTo := func(s float64) bool {
		gen++
		if err := p.src.Seek(s); err != nil {
			out <- decoded{err: err, gen: gen}
			return false
		}
		return true
	}
	// limit is how many frames may wait in out before the next is decoded: up to the start-up budget
	// before the first picture, then down to queueAhead (room).
	limit, sized := queueAhead, false
	draining := func() bool { return p.presented.Load() || p.cpuDevice.Load() }
	for {
		select {
		case s := <-seek:
			if !seekTo(s) {
				return
			}
		case <-quit:
			return
		default:
		}
		for {
			var ok bool
			if limit, ok = room(limit, len(out), draining()); ok {
				break
			}
			select {
			case <-p.taken:
			case <-quit:
				return
			}
		}
		t := time.Now()
		f, err := p.src.Next()
		if f != nil && !sized {
			sized = true
			if !draining() {
				limit = p.startAhead(f)
			}
		}
		d := decoded{f: f, err: err, dur: time.Since(t), gen: gen, ready: time.Now()}
		select {
		case out <- d:
		case <-quit:
			d.f.release()
			return
		}
		if err != nil {
			// EOF: wait for a seek (backwards play continues) or quit.
			select {
			case s := <-seek:
				if !seekTo(s) {
					return
				}
			case <-quit:
				return
			}
		}
	}
}

// Timestamp discontinuities (the wall clock's rule; with sound the audio clock decides). A frame whose
// PTS goes back by more than half a frame, or forward by more than the limit, starts a new timeline:
// it is shown a frame after the last one instead of waiting (hours, for an MPEG-TS timestamp wrap) or
// making every later frame late. The forward limit is ffplay's: 10 s for any format (AV_NOSYNC_THRESHOLD;
// a variable-frame-rate pause shorter than that is shown at its time), and for formats that declare
// discontinuities (AVFMT_TS_DISCONT, MPEG-TS) ten frames' duration, at least 1 s.
const (
	discontinuityLimit      = 10.0 // seconds
	discontinuityLimitTSMin = 1.0  // seconds, formats with AVFMT_TS_DISCONT
)

func discontinuity(jump, frameDur float64, declared bool) bool {
	limit := discontinuityLimit
	if declared {
		limit = max(10*frameDur, discontinuityLimitTSMin)
	}
	return jump < -frameDur/2 || jump > limit
}

// stallLimit is how long the source may go without progress (no frame, and for a ProgressSource no
// packet read or frame decoded) before playback ends with an error.
var stallLimit = 10 * time.Second

// stallWatch tells a source at work (a long seek) from a stalled one.
type stallWatch struct {
	since    time.Time // when progress was last seen
	progress int64
}

// reset records progress now (a frame arrived, or the wait begins).
func (w *stallWatch) reset() {
	w.since = time.Now()
	w.progress = -1
}

func (w *stallWatch) check(src Source) error {
	now := time.Now()
	if ps, ok := src.(ProgressSource); ok {
		if n := ps.Progress(); n != w.progress {
			if w.progress >= 0 {
				w.since = now
			}
			w.progress = n
		}
	}
	if now.Sub(w.since) > stallLimit {
		return fmt.Errorf("the input made no progress for %s", stallLimit)
	}
	return nil
}

// decoding is the decode goroutine's channels.
type decoding struct {
	queue <-chan decoded
	seek  chan float64
	quit  chan struct{}
}

func (p *Player) startDecoding() decoding {
	// Bounded: in steady playback decoding runs queueAhead frames ahead (decodeLoop waits for room);
	// before the first picture, up to Config.DecodeAhead bytes of frames.
	queue := make(chan decoded, maxAhead)
	p.taken = make(chan struct{}, 1)
	seek := make(chan float64, 1)
	quit := make(chan struct{})
	go p.decodeLoop(queue, seek, quit)
	return decoding{queue: queue, seek: seek, quit: quit}
}

// stop ends the decode goroutine and releases the frames it queued. A source blocked in a read (a
// stalled pipe or network input) is interrupted when it can be; one that cannot is left behind after
// a second rather than holding the player; stop then reports false, and the source must not be closed
// (its goroutine is still inside it).
func (d decoding) stop(src Source) bool {
	close(d.quit)
	if i, ok := src.(interface{ Interrupt() }); ok {
		i.Interrupt()
	}
	deadline := time.After(time.Second)
	for {
		select {
		case f, ok := <-d.queue: // drain so the decoder can exit, returning its buffers
			if !ok {
				return true
			}
			f.f.release()
		case <-deadline:
			return false
		}
	}
}

func (p *Player) loop(dec decoding) error {
	queue, seek := dec.queue, dec.seek

	var decodeTime time.Duration
	gen, step := 0, false
	clock := p.cfg.Clock
	if p.cfg.Untimed {
		clock = nil
	}
	fresh, stepped := true, false // fresh: the first frame since the start or a seek (never dropped)
	clockErr := func(err error) {
		if err != nil {
			p.logf("notice: audio: %v", err)
		}
	}
	plays := 1 // plays begun, for Config.Loop
	p.watch.reset()
	var pending *decoded  // a frame waiting for its time (the loop polls the window meanwhile)
	var lastDue time.Time // when the last frame was due (the wall clock's timeline)
	var clockStart time.Time
	var ptsStart, lastPTS float64
	info := p.src.Info()
	frameDur := 1.0 / 30
	if info.FrameRate > 0 {
		frameDur = 1 / info.FrameRate
	}
	// Seeks add up as mpv's do: a seek made before the last one has shown its picture starts from
	// that one's target, not from the picture on screen. A target replaces one the decoder has not
	// taken yet (the channel holds one), so gen counts only the seeks the decoder takes.
	seeking, seekTarget := false, 0.0
	unseekable, seekNoticed := false, false
	if ss, ok := p.src.(SeekingSource); ok {
		unseekable = !ss.CanSeek()
	}
	seekTo := func(target float64) {
		if unseekable { // a pipe: said once, and playback goes on
			if !seekNoticed {
				seekNoticed = true
				p.logf("notice: %s cannot seek (a pipe): playing on", info.Name)
			}
			p.osd.message("cannot seek: the input is a pipe")
			return
		}
		target = max(0, target)
		seeking, seekTarget = true, target
		select {
		case <-seek: // not taken yet: replaced, same generation
		default:
			gen++
		}
		seek <- target
		clockStart = time.Time{}
		if clock != nil {
			// Held until the first frame at the target is shown: decoding up to it takes a while.
			clockErr(clock.Pause(true))
			clockErr(clock.Seek(target))
			fresh = true
		}
		if p.paused {
			step, stepped = true, true // paused: the picture at the target is shown, then it stays paused
		}
		p.osd.showBar()
	}
	// setSpeed changes the speed; the wall clock's timeline restarts at the next frame. The sound
	// plays at 1× only: otherwise it pauses and the wall clock times the pictures.
	setSpeed := func(sp float64, announce bool) {
		sp = min(max(sp, 0.1), 16)
		if math.Abs(sp-1) < 1e-9 {
			sp = 1
		}
		p.speed = sp
		clockStart = time.Time{}
		if p.cfg.Clock != nil && !p.cfg.Untimed {
			if sp == 1 && clock == nil {
				clock = p.cfg.Clock
				clockErr(clock.Seek(lastPTS))
				fresh = true
			} else if sp != 1 && clock != nil {
				clockErr(clock.Pause(true))
				clock = nil
			}
		}
		if announce {
			p.osd.message(fmt.Sprintf("speed %.2f×", sp))
			p.logf("speed: %.2f×", sp)
		}
	}
	if p.speed != 1 {
		setSpeed(p.speed, false)
	}
	if p.cfg.Start > 0 {
		seekTo(p.cfg.Start)
	}
	for {
		select {
		case <-p.cfg.Stop:
			p.stats.End = EndQuit
			return p.finish(decodeTime)
		default:
		}
		if p.win != nil || p.cfg.Keys != nil {
			var keys []window.Key
			if p.win != nil {
				keys = p.win.Poll()
				p.mouse()
			}
			for more := p.cfg.Keys != nil; more; {
				select {
				case k := <-p.cfg.Keys:
					keys = append(keys, k)
				default:
					more = false
				}
			}
			for _, k := range keys {
				switch k {
				case window.KeyQuit:
					p.stats.End = EndQuit
					return p.finish(decodeTime)
				case window.KeyNext, window.KeyPrev: // Enter or >, <: the next or previous input
					p.stats.End = map[window.Key]End{window.KeyNext: EndNext, window.KeyPrev: EndPrev}[k]
					return p.finish(decodeTime)
				case window.KeySpace:
					p.paused = !p.paused
					clockStart = time.Time{}
					if clock != nil {
						if !p.paused && stepped {
							// Frames were stepped while the sound stood still: it resumes under the picture,
							// from the next frame's presentation on.
							clockErr(clock.Seek(lastPTS))
							fresh = true
						} else {
							clockErr(clock.Pause(p.paused))
						}
						stepped = false
					}
				case window.KeyPeriod:
					if clock != nil && !p.paused {
						clockErr(clock.Pause(true))
					}
					p.paused, step, stepped = true, true, true
				case window.KeyLeft, window.KeyRight, window.KeyUp, window.KeyDown:
					if p.rend.Zoom > 0 { // zoomed: the arrows move the picture
						d := map[window.Key][2]int{window.KeyLeft: {64, 0}, window.KeyRight: {-64, 0}, window.KeyUp: {0, 64}, window.KeyDown: {0, -64}}[k]
						p.rend.PanX += d[0]
						p.rend.PanY += d[1]
						continue
					}
					delta := map[window.Key]float64{window.KeyLeft: -5, window.KeyRight: 5, window.KeyUp: 60, window.KeyDown: -60}[k]
					from := lastPTS
					if seeking {
						from = seekTarget
					}
					seekTo(from + delta)
				case window.KeyComma: // one frame back: the frame before the one on screen (exact seek), paused
					if clock != nil && !p.paused {
						clockErr(clock.Pause(true))
					}
					p.paused = true
					from := lastPTS
					if seeking {
						from = seekTarget
					}
					// Decoder seeks land on the first frame at or after the target: 1.5 frames back is
					// the previous frame of a constant frame rate.
					seekTo(from - 1.5*frameDur)
				case window.KeyS:
					if path, err := p.shoot(); err != nil {
						p.logf("screenshot: %v", err)
						p.osd.message("screenshot failed: " + err.Error())
					} else {
						p.logf("screenshot: %s (%.3f s)", path, p.last.PTS)
						p.osd.message("screenshot: " + path)
					}
				case window.KeySlower:
					setSpeed(p.speed/1.1, true)
				case window.KeyFaster:
					setSpeed(p.speed*1.1, true)
				case window.KeyBackspace:
					setSpeed(1, true)
				case window.KeyP: // auto → sampler → shader → auto, skipping the sampler where it cannot
					next := (p.rend.Choice + 1) % 3
					if next == formats.ChooseSampler {
						if err := p.rend.SamplerPossible(); err != nil {
							p.logf("path: sampler not possible: %v", err)
							next = formats.ChooseShader
						}
					}
					p.rend.SetChoice(next)
					p.logf("path: %s", next)
				case window.KeyC: // off → split → diff → off; both compare modes need the sampler path
					next := (p.rend.Compare + 1) % 3
					if next != CompareOff {
						if err := p.rend.SamplerPossible(); err != nil {
							p.logf("compare: needs the sampler path, which cannot express this stream: %v", err)
							next = CompareOff
						}
					}
					p.rend.SetCompare(next)
					p.logf("compare: %s", next)
				case window.KeyZ, window.Key1: // z: fit → 1:1 → 2 → fit; 1: 1:1 ↔ fit
					switch {
					case k == window.Key1 && p.rend.Zoom != 1:
						p.rend.Zoom = 1
					case k == window.Key1:
						p.rend.Zoom = 0
					case p.rend.Zoom == 0:
						p.rend.Zoom = 1
					case p.rend.Zoom == 1:
						p.rend.Zoom = 2
					default:
						p.rend.Zoom = 0
					}
					p.rend.PanX, p.rend.PanY = 0, 0
					p.logf("zoom: %s", zoomName(p.rend.Zoom))
				case window.KeyI:
					p.osd.info = !p.osd.info
					p.logf("%s", p.infoLine())
				case window.KeyHelp:
					p.osd.help = !p.osd.help
				case window.KeyF:
					if p.win != nil {
						p.win.ToggleFullscreen()
					}
				case window.Key9, window.Key0, window.KeyM:
					if vc, ok := p.cfg.Clock.(volumeControl); ok {
						v, muted := vc.Volume()
						switch k {
						case window.Key9:
							v = max(0, v-0.02)
						case window.Key0:
							v = min(1, v+0.02)
						default:
							muted = !muted
						}
						clockErr(vc.SetVolume(v, muted))
						p.logf("volume: %.0f%%%s", v*100, map[bool]string{true: " (muted)"}[muted])
					}
				}
			}
			if p.paused && !step {
				p.measureDiff()
				if p.last != nil {
					if err := p.present(p.last); err != nil {
						return err
					}
				}
				time.Sleep(10 * time.Millisecond)
				p.watch.reset() // a pause is not the source's stall
				continue
			}
		}
		// Wait for the next frame in short slices: between them the window is polled (keys, closing),
		// so that a long seek or a slow input never freezes it; a source that stops making progress
		// for stallLimit ends playback with an error.
		var d decoded
		var ok bool
		slice := 100 * time.Millisecond
		if p.win != nil {
			slice = 20 * time.Millisecond
		}
		waited := pending != nil // a frame back from waiting for its time: counted already
		if waited {
			d, ok, pending = *pending, true, nil
		} else {
			var waitFrom time.Time
			if p.stats.FramesDecoded == 0 {
				waitFrom = time.Now()
			}
			select {
			case d, ok = <-queue:
				p.watch.reset()
				select { // room for the decoder, if it waits
				case p.taken <- struct{}{}:
				default:
				}
				if !waitFrom.IsZero() && d.f != nil && p.stats.Startup.FirstDecoded == 0 {
					now := time.Now()
					p.stats.Startup.WaitDecoded += msOf(now.Sub(waitFrom))
					p.stats.Startup.FirstDecoded = msOf(d.ready.Sub(p.start))
				}
			case <-time.After(slice):
				if err := p.watch.check(p.src); err != nil {
					return err
				}
				continue
			}
		}
		if !ok {
			return p.finish(decodeTime)
		}
		if d.gen != gen { // a frame from before a seek
			d.f.release()
			continue
		}
		if d.err != nil {
			if errors.Is(d.err, io.EOF) && (p.cfg.Loop < 0 || plays < p.cfg.Loop) && !unseekable {
				// Loop: back to the start, a new generation (the decoder waits for this seek at EOF).
				plays++
				seek <- 0
				gen++
				clockStart = time.Time{}
				if clock != nil {
					clockErr(clock.Pause(true))
					clockErr(clock.Seek(0))
					fresh = true
				}
				continue
			}
			if errors.Is(d.err, io.EOF) { // the end: stop, as mpv and ffplay -autoexit do
				if clock != nil && !p.paused && p.stats.FramesPresented > 0 {
					// The last frame stays its duration, and the sound under it is heard.
					waitClock(clock, lastPTS+frameDur, time.Second)
				}
				return p.finish(decodeTime)
			}
			return d.err
		}
		if !waited {
			p.stats.FramesDecoded++
			decodeTime += d.dur
			if d.f.Damaged {
				p.stats.FramesDamaged++
			}
		}
		step = false
		if d.f.Duration > 0 { // deinterlaced fields: twice the stream's frame rate
			frameDur = d.f.Duration
		}
		if clock != nil && !p.paused && !fresh {
			// The audio clock is the master: a frame whose time the sound has passed by more than a frame
			// is dropped; otherwise it waits for the sound to reach it. (A fresh frame, the first since
			// the start or a seek, is shown at once: the clock is held until then.)
			if pos, ok := clock.Position(); ok && pos-d.f.PTS > frameDur {
				p.stats.FramesDropped++
				lastPTS = d.f.PTS
				d.f.release()
				continue
			}
			waitClock(clock, d.f.PTS, 3*time.Second)
		} else if clock == nil && !p.cfg.Untimed && !p.paused {
			now := time.Now()
			if clockStart.IsZero() {
				clockStart, ptsStart = now, d.f.PTS
			} else if !waited && discontinuity(d.f.PTS-lastPTS, frameDur, info.Discontinuous) {
				// A new timeline: this frame follows the last one by a frame's duration (at most a second:
				// a stream whose time base is absurd has an absurd frame rate too).
				p.stats.Discontinuities++
				clockStart, ptsStart = lastDue.Add(time.Duration(min(frameDur, 1)/p.speed*float64(time.Second))), d.f.PTS
			}
			due := clockStart.Add(time.Duration((d.f.PTS - ptsStart) / p.speed * float64(time.Second)))
			if late := now.Sub(due).Seconds(); late > frameDur/p.speed && p.stats.FramesPresented > 0 && !fresh {
				p.stats.FramesDropped++
				lastPTS, lastDue = d.f.PTS, due
				d.f.release()
				continue
			}
			// Never asleep for long: the loop comes back to the window (keys, closing) every slice.
			if wait := time.Until(due); wait > slice {
				pending = &d
				time.Sleep(slice)
				continue
			}
			time.Sleep(time.Until(due))
			lastDue = due
		}
		lastPTS = d.f.PTS
		if err := p.present(d.f); err != nil {
			d.f.release()
			return err
		}
		if clock != nil && !p.paused {
			if fresh {
				clockErr(clock.Pause(false)) // the sound starts under the first picture
			}
			if pos, ok := clock.Position(); ok {
				p.offs.add(d.f.PTS - pos)
			}
		}
		fresh, seeking = false, false
		if p.last != nil && p.last != d.f {
			p.last.release()
		}
		p.last = d.f
		p.measureDiff()
		p.stats.FramesPresented++
		if p.stats.FramesPresented == 1 {
			p.presented.Store(true)
			p.stats.DecodedAhead = len(queue)
			p.stats.FirstFrameMs = float64(time.Since(p.start).Microseconds()) / 1000
			su := &p.stats.Startup
			su.FirstFrame = p.stats.FirstFrameMs
			su.Probe = msOf(p.rend.Stream.ProbeTime())
			n, made := vkx.PipelineTime()
			su.Pipelines = msOf(made - p.pipeTime0)
			p.stats.PipelineCache.PipelinesBeforeFirstFrame = n - p.pipes0
		}
		if p.cfg.OnFrame != nil {
			p.cfg.OnFrame(p, p.stats.FramesPresented)
		}
		if p.cfg.Frames > 0 && p.stats.FramesPresented >= p.cfg.Frames {
			return p.finish(decodeTime)
		}
	}
}

// present draws f into the output (creating it on the first frame) and presents it.
func (p *Player) present(f *Frame) error {
	if !p.sized {
		t := time.Now()
		if err := p.openOutput(f); err != nil {
			return err
		}
		p.stats.Startup.Output = msOf(time.Since(t))
	}
	if p.stats.FramesPresented == 0 && p.stats.Startup.FirstDraw == 0 {
		defer func(t time.Time) { p.stats.Startup.FirstDraw = msOf(time.Since(t)) }(time.Now())
	}
	prm := p.params(f.Color)
	prm.Dither = p.cfg.Dither.For(f.Picture.Format, prm)
	p.rend.Orient = p.orientation(f)
	if p.off != nil {
		f.hold()
		return p.rend.Draw(f.Picture, f.HW, prm, f.Aspect, offscreenTarget{p.off}, vk.NullSemaphore, vk.NullSemaphore, f.release)
	}
	// The stream's mastering display and content light levels go to an HDR10 display
	// (VK_EXT_hdr_metadata) before the first picture that carries them is presented; a swapchain made
	// again re-sends them (present.Swapchain.Recreate).
	if err := p.swap.SetHDRMetadata(prm.HDR); err != nil {
		return err
	}
	p.stats.HDRDisplayMetadata = p.swap.HDRMetadataNote
	return p.toSwapchain(func(t swapchainTarget, wait, signal vk.Semaphore) error {
		f.hold()
		return p.rend.Draw(f.Picture, f.HW, prm, f.Aspect, t, wait, signal, f.release)
	})
}

// toSwapchain acquires a swapchain image, has draw record and submit into it (waiting on wait,
// signalling signal), and presents it; the swapchain is made again when it is out of date.
func (p *Player) toSwapchain(draw func(t swapchainTarget, wait, signal vk.Semaphore) error) error {
	if p.win.Resized() || p.swap.Suboptimal {
		if err := p.recreate(); err != nil {
			return err
		}
	}
	for attempt := 0; ; attempt++ {
		if err := p.rend.WaitNextSlot(); err != nil {
			return err
		}
		sem := p.rend.AcquireSemaphore()
		idx, err := p.swap.Acquire(sem)
		if errors.Is(err, present.ErrOutOfDate) {
			if w, h := p.win.Size(); w == 0 || h == 0 { // minimised: nothing to draw into
				time.Sleep(20 * time.Millisecond)
				p.win.Poll()
				if attempt > 500 {
					return nil
				}
			}
			if err := p.recreate(); err != nil {
				return err
			}
			continue
		}
		if err != nil {
			return err
		}
		if err := draw(swapchainTarget{p.swap, idx}, sem, p.done[idx]); err != nil {
			return err
		}
		err = p.swap.Present(idx, p.done[idx])
		if errors.Is(err, present.ErrOutOfDate) {
			return p.recreate()
		}
		return err
	}
}

func (p *Player) recreate() error {
	w, h := p.win.Size()
	if err := p.rend.Drain(); err != nil { // the frames in flight draw into the old images
		return err
	}
	if err := p.swap.Recreate(w, h); err != nil {
		return err
	}
	for len(p.done) < len(p.swap.Images) {
		s, err := p.dev.NewSemaphore()
		if err != nil {
			return err
		}
		p.done = append(p.done, s)
	}
	return nil
}

func (p *Player) finish(decodeTime time.Duration) error {
	if err := p.rend.Drain(); err != nil { // the timer's last intervals and the frames' releases
		return err
	}
	s := &p.stats
	s.WallS = time.Since(p.start).Seconds()
	if p.cfg.Clock != nil && !p.cfg.Untimed {
		s.Audio, s.AVOffsetMs = p.audioStats(), p.offs.stats()
	}
	if s.WallS > 0 {
		s.FPS = float64(s.FramesPresented) / s.WallS
	}
	if s.FramesDecoded > 0 {
		s.DecodeMsPerFrame = decodeTime.Seconds() * 1000 / float64(s.FramesDecoded)
	}
	p.rend.Timer.Finish()
	p.fill(s)
	p.applyDecoding()
	return nil
}

// fill sets the figures the renderer knows (path, conversion, upload, format, metadata, GPU time) in s.
func (p *Player) fill(s *Stats) {
	r := p.rend
	s.GPUMsPerFrame = r.Timer.MeanMs()
	s.Path, s.PathReason = r.Path.String(), r.PathReason
	s.Scale, s.Zoom = r.Scaled, zoomName(r.Zoom)
	if p.last != nil {
		s.Rotation = p.rotationName(p.last)
	}
	s.Conversion, s.ConversionReason = r.Conversion.String(), r.ConversionReason
	s.Dither = r.params.Dither.String()
	s.HDRPeak = r.peakName()
	s.Deband = r.Deband.String()
	if r.Deband.Iterations > 0 && r.format != nil && r.format.Depth != 8 {
		s.Deband = fmt.Sprintf("off (%d-bit source; debanding is for 8-bit sources)", r.format.Depth)
	}
	s.Upload, s.UploadReason = r.Loaded.Upload.String(), r.Loaded.Reason
	if r.format != nil {
		s.PixelFormat = r.format.Name
		if r.Path == formats.PathSampler {
			s.VkFormat = r.format.VkFormat.String()
		} else {
			var parts []string
			for _, t := range r.format.Textures {
				parts = append(parts, t.VkFormat.String())
			}
			s.VkFormat = strings.Join(parts, "+")
		}
		s.Matrix, s.Range, s.ChromaLocation = r.params.Matrix.String(), r.params.Range.String(), r.params.ChromaLocation.String()
		s.Transfer, s.Primaries, s.HDRMetadata = r.params.Transfer.String(), r.params.Primaries.String(), r.params.HDR.String()
		s.ToneMap = "none (SDR)"
		if k := r.params.Transfer.Kind(); k == formats.TransferPQ || k == formats.TransferHLG {
			s.ToneMap = r.params.Tone.String()
		}
		if r.params.Output == ycbcr.OutputHDR10 {
			s.ToneMap = "none (hdr10 output)"
		}
		if r.Path == formats.PathShader {
			s.ColourStage = r.params.Applied(r.format)
		}
		s.CPUBytesCopiedPerFrame = r.Loaded.CPUBytes
	}
}

func (p *Player) infoLine() string {
	r := p.rend
	if r.format == nil {
		return "info: nothing shown yet"
	}
	vkf := "-"
	if r.Path == formats.PathSampler {
		vkf = r.format.VkFormat.String()
	}
	el := time.Since(p.start).Seconds()
	dec := ""
	if ds, ok := p.src.(DeviceSource); ok {
		d := ds.Decoding()
		dec = fmt.Sprintf(" | decoder %s, hwdec %s", d.Decoder, d.HWDec)
		if d.Reason != "" {
			dec += " (" + d.Reason + ")"
		}
		if d.Route != "" {
			dec += ", route " + d.Route
		}
	}
	turn := ""
	if p.last != nil {
		turn = ", rotation " + p.rotationName(p.last)
	}
	peakInfo := ""
	if n := r.peakName(); n != "" {
		peakInfo = ", peak " + n
	}
	if r.Deband.Iterations > 0 && r.format.Depth == 8 {
		peakInfo += ", deband " + r.Deband.String()
	}
	return fmt.Sprintf("info: %s %dx%d (%s) | %s | matrix %s, range %s, chroma %s | path %s (%s)%s | scale %s, zoom %s%s | dither %s%s | %.1f fps, %d dropped",
		r.format.Name, r.width, r.height, r.format.Subsampling(), vkf, r.params.Matrix, r.params.Range,
		r.params.ChromaLocation, r.Path, r.PathReason, dec, r.Scaled, zoomName(r.Zoom), turn, r.params.Dither, peakInfo,
		float64(p.stats.FramesPresented)/el, p.stats.FramesDropped)
}

// screenshot converts the last presented frame again, at the video's size, and writes it as PNG; in
// diff mode the diff picture (|sampler − shader| × DiffGain).
func (p *Player) screenshot(path string) error {
	if p.last == nil {
		return fmt.Errorf("no frame was presented: nothing to write to %s", path)
	}
	if p.rend.active == CompareDiff { // the diff picture, as the diff mode shows it
		img, _, _, err := p.diffPicture(p.last)
		if err != nil {
			return err
		}
		return writeScreenshot(path, img)
	}
	img, err := p.convertPath(p.last, p.rend.Path)
	if err != nil {
		return err
	}
	return writeScreenshot(path, img)
}

// shoot writes the picture on screen (the video, not the display) as the s key does: the next free
// ycbcrplay-NNNN.png in Config.ShotDir.
func (p *Player) shoot() (string, error) {
	for i := 1; i < 10000; i++ {
		path := filepath.Join(p.cfg.ShotDir, fmt.Sprintf("ycbcrplay-%04d.png", i))
		if _, err := os.Lstat(path); os.IsNotExist(err) {
			return path, p.screenshot(path)
		}
	}
	return "", fmt.Errorf("ycbcrplay-0001..9999.png all exist in %q", p.cfg.ShotDir)
}

// writeScreenshot writes img as an opaque picture (alpha is always 1) in the format path names.
func writeScreenshot(path string, img *image.RGBA) error {
	rgb := image.NewNRGBA(img.Rect)
	copy(rgb.Pix, img.Pix)
	return writePicture(path, rgb)
}

func (p *Player) close() {
	sh := &p.stats.Shutdown
	t := time.Now()
	if p.last != nil {
		p.last.release()
	}
	if p.rend != nil {
		p.rend.Destroy() // waits for its frames' fences first
	}
	sh.Renderer = msOf(time.Since(t))
	t = time.Now()
	if p.osd.pass != nil {
		p.osd.pass.Destroy() // after the frames that drew it (Destroy above waited for them)
	}
	if p.off != nil {
		p.off.Destroy()
	}
	if p.swap != nil {
		p.swap.Destroy()
	}
	for _, s := range p.done {
		vk.DestroySemaphore(p.dev.Device, s, nil)
	}
	if p.win != nil {
		p.win.Destroy()
		window.Terminate()
	}
	sh.Output = msOf(time.Since(t))
	// The source first: a decoder on the device (hardware decoding) frees its Vulkan objects when it
	// closes, which must happen before the device and instance go (the H100 crashed in
	// avcodec_free_context after vkDestroyInstance). A source still busy in the decode goroutine
	// (a read that could not be interrupted) is left open.
	t = time.Now()
	// With Config.Exiting and no validation layer the source, device and instance are left to the
	// operating system: the decode goroutine has ended (or is left behind, as above), and
	// vkDeviceWaitIdle in Leave waits for the decoder's GPU work too.
	leave := p.cfg.Exiting && !p.cfg.Validate && p.dev != nil
	if !p.srcBusy && !leave && p.src != nil {
		p.src.Close()
	}
	sh.Source = msOf(time.Since(t))
	if p.dev != nil {
		if leave {
			p.dev.Leave()
		} else {
			p.dev.Close()
		}
		sh.CloseTimes = p.dev.Closing
	}
}

// orientation is how f is turned for display: -rotate, or the stream's display matrix.
func (p *Player) orientation(f *Frame) formats.Orientation {
	if p.cfg.Rotate != nil {
		return formats.Orientation{Rotate: *p.cfg.Rotate % 4}
	}
	return f.Orient
}

// rotationName is the orientation of f and whence, for -stats and the info line.
func (p *Player) rotationName(f *Frame) string {
	if p.cfg.Rotate != nil {
		return p.orientation(f).String() + " (-rotate)"
	}
	return f.Orient.String() + " (auto: the stream's display matrix)"
}
