// Command ycbcrplay plays a video file through the Y′CbCr sampler path or the shader path, in a
// window or headless.
package main

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/asticode/go-astiav"

	"github.com/ycbcrkit/ycbcrkit/gpu"
	"github.com/ycbcrkit/ycbcrkit/internal/app/cli"
	"github.com/ycbcrkit/ycbcrkit/internal/app/picfile"
	"github.com/ycbcrkit/ycbcrkit/player"
	"github.com/ycbcrkit/ycbcrkit/player/ipc"
	"github.com/ycbcrkit/ycbcrkit/testvectors/media"
)

const usageText = `usage: ycbcrplay [flags] [FILE|URL|-]...   no FILE: the bundled default clip; -: standard input

Several FILEs play in order (Enter or > the next, < the previous; q ends the list). The window closes
and opens again between files (each file gets its own player: device, window, pipelines). It opens
before its input does, showing "opening NAME…" (a slow URL, a stalled pipe): q, Esc or closing it end
the wait; it takes the video's size at the first frame.

Plays video with FFmpeg decoding and Vulkan presentation. The picture goes through a
VkSamplerYcbcrConversion (the sampler path) when the device expresses the stream's matrix, range
and chroma siting exactly, and through a conversion in the fragment shader otherwise.

  -headless                 draw offscreen, no window (the default when there is no display);
                            when stderr is a terminal, a status line there after the first
                            second (position / duration, frames, fps), erased at the end
  -frames N                 stop after N presented frames
  -untimed                  do not wait for timestamps
  -path auto|sampler|shader
  -conversion auto|draw|compute   how the conversion runs: a drawn triangle, or a compute shader
                            whose picture is then drawn onto the target; auto: both are timed on
                            the GPU for the stream and the faster is used
  -compare off|split|diff   split: sampler path left, shader path right; diff: their absolute
                            difference ×16, with the measured max and mean |sampler − shader| in
                            8-bit steps on the display (twice a second); -screenshot then writes
                            the diff picture
  -upload auto|copy|import  how planes reach the GPU: copy through a staging buffer, or import the
                            decoder's own page-aligned buffers (no CPU copy); auto: import where
                            the device and layout allow it
  -screenshot FILE.png|.jpg at exit, write the last presented frame (PNG or JPEG by the extension):
                            video size, cropped, RGB; checked before playing, never the input file;
                            not dithered (the exact picture) unless -screenshot-dither
  -screenshot-window        -screenshot writes the headless window as drawn (-geometry: the
                            picture scaled and letterboxed) instead of the video at its size
  -dither auto|blue|ordered|off
                            round the picture to the display's depth with a 16×16 threshold
                            matrix instead of to the nearest code, so that smooth gradients of
                            10-bit, tone-mapped or scaled pictures show no bands: blue noise (no
                            visible pattern), ordered (Bayer), or off; auto (default): blue noise
                            where the picture carries more bits than the display (sources of more
                            than 8 bits, tone mapping, HDR10 output, -deband), off otherwise
  -screenshot-dither        screenshots (-screenshot, the s key) dithered as shown
  -hdr-peak auto|metadata|N the source peak PQ tone mapping assumes: auto (default) measures each
                            picture on the GPU (shader path), smoothed over frames and reset at
                            scene cuts, and uses it where it is below the metadata's; metadata:
                            the stream's mastering peak and MaxCLL; N: N cd/m² (100 to 10000).
                            -stats hdr_peak and the info line say which and how much
  -deband                   deband 8-bit sources before scaling (libplacebo's algorithm)
  -deband-params S          its settings, name=value joined by ':' (iterations=1:samples=4:
                            threshold=4:radius=16:grain=0 by default; threshold and grain in
                            1/1000 of the range, radius in pixels; libplacebo's: samples=1:grain=6)
  -stats, -json             at the end of each file, print one JSON object to stdout, one line per
                            file (input: the file's name, frames, fps, paths and why, metadata, GPU
                            and decode ms per frame, process CPU time and peak RSS so far)
  -threads N                decoder threads (default: half the cores; the rest upload and draw);
                            Vulkan Video decodes on one thread (-stats decode_threads says which)
  -decode-ahead MB          before the first picture, decoding goes on while the Vulkan device and
                            the conversion are made, until this many MB of frames wait (default:
                            what the pipeline needs, the 3 frames of steady playback and one per
                            decoder thread, at most 64 MB; 0: only the 3 frames); software decoding
                            only (hardware frames come from a pool of fixed size), and not once
                            the device turns out to render on the CPU (lavapipe: the same cores)
  -deinterlace auto|yes|no  FFmpeg's bwdif on the CPU, one frame per field (auto: from the first
                            frame marked interlaced; progressive video is never touched)
  -hwdec auto|vulkan|no|upload
                            Vulkan Video decoding on the player's device (FFmpeg's hwaccel): auto
                            where the device and codec allow it, else software, with the reason in
                            -stats (decoder, hwdec, hwdec_reason) and the info line; vulkan: fail
                            where it cannot; no: software (default auto); upload: software, each
                            picture then uploaded into FFmpeg's Vulkan frames, which take the
                            routes of hardware frames (-hwdec-route) on any Vulkan device: a check
                            of those routes where nothing decodes, at one more CPU-to-GPU copy per
                            frame (docs/hwdec.md)
  -hwdec-route auto|inplace|copy|download
                            how hardware frames reach the conversion: inplace (FFmpeg's image
                            sampled through the conversion), copy (one GPU copy per plane into
                            the player's image), auto (in place where that is exact and does not
                            hold the decoder back: the decoder's image is the picture's size, and
                            a reference picture is read only by the compute conversion; else the
                            copy, docs/hwdec.md; the shader path in place needs image flags the
                            device may not list), download (one CPU copy per frame, for
                            comparisons); -stats says which in hwdec_route, with the reason
  -loop N|inf               play the input N times in all (default 1), or until quit (not stdin)
  -start TIME               begin at TIME: seconds (12.5) or [[h:]m:]s (1:02:03.5)
  -speed X                  playback speed, 0.1 to 16 (default 1; keys [ and ] change it by
                            10%, Backspace resets it); with sound, other than 1 pauses the sound
  -video-sync audio|display-resample
                            audio (default): each frame at its time on the sound's clock;
                            display-resample: each frame a whole number of display refreshes,
                            the video up to 1% faster or slower to fit, the sound resampled to
                            follow (mpv's --video-sync; docs/player.md, "Smooth motion")
  -display-fps N            the display's refresh rate for it (default: the monitor's; headless 60)
  -interpolation            blend the two frames around each refresh (implies display-resample)
  -tscale linear|oversample the blend: by the refresh's phase (default), or only the refresh
                            that straddles two frames (mpv's --tscale)
  -fs                       start on the full screen
  -vid N                    play the N-th video stream (from 1, cover pictures not counted, as
                            mpv's --vid; default: FFmpeg's best one)
  -aid N                    play the N-th audio stream (from 1; default: FFmpeg's best one)
  -no-audio                 play no sound
  -sid N|auto|no            show the N-th subtitle track (from 1: the input's own, then the
                            external files'), none, or auto (default: an external file's, else
                            one marked default or forced); keys j and J cycle, v shows or hides
  -sub-file FILE            load an external subtitle file (repeatable); a .srt, .ass, .ssa or
                            .vtt beside the input with its base name is loaded by itself
  -sub-delay S              show subtitles S seconds later (negative: earlier)
  -sub-scale X              factor for the text subtitle font size (default 1)
  -volume N                 sound volume in percent, 0 to 100 (default 100)
  -matrix NAME -range tv|pc -chroma-loc NAME   override the stream's metadata (FFmpeg's names:
                            bt709, smpte170m, bt470bg, bt2020nc, smpte240m, ...; left, center,
                            topleft, top, bottomleft, bottom)
  -tonemap bt2390|bt2390-max|clip|off
                            PQ and HLG to SDR BT.709: BT.2390 EETF on each of R, G, B (default; uses
                            the mastering and content light metadata), the same EETF on
                            max(R,G,B) with R, G, B scaled alike (keeps hue in highlights), clip,
                            or off (the HDR R′G′B′ as it is)
  -hdr-output               show HDR10 instead of tone-mapping: a swapchain in
                            VK_COLOR_SPACE_HDR10_ST2084_EXT (VK_EXT_swapchain_colorspace) gets PQ
                            in BT.2020 (PQ passed through, HLG by its OOTF, SDR at 203 cd/m²),
                            and the stream's mastering display and MaxCLL/MaxFALL go to the
                            display (VK_EXT_hdr_metadata, where offered); fails with the reason
                            where the display offers no HDR10 format
  -icc-profile FILE|off      the display's ICC profile: the output, made for an sRGB display, is
                            transformed into the profile's RGB by LittleCMS (liblcms2, relative
                            colorimetric) through a 65³ 3D LUT in the last pass; the window only
                            (screenshots keep the video's colours). Without the flag, the profile
                            X11 holds for the display (_ICC_PROFILE), if any, with a notice
  -scale NAME               the filter that scales the converted picture into the window:
                            lanczos (default), catmull-rom (bicubic), mitchell, bilinear; the
                            conversion runs at the picture's size, the scale pass only when sizes
                            differ (docs/scaling.md)
  -scale-draw               draw the scale pass's last step (a fragment shader) even where the
                            target allows compute to write it (to compare; -stats scale says which)
  -zoom fit|1|N             fit (default): letterboxed; 1: one video pixel per screen pixel, exact;
                            N: N screen pixels per video pixel (arrow keys or a drag then move it)
  -rotate auto|0|90|180|270 turn the picture clockwise; auto (default): the stream's display matrix
                            (rotation and flips), as FFmpeg's autorotation reads it
  -geometry WxH             window (or headless target) size
  -device N  -list-devices
  -cache DIR|off            where what is learnt about the device is kept between runs: its Vulkan
                            pipeline cache and the conversion variant measured per format and
                            size (default $XDG_CACHE_HOME/ycbcrkit, else ~/.cache/ycbcrkit); off:
                            nothing is read or written. -stats startup_ms says where the time
                            before the first picture went
  -validate                 Khronos validation layer on; any message is an error
  -teardown                 at exit without a window, destroy the Vulkan device and instance and
                            close the decoder (by default they are left to the operating system
                            once the GPU is idle; always destroyed with -validate)
  -timeout SECONDS          the longest one blocking read of the input may wait (opening, probing,
                            reading, seeking, a named pipe's writer; default 10), and the longest
                            wait for the first picture and for each new one (a source trickling a
                            few bytes a second): a stalled network stream or a pipe whose writer
                            stops ends with one "error:" line; a -sub-file that times out is left
                            out with a notice; a live feed (udp, rtp, rtsp, srt, HLS) lost for less
                            is reopened every 500 ms; 0: no limit
  -v                        FFmpeg's own log (warnings, concealed errors) on stderr; without it a
                            damaged input gets one summary notice
  -input-ipc-server PATH     mpv's JSON IPC on a Unix socket: get_property, set_property,
                            observe_property and commands (seek, cycle, loadfile, playlist-next,
                            screenshot-to-file, quit, ...) by mpv's names, events as mpv's
  --idle[=yes|once]         with -input-ipc-server: wait for loadfile when nothing plays (at the
                            start, after the list, after stop) instead of ending; once: until a
                            file has played
  mpv's command line        as front-ends spawn mpv (docs/frontends.md): --name=value or --name value,
                            a flag alone or =yes/no, --no-NAME; --pause, --mute, --keep-open[=yes|
                            always], --loop-file=N|inf, --title, --really-quiet, --no-terminal,
                            --msg-level=all=no (the error line only), --start=+T, --aid=auto|no,
                            --geometry=WxH+X+Y, --version; mpv's options that do not apply here
                            (--vo, --ao, --script, --ytdl, --osc, ...) are taken with one notice
  -thumbnails DIR N          write N seek thumbnails of each FILE (at the middles of N equal parts
                            of its duration) as DIR/NAME-001.png..., their paths on stdout, and
                            play nothing; decoded on a decoder of their own and converted on the
                            CPU (the exact conversion the GPU paths are checked against); over the
                            IPC: ["ycbcrplay-thumbnail", SECONDS, WIDTH, FILE] while playing
  -thumbnail-width W        their width (default 200; 0: the video's)
  -ab-loop-a TIME -ab-loop-b TIME   the A-B loop (as mpv's): playback reaching B goes back to A
  -save-position-on-quit    keep the position at a quit (Q always does) in
                            $XDG_STATE_HOME/ycbcrkit/watch_later/ (mpv's watch_later names); the
                            next play of the file resumes there, with a notice
  -no-resume                ignore a kept position
  -cache-size MB            pipes, named pipes and network streams are read through a read-ahead
                            cache of MB megabytes (default 200: 150 ahead, 50 kept behind, as mpv's
                            demuxer cache; 0: none): an MP4 whose moov box is at the end plays from
                            a pipe, and seeks inside the cached range work on pipes and HTTP
  -config FILE              the config file to read (default $XDG_CONFIG_HOME/ycbcrkit/ycbcrplay.conf,
                            else ~/.config/ycbcrkit/ycbcrplay.conf): mpv.conf's syntax, one
                            name=value per line (a flag alone or =yes/no), # comments, [NAME]
                            profiles; the command line wins; an unknown option is an error naming
                            the file and line
  -no-config                read no config file
  -profile NAME[,NAME...]   apply the config file's [NAME] sections after its top level

Sound plays through PulseAudio in a window, timed (not -headless, not -untimed), and is then the
master clock: each picture is shown when the sound reaches its time. -stats adds "audio" (codec,
rate, channels, measured device latency) and "av_offset_ms" (video − audio at each presented frame).

- reads the input from standard input (cat x.mkv | ycbcrplay -), through FFmpeg's pipe protocol and
the read-ahead cache: a seek outside what the cache holds gives one notice and playback goes on; -loop is refused,
and it plays without sound (the pipe is read once, by the video decoder). A named pipe (mkfifo) as
FILE is read the same way, once; until a writer opens it the player waits, and SIGINT or SIGTERM
end that wait with their exit status.

-json is -stats (the toolkit's common flag for figures as JSON). Exit status: 0 played, 1 error
(one "error:" line), 2 bad command line (one line; -h prints this to stdout), and after SIGINT or
SIGTERM, which end playback as q does (figures printed, screenshot written), 130 or 143.

Keys: space pause, ←/→ seek 5 s, ↑/↓ seek 60 s (repeated seeks add up), . step, , step back,
[ ] speed, Backspace speed 1, s screenshot (ycbcrplay-NNNN.png, the video picture), p switch
path, c compare, i info panel, ? or F1 the key list, f fullscreen, 9/0 volume down/up, m mute,
z zoom (fit, 1:1, 2:1; when zoomed the arrows or a drag with the left button move the picture),
1 1:1 on/off, Enter or > next file, < previous file, PgUp/PgDn or @/! next/previous chapter, l A-B
loop (set A, set B, clear), q/Esc quit, Q quit keeping the position. The window shows a progress bar on seeks, while paused and when the mouse moves.
`

