package player

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"sync/atomic"
	"time"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/gpu"
	"github.com/ycbcrkit/ycbcrkit/internal/vkx"
	"github.com/ycbcrkit/ycbcrkit/present"
	"github.com/ycbcrkit/ycbcrkit/present/window"
	"github.com/ycbcrkit/ycbcrkit/pump"
	"github.com/ycbcrkit/ycbcrkit/ycbcr"
)

var errEOF = io.EOF

// Player is one playback session.
type Player struct {
	cfg Config
	src Source
	ab  abLoop // the A-B loop's points (control.go)
	// eofReached: the input's end was reached (the IPC's eof-reached).
	eofReached bool
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
	// The decode queue and its seeks (decodeq.go), and the pacing of frames (pacing.go).
	dec  *decoding
	pace pacer
	disp displaySync // display-synced playback (displaysync.go)
	// paused; step: show one frame while paused (a step, or a seek's picture); plays: plays begun,
	// for Config.Playback.Loop; decodeTime: the decoder's time for the frames taken.
	paused     bool
	step       bool
	plays      int
	decodeTime time.Duration
	// The on-screen display (a window only), and what it shows.
	osd display
	// sized: the output has the first frame's size (openOutput); PlayOpening's window exists before.
	sized bool
	// presented is set at the first presented frame: the decoder's run-ahead ends there. cpuDevice:
	// the device renders on the CPU (lavapipe), whose cores decoding ahead would take from it.
	presented atomic.Bool
	cpuDevice atomic.Bool
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
	if p.cfg.Hooks.Log != nil {
		fmt.Fprintf(p.cfg.Hooks.Log, format+"\n", args...)
	}
}

// Play plays src until it ends, Frames are presented, or the user quits.
func Play(src Source, cfg Config) (*Stats, error) {
	p := newPlayer(cfg)
	p.src, p.stats.Opened = src, true
	return p.end(p.play())
}

func newPlayer(cfg Config) *Player {
	p := &Player{cfg: cfg, start: time.Now(), ab: noABLoop()}
	if cfg.Playback.ABLoopA != nil {
		p.ab.a = *cfg.Playback.ABLoopA
	}
	if cfg.Playback.ABLoopB != nil {
		p.ab.b = *cfg.Playback.ABLoopB
	}
	p.pipes0, p.pipeTime0 = vkx.PipelineTime()
	return p
}

// end closes what play opened and returns the figures, or err (or the validation layer's messages).
func (p *Player) end(err error) (*Stats, error) {
	cfg := p.cfg
	if s := cfg.IPC.Session; s != nil {
		// What outlives the input (mpv's global properties): the next one starts from it.
		s.Pause = p.paused && !p.eofReached
		if vc, ok := cfg.Sound.Clock.(volumeControl); ok {
			v, muted := vc.Volume()
			s.Volume, s.Mute = v*100, muted
		}
	}
	// Close before draining the validation messages: destroying the device is when the layer
	// reports objects that were never destroyed.
	validating := p.dev != nil && cfg.GPU.Validate
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
	if ds, ok := p.src.(DeviceSource); ok && (p.cfg.GPU.Video || p.cfg.GPU.Frames) {
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
		p.dec = p.startDecoding()
	} else {
		p.dec = p.startDecoding()
		if p.dev == nil {
			if err := p.open(); err != nil {
				p.srcBusy = !p.dec.stop()
				return err
			}
		}
	}
	defer func() {
		t := time.Now()
		p.srcBusy = !p.dec.stop()
		p.stats.Shutdown.StopDecoding = msOf(time.Since(t))
	}()
	if err := p.loop(); err != nil {
		return err
	}
	if p.cfg.Output.Screenshot != "" {
		if p.cfg.Output.ScreenshotWindow {
			return p.windowShot(p.cfg.Output.Screenshot)
		}
		return p.screenshot(p.cfg.Output.Screenshot)
	}
	return nil
}

