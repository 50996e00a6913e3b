// Command ycbcrwall plays many videos at once on one Vulkan device, tiled on one canvas shown in a
// window (or drawn offscreen): a video wall, and the toolkit's measure of how many streams the GPU's
// decoders carry in one process.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"image"
	"io"
	"os"
	"os/signal"
	"strconv"
	"sync"
	"syscall"
	"time"

	"github.com/ycbcrkit/ycbcrkit/decode"
	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/gpu"
	"github.com/ycbcrkit/ycbcrkit/internal/app/cli"
	"github.com/ycbcrkit/ycbcrkit/internal/app/picfile"
	"github.com/ycbcrkit/ycbcrkit/present"
	"github.com/ycbcrkit/ycbcrkit/stream"
	"github.com/ycbcrkit/ycbcrkit/wall"
	"github.com/ycbcrkit/ycbcrkit/ycbcr"
)

const help = `ycbcrwall: many videos at once on one Vulkan device, tiled.

Usage: ycbcrwall [flags] FILE...
       ycbcrwall [flags] -inputs LIST [FILE...]

Each FILE (a file may repeat; -n N plays N copies of each) gets its own decoder (Vulkan Video on
the wall's device where it decodes the stream, software otherwise), its own stream of pictures on
the GPU and its own cell on a canvas whose grid unit is the largest picture's size. All streams
share the device, its decode queues, the conversion paths and the pipeline cache.

An input is a file or a URL FFmpeg opens. Live sources (udp://, rtp://, rtsp://, rtsps://, srt://,
HLS playlists over http(s): -live auto) are read with a short probe, small jitter buffers and no
read-ahead (docs/live.md); inputs open side by side, and a live one not open within 3 s starts
without signal and plays once its feed comes. -inputs LIST reads inputs from a file, one a line: the URL (or a path,
taken from the list's folder) and an optional label, the rest of the line; blank lines and lines
starting with # are skipped. Its inputs come after the FILEs. FFmpeg's own log never reaches
stderr: what it says about a tile becomes at most one line a second, "notice: tile 3 (cam3): 12
corrupt packets (mpegts) in the last second". A tile's signal lost and back is a notice too:
"notice: tile 3 (cam3): no signal", "notice: tile 3 (cam3): signal back after 3.4 s".

Layout: the most nearly square uniform grid by default, every feed fitted to its cell (aspect
kept, letterboxed, through the scale pass the player uses: -scale), whatever its size; -fit=false
draws each one pixel for one pixel, centred. -layout SPEC: a preset (1+5, 1+7: one large cell and
the small ones around it; 2x2+8: four large, eight small), COLSxROWS (a uniform grid of that many
columns), or a FILE of one cell per line, "x y w h" in grid units ('#' begins a comment), e.g. 1+5:
  0 0 2 2
  2 0 1 1
  2 1 1 1
  0 2 1 1
  1 2 1 1
  2 2 1 1

The window shows the canvas scaled to fit (the player's scale pass, -scale), each tile with a label
at the bottom centre of its picture (in the letterbox where there is one; the corners stay clear):
its number and file name, the pictures it shows per second, the pictures it dropped, its decoder
(hw: Vulkan Video, sw: software), the route (hw) or upload (sw) its pictures take and the conversion
path; a stream with no new picture for 0.7 s keeps its last one, dimmed, with "no signal" and the
seconds since. -headless draws the canvas offscreen, with no window.

Sound: in the window, the tile shown alone plays its input's sound through PulseAudio (FFmpeg's
best audio stream, read by a decoder of its own: a second connection to a network source) from
the picture shown, and stops when the grid comes back or another tile is picked; -volume N sets its
volume. A tile without sound says "no sound" on its label then. A unicast UDP or RTP feed, an SRT
listener and a pipe, which only the tile's decoder can read, have none (one notice line says so).
The grid, -headless, -untimed and -no-audio play no sound.

Keys (in the window):
  1 … 9          the tile of that number alone, full size, with its sound
  Tab            the next tile alone (from the grid: the outlined one, else the first)
  ← → ↑ ↓        on the grid: move the outline; on a tile: its neighbour on the grid
  Enter          the outlined tile alone
  click          the tile under the pointer alone; on a tile alone, back to the grid
  Esc, 0         back to the grid
  space          pause (every clock stops) and resume
  o              labels on and off
  s              screenshot of the window: ycbcrwall-NNNN.png in the current folder
  f              full screen
  q              quit (at the end of every stream the program quits too, unless -keep-open)

Clocks: timed (the default), each display step (-fps a second headless; the display's refresh,
vsync, in the window) shows for each stream the picture its clock has reached, without waiting for
any other stream: -clock each (the default) gives each stream its own, started at its first
picture; -clock shared runs every stream on one clock started at the wall's first picture, a wall
of cameras, where a stream that starts later drops what the clock has passed. -untimed draws every
picture as soon as it is decoded: the aggregate throughput. -stats prints one JSON line at the end:
the aggregate frames, fps and dropped pictures (count, share, the largest stream's share), the
canvas, the queues used, GPU and CPU milliseconds per picture, peak RSS and CPU time, and per stream
its frames, fps (between its pictures' presentation times), dropped pictures and why
(dropped_late_decode: decoded after its time; dropped_late_display: the display steps came too
late; dropped_late_conversion: the stream's GPU work was behind, no free slot), decoder, hwdec,
route, conversion path and variant, the memory it holds (gpu_memory_mb, of it
decoder_gpu_memory_mb: the decoder's frames; host_memory_mb: its decoded pictures on the host), and
its frames_replayed (submitted from commands recorded for an earlier picture of the same decoder
image) and replay_recordings; timed, the steps' times and late_steps_at_s (when each late step
came, from the first step).

Each stream's conversion runs as the device does it faster (-variant auto, measured): drawn into its
tile, or by a compute shader straight into the tile (a fitted one into the stream's own image, then
scaled into the tile). Headless, computed tiles may spread over the device's graphics queues
(-queues N, 0: one per stream).

Exit status: 0 played, 1 error (one line on stderr: "error: ..."), 2 bad flags.

Flags:
`