// defaultCacheDir is -cache's default (the tests make it "off": a run's figures must not depend on
// what earlier runs left in the user's cache).
var defaultCacheDir = gpu.DefaultCacheDir

// processExits is set by main only: run is also called in-process by the tests, many times in one
// process, where leaving a device and a decoder to "the operating system" would leak them.
var processExits bool

func main() {
	processExits = true
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func fail(stderr io.Writer, err error) int { return cli.Fail(stderr, 1, "%v", err) }

func run(args []string, stdout, stderr io.Writer) int {
	args, err := withConfig(args, parseProbe{})
	if err != nil {
		return cli.Fail(stderr, 2, "%v", err)
	}
	o, err := parseArgs(args)
	if err != nil {
		// A malformed command line or a bad flag value: one line, exit status 2.
		return cli.Fail(stderr, 2, "%v (see ycbcrplay -h)", err)
	}
	if o.help {
		fmt.Fprint(stdout, usageText)
		return 0
	}
	if o.version {
		printVersion(stdout)
		return 0
	}
	if o.quiet {
		// --really-quiet, --no-terminal, --msg-level=all=no: the error line only.
		stderr = &errorsOnly{w: stderr}
	}
	for _, n := range o.notices {
		fmt.Fprintln(stderr, n)
	}
	if o.list {
		return cli.ListDevices(stdout, stderr, 1)
	}
	// FFmpeg logs to the process's stderr on its own (a damaged H.264 stream gives a line per broken
	// macroblock row). Quiet unless -v: errors reach the user as one "error:" line, and damage is
	// counted (-stats frames_damaged) and summed up in one notice below.
	if o.decode.ffmpegLog {
		astiav.SetLogLevel(astiav.LogLevelWarning)
	} else {
		astiav.SetLogLevel(astiav.LogLevelQuiet)
	}
	cfg := o.cfg
	cfg.Hooks.Log = stderr
	cfg.Hooks.OnOpening = onOpening
	// SIGINT and SIGTERM end playback as q does: the figures are printed and the screenshot written;
	// the exit status is then 128 + the signal's number (130, 143), as a shell reports a process the
	// signal ended. A second signal ends the process at once.
	interrupted, stopSignals := catchSignals(stderr)
	defer stopSignals()
	cfg.Hooks.Stop = interrupted.stop
	// Output paths first: a bad one fails at once, not after the whole file has played.
	if cfg.Output.Screenshot != "" {
		for _, in := range o.inputs {
			if err := picfile.Check(cfg.Output.Screenshot, in.url); err != nil {
				return fail(stderr, fmt.Errorf("-screenshot: %w", err))
			}
		}
	}

	inputs := o.inputs
	if o.thumbDir != "" {
		if len(inputs) == 0 {
			return cli.Fail(stderr, 2, "-thumbnails %s %d: a FILE to make them of", o.thumbDir, o.thumbN)
		}
		if err := thumbnails(inputs, o.thumbDir, o.thumbN, o.thumbSize, stdout); err != nil {
			return fail(stderr, err)
		}
		return 0
	}
	if o.idle != "" && o.ipcPath == "" {
		fmt.Fprintln(stderr, "notice: --idle without --input-ipc-server: nothing could load a file; the player ends after its inputs")
		o.idle = ""
	}
	if len(inputs) == 0 && o.idle == "" {
		clip, err := media.DefaultClipFile("ycbcrplay")
		if err != nil {
			return fail(stderr, err)
		}
		defer os.Remove(clip)
		inputs = []input{{url: clip, name: "default clip"}}
	}
	// Half the cores decode: the other half upload, convert and present (and on a software Vulkan
	// device like lavapipe they render). On the 2-core VM this keeps 1080p playback as fast and
	// peak RSS at 193 MB instead of 204 (fewer frame-thread contexts; docs/performance.md).
	threads := o.decode.threads
	if threads == 0 {
		threads = max(1, runtime.NumCPU()/2)
	}
	// The inputs play in order, each in its own player (device and window are opened again for each
	// file: the window closes and reopens between files). Enter or > goes to the next, < to the
	// previous; q, Esc and the signals end the list. A file that fails ends it with its error, but
	// with --idle (a front-end's player), which goes on to the next or waits.
	pl := &playlist{items: inputs}
	session := &player.Session{Pause: o.cfg.Playback.Pause, Volume: float64(o.sound.volume), Mute: o.sound.mute}
	if o.ipcPath != "" {
		srv, err := ipc.Listen(o.ipcPath, func(line string) { fmt.Fprintln(stderr, "notice: "+line) })
		if err != nil {
			return fail(stderr, fmt.Errorf("-input-ipc-server: %w", err))
		}
		defer srv.Close()
		cfg.IPC.Server, cfg.IPC.Playlist, cfg.IPC.Session, cfg.IPC.Thumbnail = srv, pl, session, ipcThumbnail
	}
	srv := cfg.IPC.Server
	played := false
	for pl.i = 0; ; {
		if pl.Pos() < 0 {
			// Nothing to play: idle (mpv's --idle; once: only until a file has played), or the end.
			if o.idle == "" || o.idle == "once" && played || !player.Idle(srv, pl, session, interrupted.stop) {
				break
			}
			pl.advance(false)
			continue
		}
		in := pl.items[pl.i]
		// The last input without a window (no key goes back) ends the process: its device and
		// decoder are left to the operating system (player.Config.GPU.Exiting; not with -validate, nor
		// with the IPC, whose loadfile may add to the list).
		c, oi := cfg, o
		c.GPU.Exiting = processExits && cfg.Output.Headless && pl.i == len(pl.items)-1 && !o.keepTeardown && srv == nil
		c.Playback.LastInput = pl.i == len(pl.items)-1
		c.Playback.Pause = session.Pause
		if in.pause != nil {
			c.Playback.Pause = *in.pause
		}
		if in.start != nil {
			c.Playback.Start, oi.resume.startGiven = *in.start, true
		}
		oi.sound.volume, oi.sound.mute = int(session.Volume+0.5), session.Mute
		id := pl.i + 1
		ipcEvent(srv, "start-file", map[string]any{"playlist_entry_id": id})
		st, code := playFile(in, oi, c, threads, stdout, stderr)
		played = true
		if code != 0 {
			ipcEvent(srv, "end-file", map[string]any{"reason": "error", "playlist_entry_id": id, "file_error": "loading failed"})
			if o.idle == "" || interrupted.signal() != 0 {
				return code
			}
			pl.advance(false)
			continue
		}
		reason := map[player.End]string{player.EndOfInput: "eof", player.EndQuit: "quit", player.EndNext: "stop", player.EndPrev: "stop"}[st.End]
		ipcEvent(srv, "end-file", map[string]any{"reason": reason, "playlist_entry_id": id})
		if interrupted.signal() != 0 || st.End == player.EndQuit {
			break
		}
		pl.advance(st.End == player.EndPrev)
	}
	if n := interrupted.signal(); n != 0 {
		return 128 + n
	}
	return 0
}

// parseTime reads -start: seconds (12.5) or [[h:]m:]s (1:02:03.5, 2:30), as mpv's --start takes them.
func parseTime(s string) (float64, error) {
	// mpv's --start=+T is T from the start.
	parts := strings.Split(strings.TrimPrefix(s, "+"), ":")
	if len(parts) > 3 {
		return 0, fmt.Errorf("bad -start %q: seconds or [[h:]m:]s", s)
	}
	t := 0.0
	for i, part := range parts {
		v, err := strconv.ParseFloat(part, 64)
		if err != nil || v < 0 || math.IsInf(v, 0) || math.IsNaN(v) || (i < len(parts)-1 && v != math.Trunc(v)) ||
			(i > 0 && v >= 60) {
			return 0, fmt.Errorf("bad -start %q: seconds or [[h:]m:]s", s)
		}
		t = t*60 + v
	}
	return t, nil
}

// signals is what catchSignals saw: stop is closed at the first SIGINT or SIGTERM.
type signals struct {
	stop  chan struct{}
	mu    sync.Mutex
	first syscall.Signal
}

func (s *signals) signal() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return int(s.first)
}

