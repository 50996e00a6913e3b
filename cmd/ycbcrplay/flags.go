package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/ycbcrkit/ycbcrkit/decode"
	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/internal/app/cli"
	"github.com/ycbcrkit/ycbcrkit/internal/lcms"
	"github.com/ycbcrkit/ycbcrkit/planes"
	"github.com/ycbcrkit/ycbcrkit/player"
	"github.com/ycbcrkit/ycbcrkit/present/window"
	"github.com/ycbcrkit/ycbcrkit/stream"
	"github.com/ycbcrkit/ycbcrkit/ycbcr"
)

// options is what the command line asks for: the player's Config, and what the program does
// around it (the inputs, their decoding and sound, the figures).
type options struct {
	help, list, stats bool
	keepTeardown      bool    // -teardown: destroy the device and close the decoder at exit, always
	inputs            []input // played in order; none: the bundled default clip
	decode            decodeOptions
	sound             soundOptions
	subs              subOptions // -sid, -sub-file, -sub-delay, -sub-scale (subs.go)
	resume            resumeOptions
	ipcPath           string // -input-ipc-server: mpv's JSON IPC on this Unix socket
	cfg               player.Config
	// mpv's (mpvargs.go): --idle (yes, once, "" no), --version, --really-quiet and the like (only
	// the error line on stderr), and the notices of mpv's options that do not apply.
	idle    string
	version bool
	// -thumbnails DIR N, -thumbnail-width W (thumbnail.go).
	thumbDir          string
	thumbN, thumbSize int
	quiet             bool
	notices           []string
}

// decodeOptions is how the inputs are read and decoded.
type decodeOptions struct {
	threads     int // decoder threads; 0: half the cores
	deinterlace decode.Deinterlace
	hwdec       decode.HWDec
	hwDownload  bool          // -hwdec-route download: hardware frames copied to the CPU and uploaded
	hwUpload    bool          // -hwdec upload: software pictures uploaded into FFmpeg's Vulkan frames
	vid         int           // -vid (0: the best stream)
	timeout     time.Duration // -timeout: decode.Options.Timeout (0: the default, negative: no limit)
	ffmpegLog   bool          // -v: FFmpeg's own log on stderr
	cacheMB     int64         // -cache-size: the read-ahead cache of pipes and network inputs, MB
}

// soundOptions is the sound played with the video.
type soundOptions struct {
	aid, volume int  // -aid (0: the best stream), -volume in percent
	off         bool // -no-audio
	mute        bool // --mute: the sound starts muted
}

// resumeOptions is where a play starts and what is kept at a quit (watch_later, resume.go).
type resumeOptions struct {
	save       bool // -save-position-on-quit: keep the position at quit
	off        bool // -no-resume: ignore a kept position
	startGiven bool // -start was given: it wins over a kept position
}

// input is one FILE of the command line.
type input struct {
	url, name string
	stdin     bool // FILE is -: standard input, through FFmpeg's pipe protocol
	// loadfile's per-file options (playlist.go): where it starts, paused or not (nil: the
	// command line's).
	start *float64
	pause *bool
}

// usageError is a malformed command line; bad values are plain errors. Both exit with status 2.
type usageError struct{ error }

// A flagGroup is one concern's flags (as player.Config groups them): add defines them on the flag
// set, read checks their values into the options once the command line is parsed.
type flagGroup interface {
	add(fs *flag.FlagSet)
	read(o *options) error
}

