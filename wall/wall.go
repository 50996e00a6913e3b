package wall

import (
	"errors"
	"fmt"
	"image"
	"io"
	"path/filepath"
	"runtime"
	"sync"
	"time"
	"unsafe"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/decode"
	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/gpu"
	"github.com/ycbcrkit/ycbcrkit/planes"
	"github.com/ycbcrkit/ycbcrkit/pump"
	"github.com/ycbcrkit/ycbcrkit/stream"
	"github.com/ycbcrkit/ycbcrkit/ycbcr"
)

// Input is one video of the wall.
type Input struct {
	URL string
	// Label is the tile's name (the URL's base name when empty).
	Label string
}

// Options tune Open. The zero value works: Vulkan Video where the device decodes a stream, the
// conversion path chosen per stream, two pictures queued per stream, every picture played.
type Options struct {
	HWDec  decode.HWDec
	Choice formats.Choice
	// Threads is each software decoder's thread count; 0 shares the cores among the streams (at
	// least one each). Vulkan Video decodes on one thread.
	Threads int
	// Queue is how many decoded pictures wait per stream; 0 means 2. Each holds a decoder buffer
	// (software) or a decode image (Vulkan Video): the memory per stream grows with it.
	Queue int
	// Frames stops each stream after this many pictures; 0 plays them all.
	Frames int
	// Loop plays each input this many times (0 or 1: once), as ycbcrplay's -loop.
	Loop int
	// OneClock runs every stream on one clock started with the wall's first picture (a wall of
	// cameras: a stream whose first picture comes later drops what that clock has passed); otherwise
	// each stream's clock starts at its own first picture. Each play of a looped input restarts its
	// stream's clock at its first picture. Untimed steps ignore it.
	OneClock bool
	// Variant is how each stream's conversion runs (stream.VariantAuto: measured on the device).
	// The compute variant converts each picture straight into its tile (stream.Config.Into; a
	// fitted one into the stream's own image, then scaled into the tile); the drawn one draws into
	// the tile.
	Variant stream.Variant
	// Route is how hardware-decoded pictures reach each stream's conversion (stream.RouteAuto:
	// chosen per picture; RouteInPlace samples the decoder's image, RouteCopy copies it first).
	Route stream.Route
	// TwoDecodes keeps two hardware decodings of a stream in flight (the loop waits for a picture
	// only after it has submitted the next one's decoding). Off, each picture's decoding is waited
	// for before the next is submitted. On an H100 with one queue (ycbcrwall's default) two in
	// flight were not faster: HEVC −9 to +12%, H.264 −8 to +2% over two rounds of 7 and 16 1080p
	// streams (docs/performance.md, "Many streams").
	TwoDecodes bool
	// Notice receives FFmpeg's log about each tile, summarised by its decoder (decode.CaptureLog,
	// decode.Options.Log) and named: "tile 3 (cam3): 12 corrupt packets (mpegts) in the last
	// second", at most one line a second per tile, from a goroutine of the decoder's. nil: none.
	Notice func(line string)
	// Decode passes the rest of the decoder's options (timeout, size limits); its Threads, HWDec and
	// Vulkan are set from the fields above.
	Decode decode.Options
	// Layout, if set, places the tiles (ParseLayout: a preset, a grid, a file of cells); its unit is
	// set to the largest picture's size. Nil: the most nearly square uniform grid (NewLayout).
	Layout *Layout
	// OneToOne draws each picture one pixel for one pixel, centred in its cell; otherwise each is
	// fitted to its cell, as multiviewers do (aspect kept, letterboxed), through the scale pass
	// the player uses (Filter), whatever its size.
	OneToOne bool
	Filter   ycbcr.Filter
	// Period is the time between timed steps (the display's refresh period): a step shows the
	// picture due within half a period of it, so that steps a little early or late (a ticker's or
	// vsync's jitter) neither hold a picture a step too long nor drop it. 0: a picture is shown from
	// its time on.
	Period time.Duration
	// Upload puts every software-decoded picture into one of FFmpeg's Vulkan frames
	// (decode.Uploader), as Vulkan Video decoding outputs them: the hardware frames' path (imports,
	// their semaphores and locks) on a device that decodes nothing (lavapipe, in the tests). The
	// device needs gpu.Options.Frames.
	Upload bool
	// SubmitEach submits each stream's frame on its own; otherwise the frames of one step that go
	// to the device's queue are submitted together, in one vkQueueSubmit (stream.Gather).
	SubmitEach bool
	// DecodeDevices are further devices of the wall's GPU that decode: input i decodes on device i
	// mod (1+len), 0 the wall's, and each picture decoded elsewhere is copied into the wall's device
	// (stream.Relay). A device has as many decode queues as the GPU has video engines (7 on an
	// H200) and a queue decodes one picture at a time, so streams beyond that decode faster on
	// devices of their own (docs/performance.md, "Live walls"). Every device, the wall's too, needs
	// gpu.Options.Share (and Video, or Frames with Upload). They stay the caller's: close them after
	// the wall.
	DecodeDevices []*gpu.Device
	// OpenDecodeDevice, where DecodeDevices is empty, opens a further device of the wall's GPU
	// (gpu.Options.Share and Video): Open decodes the wall's H.264 streams over
	// AutoDecodeDevices(streams, decode queues) such devices, which the wall closes. nil: none.
	OpenDecodeDevice func() (*gpu.Device, error)
	// SampleWaits samples, every millisecond, where the timed steps' thread sleeps (Stats'
	// AsleepMs); the caller keeps Tick on one locked thread.
	SampleWaits bool
}