// stopGrace is how long playback may take to end after the first SIGINT or SIGTERM (the figures,
// the screenshot) before the process exits without them: a wait that does not wake on the stop (a
// device or decoder wait that never returns) must not keep it alive (issue 18: within one second).
var stopGrace = time.Second

// catchSignals turns the first SIGINT or SIGTERM into a closed stop channel; a second one, or
// stopGrace without the returned function being called, exits at once with 128 + the first
// signal's number (one error line on stderr in the second case). The returned function stops
// catching.
func catchSignals(stderr io.Writer) (*signals, func()) {
	s := &signals{stop: make(chan struct{})}
	ch := make(chan os.Signal, 2)
	done := make(chan struct{})
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	go func() {
		select {
		case sig := <-ch:
			s.mu.Lock()
			s.first = sig.(syscall.Signal)
			s.mu.Unlock()
			close(s.stop)
		case <-done:
			return
		}
		select {
		case sig := <-ch:
			os.Exit(128 + int(sig.(syscall.Signal)))
		case <-time.After(stopGrace):
			fmt.Fprintf(stderr, "error: %v: playback did not end within %v (a device or decoder wait that does not return); exiting without the figures\n", s.first, stopGrace)
			os.Exit(128 + int(s.first))
		case <-done:
		}
	}()
	return s, func() {
		signal.Stop(ch)
		close(done)
	}
}