// parseArgs reads the command line. It opens nothing (no file, no device, no window), so that it can
// be fuzzed; run does the rest.
func parseArgs(args []string) (options, error) {
	var o options
	fs := flag.NewFlagSet("ycbcrplay", flag.ContinueOnError)
	fs.BoolVar(&o.stats, "stats", false, "")
	fs.BoolVar(&o.stats, "json", false, "") // the toolkit's common name for JSON figures on stdout
	fs.BoolVar(&o.list, "list-devices", false, "")
	fs.BoolVar(&o.keepTeardown, "teardown", false, "")
	// Read before parsing, by withConfig (config.go): here only so that they parse.
	fs.String("config", "", "")
	fs.Bool("no-config", false, "")
	fs.String("profile", "", "")
	groups := []flagGroup{&outputFlags{}, &convertFlags{}, &viewFlags{}, &gpuFlags{}, &decodeFlags{},
		&soundFlags{}, &playbackFlags{}, &colourFlags{}, &qualityFlags{}, &resumeFlags{}, &ipcFlags{},
		&subFlags{}, &mpvFlags{}, &thumbFlags{}}
	for _, g := range groups {
		g.add(fs)
	}
	mpvBools(fs)
	args, o.notices = mpvArgs(fs, args)
	// -thumbnails DIR N: N is the word after DIR.
	for i := 0; i+2 < len(args); i++ {
		if a := strings.TrimPrefix(args[i], "-"); a == "thumbnails" || a == "-thumbnails" {
			if _, err := strconv.Atoi(args[i+2]); err == nil {
				args = append(args[:i:i], append([]string{"-thumbnails=" + args[i+1], "-thumbnail-count=" + args[i+2]}, args[i+3:]...)...)
			}
			break
		}
	}
	// Flags may come before or after FILE, as with most players.
	files, err := cli.ParseMixed(fs, args)
	switch {
	case err == flag.ErrHelp:
		o.help = true
		return o, nil
	case err != nil:
		return o, usageError{err}
	}
	if o.list || o.version {
		return o, nil
	}
	if o.inputs, err = inputs(files); err != nil {
		return o, err
	}
	for _, g := range groups {
		if err := g.read(&o); err != nil {
			return o, err
		}
	}
	return o, nil
}

// inputs are the FILE arguments as the player opens them.
func inputs(files []string) ([]input, error) {
	var in []input
	for _, f := range files {
		if f == "" {
			// An empty FILE (an unset "$VAR") would otherwise mean "no FILE": the default clip.
			return nil, usageError{fmt.Errorf("empty FILE argument")}
		}
		i := input{url: f, name: filepath.Base(f)}
		if f == "-" {
			if len(files) > 1 {
				return nil, usageError{fmt.Errorf("- (standard input) plays alone: it cannot be played again or returned to")}
			}
			// FFmpeg's pipe protocol on file descriptor 0 (https://ffmpeg.org/ffmpeg-protocols.html#pipe).
			i = input{url: "pipe:0", name: "stdin", stdin: true}
		}
		in = append(in, i)
	}
	return in, nil
}

// outputFlags are player.OutputConfig's.
type outputFlags struct {
	headless, fullscreen *bool
	geometry, screenshot *string
	shotWindow           *bool
}

func (f *outputFlags) add(fs *flag.FlagSet) {
	f.headless = fs.Bool("headless", !window.Available(), "")
	f.fullscreen = fs.Bool("fs", false, "")
	f.geometry = fs.String("geometry", "", "")
	f.screenshot = fs.String("screenshot", "", "")
	f.shotWindow = fs.Bool("screenshot-window", false, "")
}

func (f *outputFlags) read(o *options) error {
	c := &o.cfg.Output
	c.Headless, c.Fullscreen, c.Screenshot, c.ScreenshotWindow = *f.headless, *f.fullscreen, *f.screenshot, *f.shotWindow
	g := *f.geometry
	if g == "" {
		return nil
	}
	// mpv's [W[xH]][+-x+-y] and W%: a size in pixels is taken, a position or a percentage noticed.
	m := mpvGeometry.FindStringSubmatch(g)
	if m == nil {
		return fmt.Errorf("bad -geometry %q: WxH, 1 to 16384 each (mpv's WxH+X+Y is taken too)", g)
	}
	if m[1] != "" && m[2] != "" && !strings.Contains(m[1]+m[2], "%") {
		w, _ := strconv.Atoi(m[1])
		h, _ := strconv.Atoi(m[2])
		if w < 1 || h < 1 || w > 16384 || h > 16384 {
			return fmt.Errorf("bad -geometry %q: WxH, 1 to 16384 each", g)
		}
		c.Width, c.Height = w, h
		if m[3] != "" {
			o.notices = append(o.notices, fmt.Sprintf("notice: -geometry %s: the window's position is left to the window manager", g))
		}
		return nil
	}
	o.notices = append(o.notices, fmt.Sprintf("notice: -geometry %s: only WxH in pixels sets the size here: ignored", g))
	return nil
}