type options struct {
	n          int
	untimed    bool
	frames     int
	stats      bool
	hwdec      string
	path       string
	variant    string
	queues     int
	queuesSet  bool // -queues given
	devices    int
	decodeDevs string
	decodeN    int // -decode-devices as a count (auto: 0, the wall choosing)
	one        bool
	ahead      int // -ahead
	validate   bool
	device     int
	list       bool
	screenshot string
	queue      int
	clock      string
	fps        float64
	loop       int
	headless   bool
	geometry   [2]int // -geometry: the window's size (0: from the canvas)
	fullscreen bool
	keepOpen   bool
	labels     bool
	filter     ycbcr.Filter
	inputs     string // -inputs: the list of inputs
	live       decode.LiveMode
	rtsp       string // -rtsp-transport
	layout     string
	fit        bool
	submitEach bool
	sampleWait bool
	route      string
	hwRoute    stream.Route
	noAudio    bool // -no-audio
	upload     bool // -hwdec upload
	volume     int  // -volume, percent
}

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("ycbcrwall", flag.ContinueOnError)
	var o options
	cli.DeviceFlags(fs, &o.device, &o.list)
	fs.IntVar(&o.n, "n", 1, "play `N` copies of each FILE")
	fs.BoolVar(&o.untimed, "untimed", false, "draw every picture as soon as it is decoded (throughput)")
	fs.BoolVar(&o.headless, "headless", false, "draw offscreen, no window")
	geometry := fs.String("geometry", "", "the window's size in pixels, `WxH` (default: the canvas, no larger than 1280×1024)")
	fs.BoolVar(&o.fullscreen, "fs", false, "start full screen")
	fs.BoolVar(&o.keepOpen, "keep-open", false, "at the end of every stream, keep the window (the last pictures) until q")
	fs.BoolVar(&o.labels, "labels", true, "draw the tiles' labels (the o key toggles them)")
	scale := fs.String("scale", "lanczos", "the window's scale filter: `lanczos|catmull-rom|mitchell|bilinear`")
	fs.IntVar(&o.frames, "frames", 0, "stop each stream after `N` pictures (0: all)")
	fs.BoolVar(&o.stats, "stats", false, "at the end, print one JSON line of figures on stdout")
	fs.BoolVar(&o.stats, "json", false, "the same as -stats")
	fs.StringVar(&o.hwdec, "hwdec", "auto", "`auto|vulkan|no|upload`: Vulkan Video decoding on the wall's device (upload: software decoding, each picture put into FFmpeg's Vulkan frames as Vulkan Video outputs them: the hardware frames' path on any device)")
	fs.StringVar(&o.route, "hwdec-route", "auto", "`auto|inplace|copy`: how hardware-decoded pictures reach the conversion (auto: in place unless the decoder's image is padded past the picture, then copied)")
	fs.StringVar(&o.path, "path", "auto", "`auto|sampler|shader`: the conversion path of every stream")
	fs.StringVar(&o.variant, "variant", "auto", "`auto|draw|compute`: how every stream's conversion runs (auto: measured on the device; compute writes the picture into its tile)")
	fs.BoolVar(&o.one, "one-decode", false, "wait for each hardware decoding of a stream before submitting its next, instead of keeping two in flight (for comparisons)")
	fs.IntVar(&o.devices, "devices", 1, "headless: spread the streams over `N` devices of the GPU (input i on device i mod N, each drawing its tiles with steps of its own); to decode H.264 on more devices and draw on one, -decode-devices")
	fs.StringVar(&o.decodeDevs, "decode-devices", "auto", "`auto|N`: decode on N more devices of the GPU besides the wall's (input i on device i mod (N+1)), each picture copied into the wall's device: a device has a decode queue per video engine (7 on NVIDIA's H200), and H.264 streams sharing an engine decode faster through different devices' queues; auto spreads those beyond two a queue (16 streams: over 2 devices, 48: over 4)")
	fs.IntVar(&o.queues, "queues", 1, "headless: spread the streams over `N` graphics queues of each device (0: one per stream, up to the device's, the default with -devices; tiles drawn rather than copied use one; one was the fastest for HEVC on an H100)")
	fs.BoolVar(&o.validate, "validate", false, "turn on the Khronos validation layer; any message is an error")
	fs.StringVar(&o.screenshot, "screenshot", "", "at the end, write the whole canvas to `FILE` (.png, or .jpg)")
	fs.IntVar(&o.queue, "queue", 2, "decoded pictures waiting per stream (memory per stream grows with it)")
	fs.IntVar(&o.ahead, "ahead", wall.DefaultAhead, "untimed, hardware decoding: wait for a picture's decoding `N` pictures later, its stream decoding on meanwhile (1: as timed walls; memory per stream grows with it)")
	fs.StringVar(&o.clock, "clock", "each", "timed: `each|shared`: a clock per stream, started at its first picture, or one shared by all (a wall of cameras)")
	fs.Float64Var(&o.fps, "fps", 60, "timed, headless: display steps per second (the window steps at each vsync)")
	fs.IntVar(&o.loop, "loop", 1, "play each input `N` times")
	fs.StringVar(&o.inputs, "inputs", "", "read inputs from `LIST`: one URL (or path) and an optional label a line, # comments")
	live := fs.String("live", "auto", "`auto|yes|no`: read inputs as live sources (auto: udp, rtp, rtsp, rtsps, srt URLs and .m3u8 playlists; yes: every input, a pipe a live feed is written into)")
	fs.StringVar(&o.rtsp, "rtsp-transport", "", "RTSP's transport, `tcp|udp` (default: FFmpeg's choice, UDP then TCP)")
	fs.StringVar(&o.layout, "layout", "", "the tiles' cells: `SPEC` 1+5, 1+7, 2x2+8, COLSxROWS, or a FILE of \"x y w h\" lines in grid units (default: the most nearly square grid)")
	fs.BoolVar(&o.sampleWait, "sample-waits", false, "headless, timed: sample every millisecond where the display steps' thread sleeps (-stats' asleep_ms)")
	fs.BoolVar(&o.submitEach, "submit-each", false, "submit each stream's frame on its own, not a display step's frames together in one vkQueueSubmit (for comparisons)")
	fs.BoolVar(&o.fit, "fit", true, "fit every feed to its cell (aspect kept, the -scale filter); false: one pixel for one pixel")
	fs.BoolVar(&o.noAudio, "no-audio", false, "play no sound (in the window, the picked tile's)")
	fs.IntVar(&o.volume, "volume", 100, "the picked tile's sound volume in `percent`, 0 to 100")
	profile := cli.Profile(fs)
	if status, done := cli.Parse(fs, args, help, stdout, stderr); done {
		return status
	}
	fs.Visit(func(f *flag.Flag) { o.queuesSet = o.queuesSet || f.Name == "queues" })
	stopProfile, err := profile()
	if err != nil {
		return fail(stderr, "%v", err)
	}
	defer stopProfile()
	if o.list {
		return cli.ListDevices(stdout, stderr, 1)
	}
	if fs.NArg() == 0 && o.inputs == "" {
		return fail(stderr, "no FILE (ycbcrwall -h says how to use it)")
	}
	if o.live, err = decode.ParseLiveMode(*live); err != nil {
		return fail(stderr, "%v", err)
	}
	if o.rtsp != "" && o.rtsp != "tcp" && o.rtsp != "udp" {
		return fail(stderr, "-rtsp-transport %q: want tcp or udp", o.rtsp)
	}
	if err := o.check(); err != nil {
		return fail(stderr, "%v", err)
	}
	if *geometry != "" {
		var w, h int
		if n, err := fmt.Sscanf(*geometry, "%dx%d", &w, &h); err != nil || n != 2 || w < 1 || h < 1 || w > 16384 || h > 16384 {
			return fail(stderr, "-geometry %q: want WxH, 1 to 16384 each", *geometry)
		}
		o.geometry = [2]int{w, h}
	}
	if o.filter, err = ycbcr.ParseFilter(*scale); err != nil {
		return fail(stderr, "-scale: %v", err)
	}
	if o.upload = o.hwdec == "upload"; o.upload {
		o.hwdec = "no"
	}
	hw, err := decode.ParseHWDec(o.hwdec)
	if err != nil {
		return fail(stderr, "-hwdec: %v (or upload)", err)
	}
	choice, err := formats.ParseChoice(o.path)
	if err != nil {
		return fail(stderr, "-path: %v", err)
	}
	if o.hwRoute, err = stream.ParseRoute(o.route); err != nil || o.hwRoute == stream.RouteDownload {
		return fail(stderr, "-hwdec-route %q: want auto, inplace or copy", o.route)
	}
	variant, err := stream.ParseVariant(o.variant)
	if err != nil {
		return fail(stderr, "-variant: %v", err)
	}
	listed := make([]wall.Input, 0, fs.NArg())
	for _, f := range fs.Args() {
		listed = append(listed, wall.Input{URL: f})
	}
	if o.inputs != "" {
		more, err := readInputs(o.inputs)
		if err != nil {
			return fail(stderr, "%v", err)
		}
		listed = append(listed, more...)
	}
	if o.screenshot != "" {
		urls := make([]string, len(listed))
		for i, in := range listed {
			urls[i] = in.URL
		}
		if err := picfile.Check(o.screenshot, urls...); err != nil {
			return fail(stderr, "-screenshot: %v", err)
		}
	}
	var inputs []wall.Input
	for _, in := range listed {
		for i := 0; i < o.n; i++ {
			inputs = append(inputs, in)
		}
	}
	var layout *wall.Layout
	if o.layout != "" {
		l, err := wall.ParseLayout(o.layout)
		if err != nil {
			return fail(stderr, "-layout: %v", err)
		}
		if l.Cells != nil && l.Len() < len(inputs) {
			return fail(stderr, "-layout %s: %d cells for %d inputs", o.layout, l.Len(), len(inputs))
		}
		layout = &l
	}
	if err := play(o, hw, choice, variant, layout, inputs, stdout, stderr); err != nil {
		return fail(stderr, "%v", err)
	}
	return 0
}