// processStats adds what the process as a whole spent to the player's figures: CPU time (user +
// system, all threads: decoding, uploads, the driver's own threads) and peak resident memory, as
// getrusage(2) counts them, so that runs can be compared with ffmpeg -benchmark's utime/stime/maxrss.
type processStats struct {
	*player.Stats
	Input         string  `json:"input"` // the file's name (base name), "stdin" or "default clip"
	DecodeThreads int     `json:"decode_threads"`
	CPUS          float64 `json:"cpu_s"`
	CPUMsPerFrame float64 `json:"cpu_ms_per_frame"`
	PeakRSSMB     float64 `json:"peak_rss_mb"`
}

func withProcess(st *player.Stats, threads int) processStats {
	out := processStats{Stats: st, DecodeThreads: threads}
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) == nil {
		out.CPUS = time.Duration(ru.Utime.Nano() + ru.Stime.Nano()).Seconds()
		out.PeakRSSMB = float64(ru.Maxrss) / 1024 // Linux reports KiB
		if st.FramesDecoded > 0 {
			out.CPUMsPerFrame = out.CPUS * 1000 / float64(st.FramesDecoded)
		}
	}
	return out
}

// errorsOnly passes the "error:" lines written to it and drops the rest (notices): mpv's
// --really-quiet and --no-terminal.
type errorsOnly struct {
	w   io.Writer
	buf []byte
}

func (e *errorsOnly) Write(b []byte) (int, error) {
	e.buf = append(e.buf, b...)
	for {
		i := bytes.IndexByte(e.buf, '\n')
		if i < 0 {
			return len(b), nil
		}
		if line := e.buf[:i+1]; bytes.HasPrefix(line, []byte("error:")) {
			if _, err := e.w.Write(line); err != nil {
				return len(b), err
			}
		}
		e.buf = e.buf[i+1:]
	}
}
