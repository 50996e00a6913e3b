package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/ycbcrkit/ycbcrkit/decode"
	"github.com/ycbcrkit/ycbcrkit/internal/avx"
	"github.com/ycbcrkit/ycbcrkit/player"
	"github.com/ycbcrkit/ycbcrkit/present/window"
)

// fileStart is when the program began, then when the last file's playback ended: from there to
// playback is -stats startup_ms.before_play.
var fileStart = time.Now()

// onOpening is every file's player.Hooks.OnOpening (tests press keys from it: TestMain).
var onOpening func(p *player.Player, waited time.Duration)

// keyScript, if set, gives the keys to press after the n-th presented frame, headless too, through
// player.Hooks.Keys (tests script seeks and screenshots with it: TestMain, YCBCRPLAY_TEST_KEYS).
var keyScript func(n int) []window.Key

// playing is one input's playback: what its opener opened (on the opener's goroutine, read only
// once opened is closed), for playFile to report and close.
type playing struct {
	in      input
	o       options
	threads int
	stderr  io.Writer
	// url is what FFmpeg opens (a named pipe's descriptor once opened); pipe: it cannot seek.
	url  string
	pipe bool
	// fail writes err as the error line; for a named pipe with the file's name for the descriptor.
	fail      func(stderr io.Writer, err error) int
	cleanups  []func() // run in reverse after playback
	d         *decode.Decoder
	src       *decoderSource
	status    *progress // -headless on a terminal: a status line (progress.go)
	openInput time.Duration
	opened    chan struct{}
	shown     int // the decoder's notices printed; they accumulate (conversions met mid-stream add theirs)
}

// notices prints the decoder's notices not printed yet.
func (f *playing) notices() {
	all := f.d.Notices()
	for _, n := range all[f.shown:] {
		fmt.Fprintln(f.stderr, n)
	}
	f.shown = len(all)
}

// playFile plays one input; with -stats it prints the input's figures as one JSON line. A non-zero
// code is the exit status (the error line written).
//
// The input is opened by player.PlayOpening's Opener (playing.open): headless before the device,
// in a window on its own goroutine while the window, open already, shows "opening NAME…" and
// answers q, Esc, closing and the list's keys (issue 18: a FIFO or pipe whose writer stalled
// mid-probe, a slow URL).
func playFile(in input, o options, cfg player.Config, threads int, stdout, stderr io.Writer) (*player.Stats, int) {
	if !cfg.Output.Headless {
		// In a window the opener writes its notices while the player logs from the main thread.
		stderr = &syncWriter{w: stderr}
		cfg.Hooks.Log = stderr
	}
	f := &playing{in: in, o: o, threads: threads, stderr: stderr, url: in.url, pipe: in.stdin, fail: fail,
		opened: make(chan struct{})}
	if o.decode.timeout > 0 { // any stretch without a new picture (the first: openDeadline)
		cfg.Playback.Timeout = o.decode.timeout
	}
	f.hook(&cfg)
	resumable := f.resume(&cfg)
	beforePlay := time.Since(fileStart)
	st, err := player.PlayOpening(in.name, func(stop <-chan struct{}) (player.Input, error) {
		defer close(f.opened)
		return f.open(cfg, stop)
	}, cfg)
	fileStart = time.Now()
	if err == nil && st != nil && st.Opened && resumable {
		f.keep(st)
	}
	select {
	case <-f.opened:
		defer func() {
			for i := len(f.cleanups) - 1; i >= 0; i-- {
				f.cleanups[i]()
			}
		}()
	default:
		// Quit while the input was opening, and the open did not end in time (PlayOpening's notice):
		// it still uses what it opened. The list ends (q) or goes on, and the process's exit frees it.
		if err != nil {
			return nil, fail(stderr, err) // not f.fail: the opener may still set it
		}
		return st, 0
	}
	if f.d == nil || err == nil && !st.Opened {
		// Ended before the input opened: a signal (run exits with its status), q, Esc, closing the
		// window, or the list's keys. Nothing played: no figures.
		if err == nil || errors.Is(err, avx.ErrStopped) || errors.Is(err, decode.ErrInterrupted) && stopped(cfg.Hooks.Stop) {
			if st == nil {
				st = &player.Stats{End: player.EndQuit}
			}
			return st, 0
		}
		return nil, f.fail(stderr, err)
	}
	return f.report(st, err, cfg, beforePlay, stdout)
}