// mpvGeometry is mpv's --geometry: [W[xH]][+-X+-Y], W and H in pixels or percent.
var mpvGeometry = regexp.MustCompile(`^(?:(\d+%?)(?:x(\d+%?))?)?([+-]\d+%?[+-]\d+%?)?$`)

// convertFlags are player.ConvertConfig's, but -hwdec-route download (decodeFlags).
type convertFlags struct{ path, compare, variant, upload *string }

func (f *convertFlags) add(fs *flag.FlagSet) {
	f.path = fs.String("path", "auto", "")
	f.compare = fs.String("compare", "off", "")
	f.variant = fs.String("conversion", "auto", "")
	f.upload = fs.String("upload", "auto", "")
}

func (f *convertFlags) read(o *options) error {
	c := &o.cfg.Convert
	var err error
	if c.Path, err = formats.ParseChoice(*f.path); err != nil {
		return err
	}
	if c.Compare, err = player.ParseCompare(*f.compare); err != nil {
		return err
	}
	if c.Variant, err = stream.ParseVariant(*f.variant); err != nil {
		return err
	}
	if c.Upload, err = planes.ParseUpload(*f.upload); err != nil || c.Upload == planes.UploadDirect {
		return fmt.Errorf("bad -upload %q: auto, copy or import", *f.upload)
	}
	return nil
}

// viewFlags are player.ViewConfig's.
type viewFlags struct {
	scale, zoom, rotate *string
	scaleDraw           *bool
}

func (f *viewFlags) add(fs *flag.FlagSet) {
	f.scale = fs.String("scale", ycbcr.DefaultFilter.String(), "")
	f.scaleDraw = fs.Bool("scale-draw", false, "")
	f.zoom = fs.String("zoom", "fit", "")
	f.rotate = fs.String("rotate", "auto", "")
}

func (f *viewFlags) read(o *options) error {
	c := &o.cfg.View
	var err error
	if c.Filter, err = ycbcr.ParseFilter(*f.scale); err != nil {
		return err
	}
	c.ScaleDraw = *f.scaleDraw
	if c.Zoom, err = player.ParseZoom(*f.zoom); err != nil {
		return err
	}
	r, err := player.ParseRotate(*f.rotate)
	if err != nil {
		return err
	}
	if r >= 0 {
		c.Rotate = &r
	}
	return nil
}

// gpuFlags are player.GPUConfig's (GPU.Video follows -hwdec: decodeFlags).
type gpuFlags struct {
	device   *int
	validate *bool
	cache    *string
}

func (f *gpuFlags) add(fs *flag.FlagSet) {
	f.device = fs.Int("device", -1, "")
	f.validate = fs.Bool("validate", false, "")
	f.cache = fs.String("cache", defaultCacheDir(), "")
}

func (f *gpuFlags) read(o *options) error {
	c := &o.cfg.GPU
	c.Device, c.Validate, c.CacheDir = *f.device, *f.validate, *f.cache
	if c.CacheDir == "off" {
		c.CacheDir = ""
	}
	return nil
}

// decodeFlags are decodeOptions', and player.GPUConfig.Video and Frames (-hwdec) and
// player.ConvertConfig.HWRoute (-hwdec-route).
type decodeFlags struct {
	deinterlace, hwdec, hwroute *string
	timeout                     *float64
	d                           decodeOptions
}