// check says which flags do not go together or are out of range (before -hwdec upload is read,
// so o.hwdec is as given), and reads -decode-devices' count.
func (o *options) check() error {
	if o.n < 1 || o.queue < 1 || o.loop < 1 || o.ahead < 1 || o.fps <= 0 || o.queues < 0 {
		return fmt.Errorf("-n, -queue, -ahead and -loop must be at least 1, -queues at least 0, -fps above 0")
	}
	if o.devices < 1 {
		return fmt.Errorf("-devices %d: want at least 1", o.devices)
	}
	if o.devices > 1 && !o.headless {
		return fmt.Errorf("-devices %d: several devices need -headless (a window shows one device's canvas)", o.devices)
	}
	if o.decodeDevs != "auto" {
		n, err := strconv.Atoi(o.decodeDevs)
		switch {
		case err != nil || n < 0:
			return fmt.Errorf("-decode-devices %s: want auto or a count from 0", o.decodeDevs)
		case n > 0 && o.devices > 1:
			return fmt.Errorf("-decode-devices %d: not with -devices %d (each device of a split wall decodes its own streams)", n, o.devices)
		case n > 0 && o.hwdec == "no":
			return fmt.Errorf("-decode-devices %d: needs hardware decoding (-hwdec auto, vulkan or upload)", n)
		}
		o.decodeN = n
	}
	if o.devices > 1 && o.clock == "shared" {
		return fmt.Errorf("-devices %d: -clock shared needs one device (each device's streams keep their own clocks)", o.devices)
	}
	if o.queues > 1 && !o.headless {
		return fmt.Errorf("-queues %d: several queues need -headless (the window reads the canvas on one queue)", o.queues)
	}
	if o.volume < 0 || o.volume > 100 {
		return fmt.Errorf("-volume %d: want 0 to 100", o.volume)
	}
	if o.clock != "each" && o.clock != "shared" {
		return fmt.Errorf("-clock %q: want each or shared", o.clock)
	}
	return nil
}