// Wall is many videos on one device, each in its tile of the canvas.
type Wall struct {
	Layout Layout
	dev    *gpu.Device
	opts   Options
	paths  *ycbcr.Paths
	tiles  []*tile
	canvas *gpu.Offscreen
	ring   *stream.Ring // the wall's own submissions: clearing, read-back
	// ownDevices are the devices the wall opened to decode on (Options.OpenDecodeDevice).
	ownDevices []*gpu.Device
	// gather holds a step's frames for the device's queue until the step's end (one submission).
	gather *stream.Gather
	wake   chan struct{}
	start  time.Time // the first display step
	steps  int
	clock  clock
	// prevTick is the previous timed step's time, on the clock (drop reasons).
	prevTick time.Time
	// steps' figures (timed): each step's time in Tick and the time since the step before.
	stepDur, stepGap []time.Duration
	grid             grid         // where the timed steps fall
	phases           phases       // the timed steps' time per phase
	threads          threadTimes  // and their thread's time on and off the CPU
	waits            *waitSampler // Options.SampleWaits
	asleep           map[string]float64
	// started: the decoding goroutines run (Close drains their queues), since opened.
	started bool
	opened  time.Time
	timer   *time.Timer   // Step's wait
	idle    time.Duration // Step's time waiting with nothing to draw
	// drawn: a stream draws its tiles (the drawn variant), whose passes change the whole canvas's
	// layout: every stream then submits on the device's first queue (queue).
	drawn bool
}

