package wall

// Opening a wall: its inputs, their decoders and devices, and the layout of its canvas.

import (
	"errors"
	"fmt"
	"image"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"time"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/decode"
	"github.com/ycbcrkit/ycbcrkit/gpu"
	"github.com/ycbcrkit/ycbcrkit/stream"
	"github.com/ycbcrkit/ycbcrkit/ycbcr"
)

// Open opens every input on dev (made with gpu.Options.Video for hardware decoding), lays the tiles
// out for the largest picture and starts decoding. dev stays the caller's: Close before closing it.
func Open(dev *gpu.Device, inputs []Input, opts Options) (*Wall, error) {
	if len(inputs) == 0 {
		return nil, fmt.Errorf("wall: no input")
	}
	w, err := newWall(dev, opts, len(inputs))
	if err != nil {
		return nil, err
	}
	unit, err := w.openInputs(inputs, nil)
	if err == nil && len(opts.DecodeDevices) == 0 && opts.OpenDecodeDevice != nil {
		err = w.spreadH264()
	}
	var l Layout
	if err == nil {
		l, err = layoutFor(opts.Layout, len(inputs), unit)
	}
	if err == nil {
		err = w.lay(l)
	}
	if err != nil {
		w.Close()
		return nil, err
	}
	return w, nil
}

// newWall makes a wall of n inputs on dev, with its conversions and none of its inputs yet.
func newWall(dev *gpu.Device, opts Options, n int) (*Wall, error) {
	if opts.Queue <= 0 {
		opts.Queue = 2
	}
	if opts.Threads <= 0 {
		opts.Threads = max(1, runtime.NumCPU()/n)
	}
	if dev.Validation && dev.Video.Enabled {
		// Gathered, a hardware-decoded frame's lock is released (Locked.Submit) before the step's
		// one vkQueueSubmit, and its decoder may meanwhile submit a decoding that uses the frame as
		// a reference: it waits on the frame's timeline semaphore at the value that submission
		// will signal. Valid (a timeline semaphore may be waited on before its signal is submitted:
		// Vulkan spec, "Semaphore Waiting"), but the validation layer carried (1.3.239) checks
		// image layouts in submission order and reports each such picture, on NVIDIA thousands a
		// run (Vulkan-ValidationLayers issue 2441, fixed by pull request 10316 in 2025). Each frame
		// submitted on its own comes in execution order: the layer checks the same command buffers.
		opts.SubmitEach = true
	}
	opts.DecodeDevices = append([]*gpu.Device(nil), opts.DecodeDevices...) // spreadH264 adds to it
	w := &Wall{dev: dev, opts: opts, wake: make(chan struct{}, 1)}
	if !opts.SubmitEach {
		w.gather = stream.NewGather(dev, nil)
	}
	var err error
	if w.paths, err = ycbcr.NewPaths(dev); err != nil {
		return nil, fmt.Errorf("wall: %w", err)
	}
	return w, nil
}