func (p *Player) open() error {
	opts := gpu.Options{Index: p.cfg.GPU.Device, Validation: p.cfg.GPU.Validate, Video: p.cfg.GPU.Video, Frames: p.cfg.GPU.Frames, CacheDir: p.cfg.GPU.CacheDir}
	if p.cfg.Colour.HDROutput && p.cfg.Output.Headless {
		return errors.New("-hdr-output needs a window's HDR10 swapchain; -headless has none")
	}
	dev, err := present.OpenDevice(present.DeviceParams{GPU: opts, Headless: p.cfg.Output.Headless})
	if err != nil {
		return err
	}
	p.dev = dev
	p.stats.Device = dev.Info.Name
	// On a CPU device the variant probe and the first draws run on the cores that decode: decoding
	// ahead made lavapipe's probe 10–25 % slower and its verdict wrong under load
	// (docs/performance.md, "Start-up"), and gains nothing where the conversion is the bound.
	p.cpuDevice.Store(dev.Info.Type == "CPU" && !aheadOnCPU)
	if p.dec != nil && p.cpuDevice.Load() {
		p.dec.pump.Drain()
	}
	su := &p.stats.Startup
	su.Instance, su.Device, su.PipelineCache = msOf(dev.OpenTimes.Instance), msOf(dev.OpenTimes.Device), msOf(dev.OpenTimes.PipelineCache)
	p.stats.PipelineCache.PipelineCacheState = dev.PipelineCacheState
	t := time.Now()
	if p.rend, err = NewRenderer(dev, p.cfg.Convert.Path, p.cfg.Convert.Compare, p.cfg.Convert.Upload); err == nil {
		p.rend.HWRoute, p.rend.Decoding = p.cfg.Convert.HWRoute, p.decoding
	}
	if err != nil {
		return err
	}
	su.Renderer = msOf(time.Since(t))
	p.rend.Notice = func(n string) { p.logf("%s", n) }
	p.rend.Variant = p.cfg.Convert.Variant
	p.rend.Filter, p.rend.Zoom, p.rend.ScaleDraw = p.cfg.View.Filter, p.cfg.View.Zoom, p.cfg.View.ScaleDraw
	p.rend.Peak, p.rend.Deband = p.cfg.Colour.HDRPeak, p.cfg.Quality.Deband
	if p.cfg.Colour.ICCProfile != nil && p.cfg.Colour.HDROutput {
		return errICCHDR
	}
	if err := p.rend.SetICC(p.cfg.Colour.ICCProfile); err != nil {
		return fmt.Errorf("-icc-profile: %w", err)
	}
	return nil
}

// params applies the overrides to a frame's metadata.
func (p *Player) params(c formats.Color) ycbcr.Params {
	if p.cfg.Colour.Matrix != nil {
		c.Matrix = *p.cfg.Colour.Matrix
	}
	if p.cfg.Colour.Range != nil {
		c.Range = *p.cfg.Colour.Range
	}
	if p.cfg.Colour.ChromaLocation != nil {
		c.ChromaLocation = *p.cfg.Colour.ChromaLocation
	}
	if n := ycbcr.TransferNotice(c.Transfer); n != "" && !slices.Contains(p.stats.Notices, n) {
		p.stats.Notices = append(p.stats.Notices, n) // once per transfer, not per frame
		p.logf("notice: %s", n)
	}
	prm := ycbcr.FromColor(c)
	prm.Tone = p.cfg.Colour.Tone
	if p.cfg.Colour.HDROutput {
		prm.Output = ycbcr.OutputHDR10
	}
	return p.cfg.Colour.HDRPeak.apply(prm)
}