// tile is one stream: its decoder and goroutine, queue, stream of pictures and place.
type tile struct {
	in    Input
	dev   *gpu.Device
	dec   *decode.Decoder
	st    *stream.Stream
	rect  image.Rectangle
	pump  *pump.Pump[*decode.Frame] // the decoding goroutine and its queue (source.go)
	ended bool
	err   error
	// next is the picture taken from the queue and not yet due (timed steps); nextStart says it
	// begins a play (or a live feed's return): the stream's clock restarts there.
	next      *decode.Frame
	nextStart bool
	shown     int
	dropped   int
	// Why pictures were dropped (timed steps): late decode (the picture was not decoded when it was
	// due), late display (two pictures fell due between two steps: a step came too late), late
	// conversion (the stream had no free slot at the step its picture was due: its GPU work behind).
	lateDecode, lateDisplay, lateConversion int
	// playGaps is the time between the last picture of a play and the first of the next, less one
	// step, summed over the plays (a looped input's restarts), and plays their count.
	playGaps time.Duration
	plays    int
	// arrived is when the last picture was taken from the queue (Signal).
	arrived time.Time
	// skipped is the last step (Wall.steps) at which the stream had no free slot.
	skipped int
	// fitted: the picture is scaled into its cell (not shown one pixel for one pixel).
	fitted bool
	// up puts the decoder's pictures into FFmpeg's Vulkan frames (Options.Upload).
	up *decode.Uploader
	// decDev is the device the input decodes on (Options.DecodeDevices); relay, where that is not
	// the wall's, brings its pictures to the wall's device.
	decDev *gpu.Device
	relay  *stream.Relay
	// late: a live input that was not open at the start (openInputs); its pump opens it.
	late bool
	// num is the input's number, from 1 (a Split's tiles keep the whole wall's numbers).
	num int
	// lostNoted: a loss of signal was noticed (noteSignals) and not yet its end; lostSince is when
	// its last picture came (the start, for a late input), losses counts them.
	lostNoted bool
	lostSince time.Time
	losses    int

	first time.Time // the first picture shown
	last  time.Time
	// shownAt is the step time (on the wall's clock, timed steps) of the last picture shown, its
	// presentation time; firstAt the first picture's, the time its clock started (tile.origin: a
	// first draw that made pipelines delays it).
	firstAt, shownAt time.Time
	pts0             float64   // the first picture's PTS (of this play, when looping)
	origin           time.Time // on the wall's clock, when the picture of PTS pts0 was due (timed steps)
	lastPTS          float64
}

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
		opts := stream.Options{Slots: slots(dec), Paths: w.paths, OneBatch: true}
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
// queue, then enough that no device has more, at most 3. A queue decodes one picture at a time
// and queues of one device share their engines worse than other devices' do (H200: 16 streams
// 2,127 pictures/s on one device, 3,374 over two; 48 timed streams drop 12.4 % on one, 6.4 % over
// two, 0.5–1.0 % over three or four; docs/performance.md, "Live walls"). HEVC gains nothing
// (untimed 16 streams within 2 % over two devices), so only H.264 is spread.
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
		t.startDecoding(w.wake, w.opts.Queue, w.opts.Frames, w.opts.Loop, !w.opts.TwoDecodes, t.up, t.relay)
	}
	w.started, w.opened = true, time.Now()
	for _, t := range w.tiles {
		if t.late {
			t.lostSince = w.opened
		}
	}
	return nil
}

// noteSignals tells Options.Notice when a tile's signal is lost (Signal) and when its pictures
// come again, as a monitoring wall logs its feeds, and counts the losses (Stats): "tile 3 (cam3):
// no signal", "tile 3 (cam3): signal back after 3.4 s". A live input down at the start was said
// at the start (openInputs); its return is said here.
func (w *Wall) noteSignals(now time.Time) {
	for i, t := range w.tiles {
		switch s := w.Signal(i, now); {
		case s.Lost && !t.lostNoted:
			t.lostNoted, t.lostSince = true, s.Since
			t.losses++
			w.notice(t, "no signal")
		case t.lostNoted && t.arrived.After(t.lostSince):
			t.lostNoted = false
			w.notice(t, fmt.Sprintf("signal back after %.1f s", t.arrived.Sub(t.lostSince).Seconds()))
		}
	}
}

