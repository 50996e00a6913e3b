package wall

import (
	"fmt"
	"image"
	"time"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/decode"
	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/gpu"
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
	// Untimed says the wall is drawn with Step (every picture as soon as it is decoded): each
	// stream's pump waits for a hardware picture Ahead pictures later (0: DefaultAhead), not one,
	// its decoding running on meanwhile (startDecoding).
	Untimed bool
	Ahead   int
	// OneDecode waits for each picture's hardware decoding before the stream's next is submitted.
	// Otherwise two decodings of a stream are in flight (the loop waits for a picture only after
	// it has submitted the next one's decoding): on an H200 16 HEVC streams untimed 1.03x, 16
	// H.264 1.02x, their decoders busier (docs/performance.md, "Live walls"; FFmpeg's own wait
	// for each non-reference picture is gone with scripts/ffmpeg-patches/0006).
	OneDecode bool
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
	// H200), and H.264 streams sharing an engine decode faster through different devices' queues
	// than through one (docs/performance.md, "Live walls"). Every device, the wall's too, needs
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
	loop    loopTimes     // Step's time by part
	avoided []int         // the CPUs LockSteps keeps the steps off (Stats.StepsAvoidCPUs)
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
	// notYet is the point notYetOf's last hold found unreached (tile.hold).
	notYet   stream.TimelinePoint
	notYetOf *decode.Frame
	// ahead are items Prepare took from the queue after next, in order (warm): poll takes them
	// before the queue's.
	ahead   []pump.Item[*decode.Frame]
	shown   int
	dropped int
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
	// relaying is the source that relays (source.go), whose copy's wait pending hands the pump.
	relaying *relaying
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

// Ended says every stream has ended (its input played, or an error: Err).
func (w *Wall) Ended() bool {
	for _, t := range w.tiles {
		if !t.ended {
			return false
		}
	}
	return true
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
	if t.ended || w.clock.paused || t.next != nil || len(t.ahead) > 0 || t.pump != nil && t.pump.Queued() > 0 {
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
		for _, it := range t.ahead {
			it.Frame.Release()
		}
		t.ahead = nil
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