// loop plays until the input ends, Config.Playback.Frames are presented, or the user ends playback.
func (p *Player) loop() error {
	p.pace = newPacer(p.cfg, p.src.Info(), p.logf)
	p.newDisplay()
	p.plays = 1
	p.dec.pump.Idle() // the device's creation is not the source's stall
	if p.cfg.Playback.Speed > 0 && p.cfg.Playback.Speed != 1 {
		p.setSpeed(p.cfg.Playback.Speed, false)
	}
	p.ipcEvent("file-loaded", nil)
	if p.cfg.Playback.Start > 0 {
		p.seekTo(p.cfg.Playback.Start)
	}
	if p.cfg.Playback.Pause {
		// Paused from the start (mpv's --pause): the first picture is shown, the sound held.
		p.paused, p.step, p.pace.stepped = true, true, true
	}
	var pending *decoded // a frame waiting for its time (the loop polls the window meanwhile)
	for {
		if p.input() {
			return p.finish()
		}
		if p.eofReached && !p.paused && !p.step {
			// Kept open at the end (Config.Playback.KeepOpen): playing on needs a seek, as in mpv.
			p.paused = true
		}
		if p.paused && !p.step {
			p.disp.wall, p.disp.measured, p.disp.startOffs, p.disp.lastOff = time.Time{}, 0, nil, 0 // timed anew on resuming
			if err := p.redraw(); err != nil {
				return err
			}
			continue
		}
		if d := &p.disp; p.paused && p.step && d.cur != nil && !d.curShown && d.gen == p.dec.gen() {
			// A step from display-synced playback: its next frame, decoded already, first.
			d.curShown, d.gen, p.step = true, -1, false
			if err := p.show(d.cur); err != nil {
				return err
			}
			continue
		}
		// Wait for the next frame in short slices: between them the window is polled (keys, closing),
		// so that a long seek or a slow input never freezes it; a source that stops making progress
		// for stallLimit ends playback with an error.
		slice := 100 * time.Millisecond
		if p.win != nil {
			slice = 20 * time.Millisecond
		}
		waited := pending != nil // a frame back from waiting for its time: counted already
		var d decoded
		if waited {
			d, pending = *pending, nil
		} else {
			var ok bool
			var err error
			if d, ok, err = p.receive(slice); err != nil {
				return err
			} else if !ok {
				continue
			}
		}
		if d.Gen != p.dec.gen() { // a frame from before a seek
			d.Frame.release()
			continue
		}
		if d.Err != nil {
			if again, err := p.ended(d.Err); err != nil || !again {
				return err
			}
			continue
		}
		if !waited {
			p.stats.FramesDecoded++
			p.decodeTime += d.Dur
			if d.Frame.Damaged {
				p.stats.FramesDamaged++
			}
		}
		p.step = false
		if p.disp.on && !p.paused {
			if err := p.displayFrame(d.Frame, d.Gen); errors.Is(err, errDisplayStop) {
				return p.finish()
			} else if err != nil {
				return err
			}
			continue
		}
		p.disp.gen = -1 // a step while paused: display-synced refreshes start a new timeline after it
		switch p.pace.schedule(d.Frame, waited, p.paused, p.stats.FramesPresented, slice) {
		case drop:
			p.stats.FramesDropped++
			d.Frame.release()
			continue
		case later:
			pending = &d
			continue
		}
		if err := p.show(d.Frame); err != nil {
			return err
		}
		if p.cfg.Playback.Frames > 0 && p.stats.FramesPresented >= p.cfg.Playback.Frames {
			return p.finish()
		}
	}
}

// redraw shows the picture on screen again while paused (the display changes: keys, the mouse).
func (p *Player) redraw() error {
	p.measureDiff()
	if p.last != nil {
		if err := p.present(p.last); err != nil {
			return err
		}
	}
	time.Sleep(10 * time.Millisecond)
	p.dec.pump.Idle() // a pause is not the source's stall
	return nil
}