// openInputs opens the inputs' decoders and streams; number, if set, is each input's number on a
// wall split over devices (Split). It returns the largest picture's size, the layout's unit (zero
// when no input could say: layoutFor).
//
// The inputs open side by side: a live feed's opening waits for its probe (about a second of the
// feed: decode.LiveProbeDuration), and one after the other 16 feeds would hold the wall's start
// 16 seconds. A live input that cannot be opened within LiveOpenWait (a camera that is down, a
// sender not yet started) does not hold or fail the wall: its tile starts without signal and its
// pump opens it as it reopens a lost feed, every 500 ms (decode.OpenLater, pump.DefaultRetry).
func (w *Wall) openInputs(inputs []Input, number []int) (image.Point, error) {
	type opened struct {
		num  int // the input's number, from 1
		dec  *decode.Decoder
		late error // a live input not opened at start, and why
		err  error
	}
	inputs = append([]Input(nil), inputs...) // labels filled in below: the caller's stay as they are
	res := make([]opened, len(inputs))
	var wg sync.WaitGroup
	for i := range inputs {
		in := &inputs[i]
		if in.Label == "" {
			in.Label = filepath.Base(in.URL)
		}
		k := i
		if number != nil {
			k = number[i]
		}
		res[i].num = k + 1
		do := w.opts.Decode
		do.Threads, do.HWDec, do.Vulkan = w.opts.Threads, w.opts.HWDec, w.decodeDevice(i)
		if notice, name := w.opts.Notice, fmt.Sprintf("tile %d (%s): ", k+1, in.Label); notice != nil {
			do.Log = func(s string) { notice(name + s) }
		}
		// A URL the pump reopens (startDecoding): not a pipe read as live (decode.LiveYes).
		live := decode.IsLive(in.URL) && do.Live != decode.LiveNo
		wg.Add(1)
		go func() {
			defer wg.Done()
			first := do
			if live {
				first.OpenTimeout = LiveOpenWait
			}
			dec, err := decode.Open(in.URL, first)
			switch {
			case err == nil:
				res[i].dec = dec
			case live && !errors.Is(err, decode.ErrInterrupted) && !errors.Is(err, decode.ErrProtocolNotFound):
				res[i].dec, res[i].late = decode.OpenLater(in.URL, do), err
			default:
				res[i].err = fmt.Errorf("wall: input %d: %w", k+1, err)
			}
		}()
	}
	wg.Wait()
	var unit image.Point
	for _, r := range res {
		if r.err != nil {
			for _, r := range res {
				if r.dec != nil {
					r.dec.Close()
				}
			}
			return unit, r.err
		}
	}
	first := len(w.tiles)
	for i, in := range inputs { // every decoder a tile's, which Close closes
		late := res[i].late != nil
		t := &tile{in: in, dev: w.dev, decDev: w.decodeDevice(i), dec: res[i].dec, late: late, num: res[i].num, lostNoted: late}
		w.tiles = append(w.tiles, t)
		if late {
			w.notice(t, fmt.Sprintf("no signal at start (%v): opened when the feed comes", res[i].late))
		}
	}
	for _, t := range w.tiles[first:] {
		dec := t.dec
		var err error
		// OneBatch: a step records every stream's frame on one thread, each driver call behind the
		// lock the decoders' threads take (64 HEVC streams: 0.66–0.72 % of the pictures dropped
		// against 1.51–2.36 % with the copy in a batch of its own; docs/performance.md).
		opts := stream.Options{Slots: slots(dec), Paths: w.paths, OneBatch: true, Replay: os.Getenv("YCBCRKIT_REPLAY") != "0"}
		if t.st, err = stream.New(w.dev, opts); err != nil {
			return unit, fmt.Errorf("wall: input %d: %w", t.num, err)
		}
		if w.gather != nil {
			t.st.Ring.SetGather(w.gather)
		}
		if t.st.Timer != nil { // gpu_ms_per_picture from one picture in timerEvery
			t.st.Timer.Every = timerEvery
		}
		info := dec.Info()
		unit.X, unit.Y = max(unit.X, info.Width), max(unit.Y, info.Height)
	}
	return unit, nil
}

// AutoDecodeDevices is how many devices besides the wall's decode n H.264 streams on a GPU whose
// devices have queues decode queues each (Options.OpenDecodeDevice): none up to two streams a
// queue, then enough that no device has more, at most 3. Queue j of every device runs on video
// engine j, and streams sharing an engine through different devices' queues decode more than
// through one queue (H200, 16 streams with hw.c's fair: 3,206 pictures/s on one device, 3,955
// over two, 3,738 over three, against 3,736 for 7 streams; 48 timed streams drop 12.4 % on one,
// 0.5–1.0 % over three or four; docs/performance.md, "Live walls"). HEVC gains nothing (untimed
// 16 streams over two devices 0.97× the pictures/s, decoder use 91–97 % against 92–95 %: rows
// chan42, defer42), so only H.264 is spread.
func AutoDecodeDevices(n, queues int) int {
	if queues < 1 || n <= 2*queues {
		return 0
	}
	return min((n+2*queues-1)/(2*queues)-1, 3)
}

// spreadH264 moves the wall's H.264 decoders that Vulkan Video would run over devices opened with
// Options.OpenDecodeDevice (AutoDecodeDevices), before anything is decoded: stream j of them on
// device j mod (1+devices), 0 the wall's.
func (w *Wall) spreadH264() error {
	if w.opts.HWDec == decode.HWDecNo {
		return nil
	}
	if ok, _ := w.dev.Video.Codec("h264"); !ok {
		return nil
	}
	var h264 []*tile
	for _, t := range w.tiles {
		if !t.late && t.dec.Info().Codec == "h264" {
			h264 = append(h264, t)
		}
	}
	extra := AutoDecodeDevices(len(h264), int(w.dev.Video.DecodeQueues))
	for range extra {
		d, err := w.opts.OpenDecodeDevice()
		if err != nil {
			return fmt.Errorf("wall: a device to decode on: %w", err)
		}
		w.opts.DecodeDevices = append(w.opts.DecodeDevices, d)
		w.ownDevices = append(w.ownDevices, d)
	}
	for j, t := range h264 {
		if k := j % (1 + extra); k > 0 {
			d := w.opts.DecodeDevices[k-1]
			if err := t.dec.UseVulkan(d, w.opts.HWDec); err != nil {
				return fmt.Errorf("wall: input %d: %w", t.num, err)
			}
			t.decDev = d
		}
	}
	return nil
}