// open opens the input: its decoder (software until the player hands its device over:
// decoderSource.UseDevice), and its sound. stop is closed by a signal, or in a window by q, Esc or
// closing it, while FFmpeg opens and probes the input (a writer that stalled after a few bytes),
// and only then.
func (f *playing) open(cfg player.Config, stop <-chan struct{}) (player.Input, error) {
	tOpen := time.Now()
	if err := f.openPipe(stop); err != nil {
		return player.Input{}, err
	}
	dec := f.o.decode
	// Pipes and network streams are read once: through the read-ahead cache (an MP4 whose moov box
	// is at the end, seeks back inside what was read).
	var cache int64
	if f.pipe || isNetwork(f.url) {
		cache = dec.cacheMB << 20
	}
	var err error
	var deadline *openDeadline // -timeout bounds the whole opening too
	openStop := stop
	if dec.timeout > 0 {
		deadline = newOpenDeadline(f.in.name, stop, dec.timeout)
		f.cleanups = append(f.cleanups, deadline.close)
		openStop = deadline.stop
	}
	f.d, err = decode.Open(f.url, decode.Options{Threads: f.threads, HWDec: decode.HWDecNo, Deinterlace: dec.deinterlace,
		Video: dec.vid, Timeout: dec.timeout, Stop: openStop, CacheSize: cache})
	if err != nil {
		return player.Input{}, deadline.explain(err)
	}
	// Opened: from here the sound, the subtitles and the device take their own time, and the
	// player's pump bounds the wait for each picture (Config.Playback.Timeout).
	deadline.off()
	f.notices()
	var input player.Input
	if sound := !f.o.sound.off && !cfg.Playback.Untimed && !cfg.Output.Headless; sound && f.pipe {
		fmt.Fprintf(f.stderr, "notice: %s plays without sound (the pipe is read once, by the video decoder)\n",
			map[bool]string{true: "standard input", false: f.in.name}[f.in.stdin])
	} else if sound {
		if snd := openSound(f.url, f.in.name, f.d.Info(), f.o, stop, f.stderr); snd != nil {
			f.cleanups = append(f.cleanups, snd.close)
			input.Sound = player.SoundConfig{Clock: snd.out, Info: snd.info()}
		}
	}
	if subs := openSubtitles(f.url, f.pipe, f.d.Info().Start, f.o.subs, dec.timeout, stop, f.stderr); subs != nil {
		f.cleanups = append(f.cleanups, subs.Close)
		input.Subtitles = subs
	}
	if stopped(stop) {
		// A signal (or q) while the sound or the subtitles opened (a -sub-file pipe with no
		// writer): end as a stopped video open does, before the device is made for a playback that
		// is to end at once (player.Opener: end soon once stop is closed).
		f.d.Close()
		f.d = nil
		return player.Input{}, avx.ErrStopped
	}
	f.src = &decoderSource{d: f.d, name: f.in.name, hwdec: dec.hwdec, download: dec.hwDownload, upload: dec.hwUpload, pipe: f.pipe,
		cached: cache > 0, live: decode.IsLive(f.url), notify: func(n string) { fmt.Fprintln(f.stderr, n) }}
	input.Source = f.src
	if cfg.Output.Headless {
		f.status = newProgress(f.stderr, f.d.Info().Duration, time.Now())
	}
	f.openInput = time.Since(tOpen)
	return input, nil
}