func (f *decodeFlags) add(fs *flag.FlagSet) {
	fs.IntVar(&f.d.threads, "threads", 0, "")
	f.deinterlace = fs.String("deinterlace", "auto", "")
	f.hwdec = fs.String("hwdec", "auto", "")
	f.hwroute = fs.String("hwdec-route", "auto", "")
	fs.IntVar(&f.d.vid, "vid", 0, "")
	f.timeout = fs.Float64("timeout", decode.DefaultTimeout.Seconds(), "")
	fs.BoolVar(&f.d.ffmpegLog, "v", false, "")
	fs.Int64Var(&f.d.cacheMB, "cache-size", defaultCacheMB, "")
}

func (f *decodeFlags) read(o *options) error {
	d := f.d
	var err error
	if h := *f.hwdec; mpvHWDecs[h] {
		// mpv's other decoders (front-ends pass --hwdec=auto-safe, vaapi, nvdec...): Vulkan Video
		// where the device has it, as auto.
		o.notices = append(o.notices, fmt.Sprintf("notice: -hwdec %s: mpv's decoder; ycbcrplay decodes with Vulkan Video or in software: auto", h))
		*f.hwdec = "auto"
	}
	if *f.hwdec == "upload" {
		// Software decoding, each picture then in FFmpeg's Vulkan frames (decoderSource.Next).
		d.hwdec, d.hwUpload, o.cfg.GPU.Frames = decode.HWDecNo, true, true
	} else if d.hwdec, err = decode.ParseHWDec(*f.hwdec); err != nil {
		return fmt.Errorf("-hwdec %q: want auto, vulkan, no or upload", *f.hwdec)
	}
	o.cfg.GPU.Video = d.hwdec != decode.HWDecNo
	if o.cfg.Convert.HWRoute, err = stream.ParseRoute(*f.hwroute); err != nil {
		return err
	}
	d.hwDownload = o.cfg.Convert.HWRoute == stream.RouteDownload
	if d.deinterlace, err = decode.ParseDeinterlace(*f.deinterlace); err != nil {
		return err
	}
	if d.threads < 0 {
		return fmt.Errorf("bad -threads %d: must be ≥ 0", d.threads)
	}
	if d.vid < 0 {
		return fmt.Errorf("bad -vid %d: a video stream number from 1", d.vid)
	}
	if d.cacheMB < 0 || d.cacheMB > 1<<20 {
		return fmt.Errorf("bad -cache-size %d: MB, 0 (none) to 1048576", d.cacheMB)
	}
	switch t := *f.timeout; {
	case !(t >= 0 && t <= 86400):
		return fmt.Errorf("bad -timeout %g: seconds, 0 (no limit) to 86400", t)
	case t == 0:
		d.timeout = -1 // decode.Options: negative is no limit
	default:
		d.timeout = max(time.Millisecond, time.Duration(t*float64(time.Second)))
	}
	o.decode = d
	return nil
}

// mpvHWDecs are mpv's --hwdec values that name decoders this player does not have
// (https://mpv.io/manual/stable/#options-hwdec).
var mpvHWDecs = map[string]bool{"yes": true, "auto-safe": true, "auto-copy": true, "auto-copy-safe": true,
	"vaapi": true, "vaapi-copy": true, "nvdec": true, "nvdec-copy": true, "cuda": true, "cuda-copy": true,
	"vdpau": true, "vdpau-copy": true, "vulkan-copy": true, "drm": true, "drm-copy": true, "v4l2m2m": true,
	"v4l2m2m-copy": true, "d3d11va": true, "d3d11va-copy": true, "dxva2": true, "dxva2-copy": true,
	"videotoolbox": true, "videotoolbox-copy": true, "mediacodec": true, "mediacodec-copy": true, "rkmpp": true}

// soundFlags are soundOptions'.
type soundFlags struct {
	s      soundOptions
	aid    *string
	volume *float64
}