// decodeDevice is the device input i decodes on (Options.DecodeDevices).
func (w *Wall) decodeDevice(i int) *gpu.Device {
	if k := i % (1 + len(w.opts.DecodeDevices)); k > 0 {
		return w.opts.DecodeDevices[k-1]
	}
	return w.dev
}

// LiveOpenWait is how long the wall's start waits for a live input to open (connect and probe)
// before it starts without it (openInputs): a UDP or SRT MPEG-TS feed opens in about a second (its
// probe: decode.LiveProbeDuration), RTSP in one or two round trips more.
const LiveOpenWait = 3 * time.Second

// DefaultUnit is the layout's unit (a cell's size) when no input has opened at the start: a wall
// of live feeds that are all down then lays them out as 1080p, the size most feeds have; a feed of
// another size is fitted to its cell.
var DefaultUnit = image.Point{1920, 1080}

// layoutFor is the layout of n tiles on units of unit's size (DefaultUnit when zero): l (a preset,
// a grid of a given size, cells) where set, else the most nearly square uniform grid.
func layoutFor(l *Layout, n int, unit image.Point) (Layout, error) {
	if unit.X == 0 || unit.Y == 0 { // every input a live one down at the start
		unit = DefaultUnit
	}
	if l == nil {
		return NewLayout(n, unit.X, unit.Y), nil
	}
	if l.Cells != nil && l.Len() < n {
		return Layout{}, fmt.Errorf("wall: the layout has %d cells for %d inputs", l.Len(), n)
	}
	out := *l
	out.CellW, out.CellH = unit.X, unit.Y
	if l.Cells == nil { // a grid of a given size: as many rows as the inputs need
		out.Rows = max(l.Rows, (n+l.Cols-1)/l.Cols)
	}
	return out, nil
}

// lay places the tiles on l (layoutFor, or Split's cells of its part), makes and clears the canvas
// and starts decoding.
func (w *Wall) lay(l Layout) error {
	w.Layout = l
	for i, t := range w.tiles {
		info := t.dec.Info()
		t.rect = l.Cell(i) // a live input not open yet: its cell, until its first picture
		if info.Width > 0 && info.Height > 0 {
			t.rect = w.rectFor(i, info.Width, info.Height)
		}
		t.fitted = t.rect.Dx() != info.Width || t.rect.Dy() != info.Height
	}
	var err error
	cw, ch := w.Layout.Size()
	if w.canvas, err = newCanvas(w.dev, cw, ch); err != nil {
		return err
	}
	if w.ring, err = stream.NewRing(w.dev, 2); err != nil {
		return fmt.Errorf("wall: %w", err)
	}
	sl, err := w.ring.Next()
	if err != nil {
		return fmt.Errorf("wall: %w", err)
	}
	w.canvas.Begin(sl.CB)
	vk.CmdEndRenderPass(sl.CB)
	if err := w.ring.Submit(sl, vk.NullSemaphore, vk.NullSemaphore); err != nil {
		return fmt.Errorf("wall: clear: %w", err)
	}
	// Done before any tile is placed, from whichever queue.
	if err := w.ring.Drain(); err != nil {
		return fmt.Errorf("wall: clear: %w", err)
	}
	for _, t := range w.tiles {
		// An uploader each: FFmpeg's transfers of one frames context share its command pool, which
		// the decoders' goroutines would then use at once (Vulkan: externally synchronized).
		if w.opts.Upload {
			up, err := decode.NewUploader(t.decDev)
			if err != nil {
				return fmt.Errorf("wall: %w", err)
			}
			t.up = up
		}
		if t.decDev != w.dev {
			// Enough shared images that decoding never waits for one: the pump's queue, the
			// picture taken and not yet due, and the stream's frames in flight.
			var err error
			if t.relay, err = stream.NewRelay(t.decDev, w.dev, w.opts.Queue+slots(t.dec)+1); err != nil {
				return fmt.Errorf("wall: input %d: %w", t.num, err)
			}
		}
		t.startDecoding(w.wake, w.opts)
	}
	w.started, w.opened = true, time.Now()
	for _, t := range w.tiles {
		if t.late {
			t.lostSince = w.opened
		}
	}
	return nil
}

// slots is how many frames of a stream may be in flight, each with a picture of its own (the
// stream's images): three for a software-decoded stream, whose frame holds the decoder's buffer and
// uploads it; two for one Vulkan Video decodes, whose frame (a GPU copy of the decoder's picture and
// the conversion into its tile: 0.05 ms on an H200, gpu_ms_per_picture) is done before the next
// step looks, so that a third slot would only hold a third picture (3 MB at 1080p).
func slots(dec *decode.Decoder) int {
	if dec.HW().Active {
		return 2
	}
	return 3
}