// openPipe prepares standard input and named pipes, which are read once: no seeking, no sound.
func (f *playing) openPipe(stop <-chan struct{}) error {
	if f.in.stdin {
		// Non-blocking while it plays, as a FIFO is (fifo.go): a writer that stalls then leaves
		// FFmpeg's pipe protocol polling the interrupt callback, so -timeout, the signals and the
		// window's keys reach it, during probing too.
		restore, err := nonblockingStdin()
		if err != nil {
			return err
		}
		f.cleanups = append(f.cleanups, restore)
		return nil
	}
	if !avx.IsFIFO(f.url) {
		return nil
	}
	// A named pipe: opened here, interruptibly, and read through FFmpeg's pipe protocol on the
	// descriptor (fifo.go).
	u, fd, err := openFIFO(f.url, stop, f.o.decode.timeout)
	if err != nil {
		return err
	}
	f.cleanups = append(f.cleanups, func() { syscall.Close(fd) }) // after the decoder's Close
	f.url, f.pipe = u, true
	// Messages name the file, not the descriptor FFmpeg reads.
	f.fail = func(stderr io.Writer, err error) int {
		return fail(stderr, errors.New(strings.ReplaceAll(err.Error(), u, f.in.url)))
	}
	return nil
}

// hook connects the status line (headless) and the tests' key script to cfg's callbacks.
func (f *playing) hook(cfg *player.Config) {
	if cfg.Output.Headless {
		cfg.Hooks.OnFrame = func(_ *player.Player, n int) {
			if f.status != nil {
				f.status.frame(n, f.src.position(), time.Now())
			}
		}
	}
	if keyScript == nil {
		return
	}
	keys := make(chan window.Key, 64)
	cfg.Hooks.Keys = keys
	onFrame := cfg.Hooks.OnFrame
	cfg.Hooks.OnFrame = func(p *player.Player, n int) {
		if onFrame != nil {
			onFrame(p, n)
		}
		for _, k := range keyScript(n) {
			select {
			case keys <- k:
			default:
			}
		}
	}
}

// report ends an input that played: its notices and damage, the error, and with -stats its figures.
func (f *playing) report(st *player.Stats, err error, cfg player.Config, beforePlay time.Duration, stdout io.Writer) (*player.Stats, int) {
	f.status.clear()
	f.notices()
	ds := f.d.Stats()
	if ds.Damaged+ds.Skipped+ds.ReadErrors > 0 {
		fmt.Fprintf(f.stderr, "notice: damaged input: %d frame(s) with concealed errors, %d decode error(s) and %d read error(s) skipped (-v shows FFmpeg's messages)\n",
			ds.Damaged, ds.Skipped, ds.ReadErrors)
	}
	if err != nil {
		return nil, f.fail(f.stderr, err)
	}
	if st.FramesDecoded == 0 && st.End == player.EndOfInput {
		// The input ended cleanly before its first picture (a file cut inside its first frame):
		// playing nothing is a failure, not success.
		return nil, f.fail(f.stderr, fmt.Errorf("%s: no picture could be decoded: the input ends before its first frame (%d video packet(s) read)", f.in.name, ds.Packets))
	}
	if !f.o.stats {
		return st, 0
	}
	st.Startup.OpenInput = float64(f.openInput.Microseconds()) / 1000
	st.Startup.BeforePlay = float64(beforePlay.Microseconds()) / 1000
	if cfg.Output.Headless {
		// The input opened before the player began (in a window it opens meanwhile: first_frame).
		st.Startup.BeforePlay += st.Startup.OpenInput
	}
	ps := withProcess(st, f.d.Threads()) // what the decoder uses: 1 while Vulkan Video decodes
	ps.Input = f.in.name
	if err := json.NewEncoder(stdout).Encode(ps); err != nil {
		return nil, f.fail(f.stderr, err)
	}
	return st, 0
}

// syncWriter serialises writes: the input's opener writes its notices from its own goroutine.
type syncWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (s *syncWriter) Write(b []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(b)
}