func (f *soundFlags) add(fs *flag.FlagSet) {
	f.aid = fs.String("aid", "auto", "")
	fs.BoolVar(&f.s.off, "no-audio", false, "")
	f.volume = fs.Float64("volume", 100, "")
}

func (f *soundFlags) read(o *options) error {
	switch a := *f.aid; a {
	case "auto": // mpv's default: the best stream
	case "no": // mpv's --aid=no
		f.s.off = true
	default:
		n, err := strconv.Atoi(a)
		if err != nil || n < 1 {
			return fmt.Errorf("bad -aid %q: an audio stream number from 1, auto or no", a)
		}
		f.s.aid = n
	}
	v := *f.volume
	if !(v >= 0 && v <= 1000) {
		return fmt.Errorf("bad -volume %g: 0 to 100", v)
	}
	if v > 100 {
		// mpv amplifies up to --volume-max (130); this player's sound stops at 100 %.
		o.notices = append(o.notices, fmt.Sprintf("notice: -volume %g: 100 at most here", v))
		v = 100
	}
	f.s.volume = int(v + 0.5)
	o.sound = f.s
	return nil
}

// playbackFlags are player.PlaybackConfig's.
type playbackFlags struct {
	frames, ahead         *int
	untimed               *bool
	loop, start, abA, abB *string
	speed                 *float64
	// Display-synced timing (player.PlaybackConfig.VideoSync).
	videoSync, tscale *string
	displayFPS        *float64
	interpolation     *bool
}

func (f *playbackFlags) add(fs *flag.FlagSet) {
	f.frames = fs.Int("frames", 0, "")
	f.untimed = fs.Bool("untimed", false, "")
	f.loop = fs.String("loop", "1", "")
	f.start = fs.String("start", "", "")
	f.speed = fs.Float64("speed", 1, "")
	f.ahead = fs.Int("decode-ahead", -1, "") // -1: what the pipeline needs (player.Config 0)
	f.abA = fs.String("ab-loop-a", "", "")
	f.abB = fs.String("ab-loop-b", "", "")
	f.videoSync = fs.String("video-sync", "audio", "")
	f.displayFPS = fs.Float64("display-fps", 0, "")
	fs.Float64Var(f.displayFPS, "override-display-fps", 0, "") // mpv's name
	f.interpolation = fs.Bool("interpolation", false, "")
	f.tscale = fs.String("tscale", "linear", "")
}