// notice gives Options.Notice a line about t.
func (w *Wall) notice(t *tile, s string) {
	if w.opts.Notice != nil {
		w.opts.Notice(fmt.Sprintf("tile %d (%s): %s", t.num, t.in.Label, s))
	}
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

// Ended says every stream has ended (its input played, or an error: Err).
func (w *Wall) Ended() bool {
	for _, t := range w.tiles {
		if !t.ended {
			return false
		}
	}
	return true
}

// Step draws, untimed, the next picture of every stream that has one decoded and a free slot; when
// none has, it waits for one. It returns how many tiles it drew (0 once every stream has ended).
func (w *Wall) Step() (int, error) {
	n, err := w.step()
	err = w.flushed(err)
	w.noteSignals(time.Now())
	return n, err
}

// flushed flushes the gathered frames whatever happened (a hardware decoder may wait on a frame's
// semaphore that only their submission signals) and returns err, or the flush's error.
func (w *Wall) flushed(err error) error {
	if ferr := w.flush(); err == nil {
		err = ferr
	}
	return err
}

func (w *Wall) step() (int, error) {
	w.begin()
	for {
		w.collect()
		n := 0
		for _, t := range w.tiles {
			if t.ended || !t.st.Ring.Ready() { // a busy stream waits its turn, the others go on
				continue
			}
			if t.next == nil {
				if _, err := w.poll(t); err != nil {
					return n, err
				}
			}
			f := t.next
			if f == nil {
				continue
			}
			// Not yet, when the decoder holds the picture's lock or its next decoding uses it as a
			// reference and has not finished (tile.hold): the stream waits its turn.
			src, ok, err := t.hold(f)
			if err != nil {
				t.ended, t.err = true, err
				return n, fmt.Errorf("wall: %s: %w", t.in.Label, err)
			} else if !ok {
				continue
			}
			t.next = nil
			if err := w.draw(t, f, src); err != nil {
				return n, err
			}
			n++
		}
		if err := w.flush(); err != nil { // before waiting: a decoder may wait for these frames
			return n, err
		}
		if n > 0 || w.Ended() {
			return n, nil
		}
		w.wait()
	}
}

// collect gives back what the streams' finished submissions held: above all the decoders' pictures,
// which a decoder may need before it can decode the next one (a stream with nothing new to draw
// would otherwise keep its last pictures until its next Begin).
func (w *Wall) collect() {
	if w.gather != nil {
		w.gather.Poll() // each flush's fence asked once for all its slots
	}
	for _, t := range w.tiles {
		t.st.Ring.Collect()
	}
}

// wait waits for a decoded picture, or briefly, for a slot to come free or a submission to finish.
func (w *Wall) wait() {
	if w.timer == nil {
		w.timer = time.NewTimer(pollInterval)
	} else {
		w.timer.Reset(pollInterval)
	}
	t := time.Now()
	select {
	case <-w.wake:
	case <-w.timer.C:
	}
	w.idle += time.Since(t)
}

// timerEvery: each stream's GPU time is measured on one picture in timerEvery, so that a step reads
// back one stream's timestamps in timerEvery, not every stream's (gpu.GPUTimer.Every).
const timerEvery = 8

// pollInterval is how often a waiting Step looks at the streams' fences: a fence cannot be waited on
// together with a channel.
const pollInterval = 200 * time.Microsecond

// Tick draws, timed, the newest picture each stream's clock has reached at now (within half of
// Options.Period: the step's picture) and returns how many tiles it drew; pictures passed over are
// dropped, each counted with its reason. It does not wait: a stream whose pictures are not decoded
// yet, or whose slots are all still on the GPU, is passed over this step without holding up the
// others. The step's frames go to the device's queue in one submission (Options.SubmitEach). While
// paused (SetPaused) it draws nothing.
func (w *Wall) Tick(now time.Time) (int, error) {
	t0 := time.Now()
	if !w.prevTick.IsZero() && !w.clock.paused {
		w.stepGap = append(w.stepGap, w.clock.at(now).Sub(w.prevTick))
	}
	if w.opts.SampleWaits && w.waits == nil {
		h := map[string]uintptr{"VkDevice": uintptr(unsafe.Pointer(w.dev.Device))}
		for i, q := range w.dev.Queues {
			h[fmt.Sprintf("VkQueue%d", i)] = uintptr(unsafe.Pointer(q))
		}
		w.waits = startWaitSampler(&w.phases, h)
	}
	w.phases.start()
	w.threads.start()
	if w.waits != nil {
		w.waits.inStep.Store(true)
		defer w.waits.inStep.Store(false)
	}
	n, err := w.tick(now)
	w.phases.lap(phaseRecord, phaseFlush)
	err = w.flushed(err)
	w.phases.lap(phaseFlush, phaseRecord)
	w.phases.end()
	w.threads.end()
	w.stepDur = append(w.stepDur, time.Since(t0))
	w.noteSignals(now)
	return n, err
}

func (w *Wall) tick(now time.Time) (int, error) {
	w.begin()
	w.collect()
	w.phases.lap(phaseCollect, phaseRecord)
	if w.clock.paused {
		return 0, nil
	}
	now = w.clock.at(now)
	ahead := w.opts.Period / 2
	due := now.Add(ahead)
	prev := w.prevTick
	w.prevTick = now
	w.grid.step(now, prev, w.opts.Period)
	n := 0
	for _, t := range w.tiles {
		if t.ended {
			continue
		}
		if !t.st.Ring.Ready() { // its GPU work is behind: the others go on
			t.skipped = w.steps
			continue
		}
		var show *decode.Frame
		origin, pts0, started := t.origin, t.pts0, false // started: show begins a play, its clock at origin
		for !t.ended {
			if t.next == nil {
				w.phases.lap(phaseRecord, phasePoll)
				ok, err := w.poll(t)
				w.phases.lap(phasePoll, phaseRecord)
				if err != nil {
					return n, err
				}
				if ok {
					continue
				}
				break
			}
			if t.shown > 0 || show != nil { // the clock runs from the stream's first picture
				if show != nil && (t.next.PTS < show.PTS || t.nextStart) {
					break // a new play begins: its first picture once the last one's has been shown
				}
				if t.next.PTS-pts0 > due.Sub(origin).Seconds() {
					break
				}
			}
			if show != nil {
				w.drop(t, show, origin.Add(time.Duration((show.PTS-pts0)*float64(time.Second))), prev, ahead)
			}
			show, t.next = t.next, nil
			if !started && (t.shown == 0 || show.PTS < t.lastPTS || t.nextStart) { // show begins a play, at this step
				if t.shown > 0 {
					t.plays++
					t.playGaps += max(0, now.Sub(t.shownAt)-w.opts.Period)
				}
				origin, pts0, started = w.clock.origin(t, now, w.opts.OneClock), show.PTS, true
			}
		}
		if show != nil {
			// Waits for the picture's lock: a timed step passing over one its decoder holds drops it
			// at the content's rate (row trylock: 64 HEVC 1.18, 1.37, 0.84 % dropped against 0.89,
			// 0.74, 1.06 % waiting); an untimed step passes over it (tile.hold).
			at, first := time.Now(), t.shown == 0
			if err := w.draw(t, show, nil); err != nil {
				return n, err
			}
			t.shownAt = now
			if started { // the stream's clock (re)starts with this play
				t.origin, t.pts0 = origin, pts0
				if origin.Equal(now) {
					// From when its first picture was drawn (the first draws make pipelines, which
					// would otherwise cost a short input most of its pictures), on the steps' grid
					// (w.grid): its pictures fall due on the steps, half a period from where a
					// step's jitter moves a picture to the next, even when this step came late.
					late := time.Duration(0)
					if first {
						late = time.Since(at)
					}
					t.origin = w.grid.next(now.Add(late), w.opts.Period)
					if first && w.clock.start.Equal(now) {
						w.clock.start = t.origin
					}
				}
				if first { // its presentation time: when its clock starts
					t.firstAt = t.origin
				}
			}
			n++
		}
	}
	return n, nil
}

// flush submits the step's gathered frames.
func (w *Wall) flush() error {
	if w.gather == nil {
		return nil
	}
	if err := w.gather.Flush(); err != nil {
		return fmt.Errorf("wall: %w", err)
	}
	return nil
}

// drop releases f, due at at on the wall's clock, passed over at this step for a newer picture, and
// counts why: due only after the previous step (prev), two pictures fell due between two steps
// (late display); due by then, the stream either had no free slot at that step (late conversion)
// or did not have f decoded yet (late decode).
func (w *Wall) drop(t *tile, f *decode.Frame, at, prev time.Time, ahead time.Duration) {
	f.Release()
	t.dropped++
	switch {
	case !prev.IsZero() && at.After(prev.Add(ahead)):
		t.lateDisplay++
	case t.skipped == w.steps-1:
		t.lateConversion++
	default:
		t.lateDecode++
	}
}

func (w *Wall) begin() {
	if w.steps == 0 {
		w.start = time.Now()
	}
	w.steps++
}

// poll takes t's next queued item, if one has come (take); ok says one had.
func (w *Wall) poll(t *tile) (ok bool, err error) {
	it, ok := t.pump.Poll()
	if !ok {
		return false, nil
	}
	return true, w.take(t, it)
}

// take handles one item of t's queue: a picture, the end, or an error that ends the stream.
func (w *Wall) take(t *tile, it pump.Item[*decode.Frame]) error {
	switch {
	case errors.Is(it.Err, io.EOF) || errors.Is(it.Err, pump.ErrEnded):
		t.ended = true
	case it.Err != nil:
		t.ended, t.err = true, it.Err
		return fmt.Errorf("wall: %s: %w", t.in.Label, it.Err)
	default:
		t.next, t.nextStart = it.Frame, it.Start
		t.arrived = time.Now()
	}
	return nil
}

// Signal is a tile's feed state as its label and dimming show it.
type Signal struct {
	// Lost says the stream, playing (not ended), has had no new picture for NoSignalAfter; Since is
	// when its last one arrived.
	Lost  bool
	Since time.Time
}

// NoSignalAfter is how long a playing stream goes without a new picture before its tile shows "no
// signal": well above any frame period a feed has, and within the second a monitoring wall is
// expected to take to show a lost feed.
const NoSignalAfter = 700 * time.Millisecond

// Signal is tile i's feed state at now, read from its decoded pictures' arrivals (a stream's own
// reconnecting source, once it reports one, says more).
func (w *Wall) Signal(i int, now time.Time) Signal {
	t := w.tiles[i]
	if t.ended || w.clock.paused || t.next != nil || t.pump != nil && t.pump.Queued() > 0 {
		return Signal{}
	}
	since := t.arrived
	if since.IsZero() {
		if !t.late { // its first picture is on its way
			return Signal{}
		}
		since = w.opened // a live input down at the start: lost since then
	}
	if now.Sub(since) < NoSignalAfter {
		return Signal{}
	}
	return Signal{Lost: true, Since: since}
}

// draw converts f into t's tile and submits it; f is released once the GPU is done with it. src, if
// not nil, is f's hardware frame already under its lock (tile.hold).
func (w *Wall) draw(t *tile, f *decode.Frame, src stream.Foreign) error {
	w.phases.lap(phaseRecord, phaseBegin)
	abandon := func() {
		if h, ok := src.(*stream.Held); ok {
			h.Abandon()
		}
	}
	if err := w.configure(t, f); err != nil {
		abandon()
		f.Release()
		return err
	}
	fr, err := t.st.Begin()
	if err != nil {
		abandon()
		f.Release()
		return fmt.Errorf("wall: %s: %w", t.in.Label, err)
	}
	if f.HW != nil {
		if src == nil {
			src = f.HW.Foreign()
		}
		w.phases.lap(phaseBegin, phaseLock) // until LoadForeign has the frame's lock (timedLock)
		_, _, err = fr.LoadForeign(timedLock{src, &w.phases}, f.Release)
	} else {
		w.phases.lap(phaseBegin, phaseLoad)
		_, err = fr.Load(f.Picture, f.Release)
	}
	w.phases.lap(phaseLoad, phaseConvert)
	if err == nil {
		err = fr.Convert()
	}
	w.phases.lap(phaseConvert, phasePlace)
	if err != nil {
		return fmt.Errorf("wall: %s: %w", t.in.Label, err)
	}
	if err := w.place(fr, t.rect, f.Picture.Width, f.Picture.Height); err != nil {
		return fmt.Errorf("wall: %s: %w", t.in.Label, err)
	}
	w.phases.lap(phasePlace, phaseSubmit)
	if err := fr.Submit(vk.NullSemaphore, vk.NullSemaphore); err != nil {
		return fmt.Errorf("wall: %s: %w", t.in.Label, err)
	}
	w.phases.lap(phaseSubmit, phaseRecord)
	now := time.Now()
	if t.shown == 0 {
		t.first = now
	}
	t.lastPTS = f.PTS
	t.shown++
	t.last = now
	return nil
}

// timedLock is a foreign frame whose Lock ends the step's lock phase: the wait for FFmpeg's frame
// lock, which a decoder holds from recording a decoding that uses the frame until that submission
// returns (libavutil/vulkan.c: ff_vk_exec_add_dep_frame to ff_vk_exec_submit).
type timedLock struct {
	stream.Foreign
	phases *phases
}

func (l timedLock) Lock() (planes.ForeignState, error) {
	st, err := l.Foreign.Lock()
	l.phases.lap(phaseLock, phaseLoad)
	return st, err
}

// configure makes t's stream ready for f's pictures (its conversion's pipelines on the first).
func (w *Wall) configure(t *tile, f *decode.Frame) error {
	h := t.dec.HW()
	cfg := stream.Config{Format: f.Picture.Format, Width: f.Picture.Width, Height: f.Picture.Height,
		Params: ycbcr.FromColor(f.Color), Choice: w.opts.Choice, Variant: w.opts.Variant, Route: w.opts.Route,
		Decode: stream.Decode{Decoder: h.Decoder, HW: h.Active, Reason: h.Reason}}
	// A size change mid-stream moves the picture in its cell (what it held before stays around it).
	t.rect = w.rectFor(w.index(t), f.Picture.Width, f.Picture.Height)
	t.fitted = t.rect.Dx() != f.Picture.Width || t.rect.Dy() != f.Picture.Height
	if !t.fitted { // the compute variant writes the picture into its tile, with no image of its own
		cfg.Into = stream.Into{View: w.canvas.View, X: t.rect.Min.X, Y: t.rect.Min.Y}
	}
	changed, err := t.st.Configure(cfg)
	if err == nil && changed {
		err = w.queue(t)
	}
	if err != nil {
		return fmt.Errorf("wall: %s: %w", t.in.Label, err)
	}
	return nil
}

// Prepare waits, at most timeout, for each stream's first picture and configures its stream for it
// before the first timed step: a stream's first configuration makes its conversion (pipelines,
// images), tens of milliseconds on a device without a pipeline cache, and made in a step it
// delays that step for every stream already playing (the H200's 16-stream walls: 2 late steps of
// 64 ms at the start, 0.16 % of the pictures dropped, each). A stream whose first picture has not
// come by then is configured in the step that shows it.
func (w *Wall) Prepare(timeout time.Duration) error {
	end := time.Now().Add(timeout)
	for _, t := range w.tiles {
		for !t.ended && !t.late && t.next == nil && time.Now().Before(end) { // a late input joins later
			ok, err := w.poll(t)
			if err != nil {
				return err
			}
			if !ok {
				time.Sleep(time.Millisecond)
			}
		}
		if t.next != nil {
			if err := w.configure(t, t.next); err != nil {
				return err
			}
			if err := t.st.PrepareAll(); err != nil {
				return fmt.Errorf("wall: %s: %w", t.in.Label, err)
			}
		}
	}
	return nil
}

// queue puts t, newly configured, on its queue: tiles that are computed into the canvas (the compute
// variant) write only their own rectangle, so the streams spread over the device's queues (stream i
// on queue i mod n: gpu.Options.Queues) and run side by side; a drawn tile's pass takes the whole
// canvas to the attachment's layout and back, which would race other queues' copies, so once a
// stream draws, every stream submits on the first queue.
func (w *Wall) queue(t *tile) error {
	qs := w.dev.Queues
	if len(qs) < 2 {
		return nil
	}
	if !w.drawn && !t.fitted && t.st.Plan().Variant.Variant == stream.VariantCompute {
		return t.st.Ring.SetQueue(qs[w.index(t)%len(qs)])
	}
	w.drawn = true
	for _, u := range w.tiles {
		if err := u.st.Ring.SetQueue(nil); err != nil {
			return err
		}
	}
	return nil
}

// Queues is how many of the device's queues the streams submit on.
func (w *Wall) Queues() int {
	if w.drawn {
		return 1
	}
	return min(len(w.dev.Queues), len(w.tiles))
}

// rectFor is where the i-th tile's w×h picture goes on the canvas: fitted to its cell, or one pixel
// for one pixel (Options.OneToOne).
func (w *Wall) rectFor(i, pw, ph int) image.Rectangle {
	if w.opts.OneToOne {
		return w.Layout.Place(i, pw, ph)
	}
	return w.Layout.Fit(i, pw, ph)
}

// place records the frame's w×h picture into r of the canvas: nothing where the compute variant
// converted it there already (stream.Frame.Placed, r the picture's size), else drawn, through the
// scale pass (stream.Frame.Scale, the player's filtered scaler) where r is not the picture's size.
func (w *Wall) place(fr *stream.Frame, r image.Rectangle, pw, ph int) error {
	if fr.Placed() {
		return nil
	}
	cb := fr.Slot.CB
	exact := r.Dx() == pw && r.Dy() == ph
	if !exact {
		if err := fr.Scale(ycbcr.Fit(pw, ph, r.Dx(), r.Dy(), formats.Orientation{}, w.opts.Filter)); err != nil {
			return err
		}
	}
	w.canvas.BeginArea(cb, r)
	err := fr.Draw(w.canvas)
	vk.CmdEndRenderPass(cb)
	return err
}

// stopSampling ends the wait sampler, keeping what it found.
func (w *Wall) stopSampling() {
	if w.waits != nil {
		w.asleep, w.waits = w.waits.stop(), nil
	}
}

func (w *Wall) index(t *tile) int {
	for i, u := range w.tiles {
		if u == t {
			return i
		}
	}
	return -1
}

// Screenshot reads the whole canvas back, after every submitted picture: it waits for every
// stream's submissions first, which may run on other queues than the read-back's.
func (w *Wall) Screenshot() (*image.RGBA, error) {
	for _, t := range w.tiles {
		if err := t.st.Ring.Drain(); err != nil {
			return nil, fmt.Errorf("wall: screenshot: %w", err)
		}
	}
	sl, err := w.ring.Next()
	if err != nil {
		return nil, fmt.Errorf("wall: screenshot: %w", err)
	}
	if err := w.canvas.PrepareReadback(); err != nil {
		return nil, fmt.Errorf("wall: screenshot: %w", err)
	}
	w.canvas.RecordReadback(sl.CB)
	if err := w.ring.Submit(sl, vk.NullSemaphore, vk.NullSemaphore); err != nil {
		return nil, fmt.Errorf("wall: screenshot: %w", err)
	}
	if err := w.ring.Drain(); err != nil {
		return nil, fmt.Errorf("wall: screenshot: %w", err)
	}
	return w.canvas.RGBA(), nil
}

// Close stops decoding, waits for the wall's submissions and frees everything; the device stays.
func (w *Wall) Close() {
	w.stopSampling()
	for _, t := range w.tiles {
		t.dec.Interrupt() // a live input's read waiting for data (a feed that stopped) returns now
	}
	for _, t := range w.tiles {
		if t.next != nil {
			t.next.Release()
			t.next = nil
		}
		if w.started && !t.pump.Stop() {
			<-t.pump.Done() // a source that cannot be interrupted: its read ends by its timeout
		}
		if t.st != nil {
			t.st.Close() // runs the releases of the pictures in flight
		}
	}
	if w.ring != nil {
		w.ring.Close()
	}
	if w.gather != nil {
		w.gather.Destroy()
	}
	for _, t := range w.tiles {
		t.relay.Close() // every picture back: the pump and the stream have released theirs
		if t.dec != nil {
			t.dec.Close()
		}
		if t.up != nil {
			t.up.Close()
		}
	}
	if w.canvas != nil {
		w.canvas.Destroy()
	}
	if w.paths != nil {
		w.paths.Destroy()
	}
	for _, d := range w.ownDevices {
		d.Close()
	}
}