func play(o options, hw decode.HWDec, choice formats.Choice, variant stream.Variant, layout *wall.Layout, inputs []wall.Input, stdout, stderr io.Writer) error {
	// FFmpeg's log, summarised per tile by the decoders, in notices; stderr is written from their
	// goroutines too, one line at a time.
	notice := lineWriter(stderr)
	decode.CaptureLog(notice)
	defer decode.CaptureLog(nil)
	// -queues 0: headless, one queue per stream; a window's pass reads the canvas on the first
	// queue, which tiles copied from other queues would race.
	queues := deviceQueues(o, len(inputs))
	var devs []*gpu.Device
	defer func() {
		for _, dev := range devs {
			present.CloseDevice(dev)
		}
	}()
	for range o.devices {
		dev, err := present.OpenDevice(present.DeviceParams{Headless: o.headless, GPU: gpu.Options{Index: o.device,
			Validation: o.validate, Video: hw != decode.HWDecNo, Frames: o.upload, Queues: queues, CacheDir: gpu.DefaultCacheDir(),
			Share: hw != decode.HWDecNo || o.upload}})
		if err != nil {
			return err
		}
		devs = append(devs, dev)
	}
	var decDevs []*gpu.Device // closed after the wall, before the wall's device (deferred above)
	defer func() {
		for _, dev := range decDevs {
			dev.Close()
		}
	}()
	decodeDevice := func() (*gpu.Device, error) {
		return gpu.Open(gpu.Options{Index: o.device, Validation: o.validate, Video: hw != decode.HWDecNo,
			Frames: o.upload, Share: true, CacheDir: gpu.DefaultCacheDir()})
	}
	for range o.decodeN {
		dev, err := decodeDevice()
		if err != nil {
			return fmt.Errorf("-decode-devices: %w", err)
		}
		decDevs = append(decDevs, dev)
	}
	wo := wall.Options{HWDec: hw, Upload: o.upload, Choice: choice, Variant: variant, Route: o.hwRoute, Queue: o.queue, Frames: o.frames, Loop: o.loop,
		OneClock: o.clock == "shared", OneDecode: o.one, Untimed: o.untimed, Ahead: o.ahead, Notice: notice,
		Decode: decode.Options{Live: o.live, RTSPTransport: o.rtsp}, Layout: layout, OneToOne: !o.fit, Filter: o.filter,
		Period: time.Duration(float64(time.Second) / o.fps), SubmitEach: o.submitEach, SampleWaits: o.sampleWait && o.headless,
		DecodeDevices: decDevs}
	if o.decodeDevs == "auto" && o.devices == 1 && hw != decode.HWDecNo {
		wo.OpenDecodeDevice = decodeDevice
	}
	var w shown
	var runErr error
	if len(devs) > 1 {
		sw, err := wall.OpenSplit(devs, inputs, wo)
		if err != nil {
			return err
		}
		w, runErr = sw, loopParts(sw, o)
	} else {
		ww, err := wall.Open(devs[0], inputs, wo)
		if err != nil {
			return err
		}
		w = ww
		if o.headless {
			runErr = loop(ww, o, nil)
		} else {
			runErr = show(ww, devs[0], o, notice, stderr)
		}
	}
	var shotErr error
	if runErr == nil && o.screenshot != "" {
		shotErr = screenshot(w, o.screenshot)
	}
	st := w.Stats()
	w.Close()
	for _, dev := range devs {
		if err := dev.ValidationError(stderr); err != nil {
			return err
		}
	}
	if runErr != nil {
		return runErr
	}
	if shotErr != nil {
		return shotErr
	}
	if o.stats {
		b, err := json.Marshal(st)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%s\n", b)
	}
	return nil
}