func (f *playbackFlags) read(o *options) error {
	c := &o.cfg.Playback
	c.Frames, c.Untimed = *f.frames, *f.untimed
	if c.Frames < 0 {
		return fmt.Errorf("bad -frames %d: must be ≥ 0", c.Frames)
	}
	if o.resume.startGiven = *f.start != ""; o.resume.startGiven {
		var err error
		if c.Start, err = parseTime(*f.start); err != nil {
			return err
		}
	}
	for _, ab := range []struct {
		name string
		v    string
		to   **float64
	}{{"-ab-loop-a", *f.abA, &c.ABLoopA}, {"-ab-loop-b", *f.abB, &c.ABLoopB}} {
		if ab.v == "" || ab.v == "no" {
			continue
		}
		t, err := parseTime(ab.v)
		if err != nil {
			return fmt.Errorf("bad %s %q: seconds or [[h:]m:]s, or no", ab.name, ab.v)
		}
		*ab.to = &t
	}
	if c.Speed = *f.speed; !(c.Speed >= 0.1 && c.Speed <= 16) {
		return fmt.Errorf("bad -speed %g: 0.1 to 16", c.Speed)
	}
	var err error
	if c.VideoSync, err = player.ParseVideoSync(*f.videoSync); err != nil {
		// mpv's other modes, as front-ends may pass them: the nearest of the two.
		switch v := *f.videoSync; v {
		case "display-resample-vdrop", "display-resample-desync", "display-tempo", "display-vdrop", "display-adrop", "display-desync":
			c.VideoSync = player.SyncDisplayResample
			o.notices = append(o.notices, fmt.Sprintf("notice: -video-sync %s: mpv's mode; ycbcrplay has display-resample and audio: display-resample", v))
		case "desync":
			o.notices = append(o.notices, "notice: -video-sync desync: mpv's mode; ycbcrplay has display-resample and audio: audio")
		default:
			return err
		}
	}
	if c.DisplayFPS = *f.displayFPS; c.DisplayFPS != 0 && !(c.DisplayFPS >= 1 && c.DisplayFPS <= 1000) {
		return fmt.Errorf("bad -display-fps %g: 1 to 1000 Hz", c.DisplayFPS)
	}
	if ts, err := player.ParseTScale(*f.tscale); err != nil {
		return err
	} else if *f.interpolation {
		c.TScale, c.VideoSync = ts, player.SyncDisplayResample
	}
	if a := *f.ahead; a < -1 || a > 1<<20 {
		return fmt.Errorf("bad -decode-ahead %d: MB, 0 to 1048576", a)
	}
	switch c.DecodeAhead = *f.ahead << 20; *f.ahead {
	case -1:
		c.DecodeAhead = 0
	case 0:
		c.DecodeAhead = -1
	}
	if *f.loop == "inf" {
		c.Loop = -1
	} else if n, err := strconv.Atoi(*f.loop); err == nil && n >= 1 {
		c.Loop = n
	} else {
		return fmt.Errorf("bad -loop %q: a number of plays ≥ 1, or inf", *f.loop)
	}
	if len(o.inputs) > 0 && o.inputs[0].stdin && c.Loop != 1 {
		return fmt.Errorf("-loop %s: standard input (-) is read once and cannot be played again", *f.loop)
	}
	return nil
}

// colourFlags are player.ColourConfig's.
type colourFlags struct {
	matrix, rng, loc, tone, peak, icc *string
	hdr                               *bool
}

func (f *colourFlags) add(fs *flag.FlagSet) {
	f.matrix = fs.String("matrix", "", "")
	f.rng = fs.String("range", "", "")
	f.loc = fs.String("chroma-loc", "", "")
	f.tone = fs.String("tonemap", "bt2390", "")
	f.peak = fs.String("hdr-peak", "auto", "")
	f.hdr = fs.Bool("hdr-output", false, "")
	f.icc = fs.String("icc-profile", "", "")
}

func (f *colourFlags) read(o *options) error {
	c := &o.cfg.Colour
	var err error
	if c.Tone, err = ycbcr.ParseToneCurve(*f.tone); err != nil {
		return err
	}
	c.HDROutput = *f.hdr
	c.ICCFromDisplay = *f.icc == ""
	if c.ICCProfile, err = readProfile(*f.icc); err != nil {
		return err
	}
	if c.HDRPeak, err = player.ParseHDRPeak(*f.peak); err != nil {
		return err
	}
	if c.Matrix, err = override(*f.matrix, formats.ParseMatrix); err != nil {
		return err
	}
	if c.Range, err = override(*f.rng, formats.ParseRange); err != nil {
		return err
	}
	c.ChromaLocation, err = override(*f.loc, formats.ParseChromaLocation)
	return err
}

// readProfile reads -icc-profile's file (none for "", the display's own, or off) and checks that LittleCMS takes it as an RGB profile, so
// that a wrong file fails before a window opens (nil when none is given). Without liblcms2 a profile
// asked for is an error, not a notice: the colours shown would silently be the uncorrected ones.
func readProfile(path string) ([]byte, error) {
	if path == "" || path == "off" {
		return nil, nil
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("-icc-profile: %w", err)
	}
	p, err := lcms.Open(b)
	if err != nil {
		return nil, fmt.Errorf("-icc-profile %s: %w", path, err)
	}
	p.Close()
	return b, nil
}