// ended handles the decoder's end or error: at the input's end with plays left (Config.Playback.Loop) it
// seeks to the start (again); otherwise playback ends, with err for an error.
func (p *Player) ended(derr error) (again bool, err error) {
	eof := errors.Is(derr, io.EOF)
	switch {
	case eof && p.ab.active() && !p.dec.unseekable: // B past the end: back to A
		p.seekTo(p.ab.a)
		return true, nil
	case eof && (p.cfg.Playback.Loop < 0 || p.plays < p.cfg.Playback.Loop) && !p.dec.unseekable:
		// Loop: back to the start, a new generation (the decoder waits for this seek at EOF).
		p.plays++
		if p.disp.on && !p.paused {
			if err := p.displayEnd(); err != nil { // the last frame's refreshes
				return false, err
			}
		}
		p.dec.rewind()
		p.pace.hold(0)
		return true, nil
	case eof: // the end: stop, as mpv and ffplay -autoexit do
		p.eofReached = true
		if p.disp.on && !p.paused {
			if err := p.displayEnd(); errors.Is(err, errDisplayStop) { // quit meanwhile
				return false, p.finish()
			} else if err != nil {
				return false, err
			}
		} else {
			p.pace.end(p.paused, p.stats.FramesPresented)
		}
		if k := p.cfg.Playback.KeepOpen; k == "always" || k == "yes" && p.cfg.Playback.LastInput {
			// mpv's --keep-open: the last picture stays, paused (its keep-open-pause default).
			p.pace.step(p.paused)
			p.paused, p.pace.stepped = true, true
			if p.cfg.IPC.Server != nil {
				p.cfg.IPC.Server.Update(p.property)
			}
			return true, nil
		}
		if p.cfg.IPC.Server != nil {
			p.cfg.IPC.Server.Update(p.property)
		}
		return false, p.finish()
	case errors.Is(derr, pump.ErrEnded):
		return false, p.finish()
	}
	return false, derr
}

// show presents f, makes it the picture on screen, and counts it.
func (p *Player) show(f *Frame) error {
	if err := p.present(f); err != nil {
		f.release()
		return err
	}
	p.pace.shown(f.PTS, p.paused)
	return p.shown(f)
}

// shown makes f, presented, the picture on screen, and counts it.
func (p *Player) shown(f *Frame) error {
	if p.dec.seeking || p.stats.FramesPresented == 0 {
		p.ipcEvent("playback-restart", nil)
	}
	p.dec.seeking = false
	p.loopAB(f.PTS)
	if p.last != nil && p.last != f {
		p.last.release()
	}
	p.last = f
	p.measureDiff()
	p.stats.FramesPresented++
	if p.stats.FramesPresented == 1 {
		p.presented.Store(true)
		p.dec.pump.Drain()
		p.stats.DecodedAhead = p.dec.pump.Queued()
		p.stats.FirstFrameMs = float64(time.Since(p.start).Microseconds()) / 1000
		su := &p.stats.Startup
		su.FirstFrame = p.stats.FirstFrameMs
		su.Probe = msOf(p.rend.Stream.ProbeTime())
		n, made := vkx.PipelineTime()
		su.Pipelines = msOf(made - p.pipeTime0)
		p.stats.PipelineCache.PipelinesBeforeFirstFrame = n - p.pipes0
	}
	if p.cfg.Hooks.OnFrame != nil {
		p.cfg.Hooks.OnFrame(p, p.stats.FramesPresented)
	}
	return nil
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
	p.destroyDisplay() // the GPU is done with its pictures (above)
	sh.Renderer = msOf(time.Since(t))
	t = time.Now()
	if p.osd.subs != nil {
		p.osd.subs.Destroy() // after the frames that drew it, as the display's pass
	}
	if p.osd.shotSubs != nil {
		p.osd.shotSubs.Destroy() // each screenshot waited for its submission
	}
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
	}
	window.Terminate() // started by present.OpenDevice; the device is closed (or left) below
	sh.Output = msOf(time.Since(t))
	// The source first: a decoder on the device (hardware decoding) frees its Vulkan objects when it
	// closes, which must happen before the device and instance go (the H100 crashed in
	// avcodec_free_context after vkDestroyInstance). A source still busy in the decode goroutine
	// (a read that could not be interrupted) is left open.
	t = time.Now()
	// With Config.GPU.Exiting and no validation layer the source, device and instance are left to the
	// operating system: the decode goroutine has ended (or is left behind, as above), and
	// vkDeviceWaitIdle in Leave waits for the decoder's GPU work too.
	leave := p.cfg.GPU.Exiting && !p.cfg.GPU.Validate && p.dev != nil
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