// deviceQueues is how many graphics queues each device of a wall of n inputs is made with: -queues,
// whose 0 is one per stream of the device (headless). Spread over devices the default is one per
// stream: on one queue each, a device's 24 H.264 streams fell behind decoding (H200: 48 streams
// on two devices dropped 15.3 % of their pictures, 0.43 % with a queue per stream;
// docs/performance.md, "Live walls").
func deviceQueues(o options, n int) int {
	q := o.queues
	if o.devices > 1 && !o.queuesSet {
		q = 0
	}
	if q == 0 && o.headless {
		q = (n + o.devices - 1) / o.devices
	}
	return q
}

// shown is a wall on one device (wall.Wall) or spread over several (wall.Split).
type shown interface {
	Stats() wall.Stats
	Screenshot() (*image.RGBA, error)
	Close()
}

// loopParts runs each part of a wall spread over devices headless (loop), side by side; the first
// error ends them all.
func loopParts(s *wall.Split, o options) error {
	errs := make(chan error, len(s.Parts()))
	quit := make(chan struct{})
	for _, w := range s.Parts() {
		go func() { errs <- loop(w, o, quit) }()
	}
	var first error
	for range s.Parts() {
		if err := <-errs; err != nil && first == nil {
			first = err
			close(quit)
		}
	}
	return first
}