// override is a metadata override: nil when s is empty (the stream's own).
func override[T any](s string, parse func(string) (T, error)) (*T, error) {
	if s == "" {
		return nil, nil
	}
	v, err := parse(s)
	if err != nil {
		return nil, err
	}
	return &v, nil
}

// qualityFlags are player.QualityConfig's.
type qualityFlags struct {
	dither, debandParams *string
	shotDither, deband   *bool
}

func (f *qualityFlags) add(fs *flag.FlagSet) {
	f.dither = fs.String("dither", "auto", "")
	f.shotDither = fs.Bool("screenshot-dither", false, "")
	f.deband = fs.Bool("deband", false, "")
	f.debandParams = fs.String("deband-params", "", "")
}

func (f *qualityFlags) read(o *options) error {
	c := &o.cfg.Quality
	var err error
	if c.Dither, err = player.ParseDither(*f.dither); err != nil {
		return err
	}
	c.ScreenshotDither = *f.shotDither
	if *f.deband {
		if c.Deband, err = ycbcr.ParseDeband(*f.debandParams); err != nil {
			return fmt.Errorf("-deband-params: %w", err)
		}
	} else if *f.debandParams != "" {
		return fmt.Errorf("-deband-params without -deband")
	}
	return nil
}

// resumeFlags are resumeOptions' (-start: playbackFlags).
type resumeFlags struct{ save, off *bool }

func (f *resumeFlags) add(fs *flag.FlagSet) {
	f.save = fs.Bool("save-position-on-quit", false, "")
	f.off = fs.Bool("no-resume", false, "")
}

func (f *resumeFlags) read(o *options) error {
	o.resume.save, o.resume.off = *f.save, *f.off
	return nil
}

// ipcFlags are the JSON IPC's.
type ipcFlags struct{ path *string }

func (f *ipcFlags) add(fs *flag.FlagSet) {
	f.path = new(string)
	fs.StringVar(f.path, "input-ipc-server", "", "")
	fs.StringVar(f.path, "input-unix-socket", "", "") // mpv's name before 0.17, which node-mpv may pass
}

func (f *ipcFlags) read(o *options) error {
	o.ipcPath = *f.path
	return nil
}

// subFlags are subOptions'.
type subFlags struct {
	sid *string
	s   subOptions
}

func (f *subFlags) add(fs *flag.FlagSet) {
	f.sid = fs.String("sid", "auto", "")
	fs.Var(&f.s.files, "sub-file", "")
	fs.Float64Var(&f.s.delay, "sub-delay", 0, "")
	fs.Float64Var(&f.s.scale, "sub-scale", 1, "")
}

func (f *subFlags) read(o *options) error {
	var err error
	if f.s.sid, err = parseSID(*f.sid); err != nil {
		return err
	}
	if f.s.scale < 0 || f.s.scale > 100 {
		return fmt.Errorf("bad -sub-scale %g: 0 to 100", f.s.scale)
	}
	o.subs = f.s
	return nil
}

// thumbFlags are -thumbnails DIR N and -thumbnail-width W (thumbnail.go).
type thumbFlags struct {
	dir      *string
	n, width *int
}

func (f *thumbFlags) add(fs *flag.FlagSet) {
	f.dir = fs.String("thumbnails", "", "")
	f.n = fs.Int("thumbnail-count", 0, "")
	f.width = fs.Int("thumbnail-width", thumbnailWidth, "")
}

func (f *thumbFlags) read(o *options) error {
	o.thumbDir, o.thumbN, o.thumbSize = *f.dir, *f.n, *f.width
	if o.thumbDir == "" {
		return nil
	}
	if o.thumbN < 1 || o.thumbN > 10000 {
		return fmt.Errorf("-thumbnails %s N: N from 1 to 10000", o.thumbDir)
	}
	if o.thumbSize < 0 || o.thumbSize > 16384 {
		return fmt.Errorf("bad -thumbnail-width %d: 0 (the video's) to 16384", o.thumbSize)
	}
	return nil
}