// loop runs the wall headless to the end of every stream, or to SIGINT/SIGTERM, or until quit
// closes (nil: never).
func loop(w *wall.Wall, o options, quit <-chan struct{}) error {
	defer w.LockSteps()() // one thread for the steps, off the GPU's interrupts' CPUs
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sig)
	if !o.untimed {
		if err := w.Prepare(prepareTimeout); err != nil {
			return err
		}
	}
	tick := time.NewTicker(time.Duration(float64(time.Second) / o.fps))
	defer tick.Stop()
	for !w.Ended() {
		select {
		case <-sig:
			return nil
		case <-quit:
			return nil
		default:
		}
		if o.untimed {
			if _, err := w.Step(); err != nil {
				return err
			}
			continue
		}
		// Every step on a tick, the first too: a stream's clock starts at the step that shows its
		// first picture, so a first step off the ticks' phase would put the streams it starts
		// off the later steps' phase, nearer the half period where a step's lateness drops a
		// picture (the H200's walls: the streams started by an untimed first step dropped 2-3
		// times as many).
		<-tick.C
		if _, err := w.Tick(time.Now()); err != nil {
			return err
		}
	}
	return nil
}

// prepareTimeout bounds the wait for the streams' first pictures before a timed headless run (a
// live feed's first picture may take longer: its tile starts in the step that shows it).
const prepareTimeout = 3 * time.Second

func screenshot(w shown, path string) error {
	img, err := w.Screenshot()
	if err != nil {
		return err
	}
	if err := picfile.Write(path, img); err != nil {
		return fmt.Errorf("-screenshot: %w", err)
	}
	return nil
}

// lineWriter gives a function that writes "notice: " and a line to w, one caller at a time.
func lineWriter(w io.Writer) func(string) {
	var mu sync.Mutex
	return func(s string) {
		mu.Lock()
		defer mu.Unlock()
		fmt.Fprintf(w, "notice: %s\n", s)
	}
}

// fail prints one "error: ..." line and returns exit status 1.
func fail(stderr io.Writer, format string, a ...any) int { return cli.Fail(stderr, 1, format, a...) }
