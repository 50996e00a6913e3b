package main

import (
	"flag"
	"fmt"
	"io"
	"regexp"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
)

// mpv's command line, as the programs that spawn mpv write it (docs/frontends.md lists them with their
// sources): --name=value and --name value (the flag package reads both, one dash or two), a flag
// alone or =yes/no, --no-NAME for NAME=no, and options of mpv's that mean nothing here (--vo, --ao,
// --script, --ytdl...) taken with one notice instead of an error. mpv's manual, "Usage" and
// "Options": https://mpv.io/manual/stable/#usage

// yesNo is a boolean flag that also reads mpv's yes and no (--fs=yes, --pause=no).
type yesNo struct{ flag.Value }

func (v yesNo) Set(s string) error {
	switch s {
	case "yes":
		s = "true"
	case "no":
		s = "false"
	}
	return v.Value.Set(s)
}

func (v yesNo) IsBoolFlag() bool { return true }

// mpvBools makes every boolean flag of fs read yes and no.
func mpvBools(fs *flag.FlagSet) {
	fs.VisitAll(func(f *flag.Flag) {
		if b, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() {
			if _, done := f.Value.(yesNo); !done {
				f.Value = yesNo{f.Value}
			}
		}
	})
}

// mpvIgnored are mpv's options that do not apply to this player (its video output, audio output,
// scripts, on-screen controller, terminal, stream helpers): taken, with one notice each. true: the
// option takes a value (the next word when it is not given with =).
var mpvIgnored = map[string]bool{
	"vo": true, "ao": true, "gpu-api": true, "gpu-context": true, "hwdec-codecs": true, "vd-lavc-threads": true,
	"script": true, "scripts": true, "osc": false, "osd-level": true, "osd-bar": false, "osd-duration": true,
	"input-terminal": false, "input-default-bindings": false, "input-vo-keyboard": false, "input-conf": true,
	"input-media-keys": false, "input-cursor": false, "cursor-autohide": true, "term-osd": true, "term-osd-bar": false,
	"term-playing-msg": true, "term-status-msg": true, "msg-color": false, "msg-module": false, "msg-time": false,
	"ytdl": false, "ytdl-format": true, "ytdl-raw-options": true, "hr-seek": true, "hr-seek-framedrop": false,
	"keep-open-pause": false, "audio-fallback-to-null": false, "audio-display": true, "audio-client-name": true,
	"audio-device": true, "audio-channels": true, "audio-pitch-correction": false, "volume-max": true,
	"cache": true, "cache-secs": true, "demuxer-max-bytes": true, "demuxer-max-back-bytes": true,
	"demuxer-readahead-secs": true, "prefetch-playlist": false, "user-agent": true, "referrer": true,
	"http-header-fields": true, "http-proxy": true, "tls-verify": false, "stream-lavf-o": true,
	"border": false, "ontop": false, "on-all-workspaces": false, "autofit": true, "autofit-larger": true,
	"autofit-smaller": true, "wid": true, "screen": true, "fs-screen": true, "snap-window": false,
	"window-scale": true, "keepaspect": false, "keepaspect-window": false, "x11-name": true, "wayland-app-id": true,
	"sub-auto": true, "audio-file-auto": true, "sub-font": true, "sub-font-size": true, "sub-color": true,
	"sub-border-color": true, "sub-border-size": true, "sub-back-color": true, "sub-codepage": true,
	"slang": true, "alang": true, "secondary-sid": true, "secondary-sub-visibility": false,
	"save-position-on-quit-dir": true, "watch-later-directory": true, "watch-later-dir": true,
	"write-filename-in-watch-later-config": false, "resume-playback": false, "reset-on-next-file": true,
	"include": true, "config-dir": true, "log-file": true, "load-scripts": false, "load-stats-overlay": false,
	"load-osd-console": false, "load-auto-profiles": true, "idle-screen": false, "player-operation-mode": true,
	"image-display-duration": true, "force-seekable": false, "media-controls": true, "taskbar-progress": false,
	"stop-screensaver": false, "icc-profile": true,
	"icc-profile-auto": false, "target-colorspace-hint": false, "tone-mapping": true, "dither-depth": true,
	"framedrop": true, "video-rotate": true, "video-zoom": true, "video-aspect-override": true,
	"no-input-terminal": false, "force-media-title": true, "meta-title": true, "audio": true, "video": true,
	"no-video": false, "loop-playlist": true, "shuffle": false, "playlist": true, "external-file": true,
	"audio-file": true, "sub-files": true, "demuxer-lavf-o": true, "rebase-start-time": false, "osd-fractions": false,
}

// mpvIgnoredPrefixes are families of mpv options, taken as mpvIgnored's with a value.
var mpvIgnoredPrefixes = []string{"ytdl-", "script-", "osd-", "osc-", "term-", "input-", "demuxer-", "cache-",
	"audio-", "vo-", "ao-", "gpu-", "vulkan-", "opengl-", "x11-", "wayland-", "sub-", "secondary-", "hwdec-", "vd-", "ad-",
	"stream-", "http-", "tls-", "network-", "screenshot-", "watch-later-", "msg-"}

// mpvBuiltinProfiles are mpv's own profiles (etc/builtin.conf), which front-ends name without a config file.
var mpvBuiltinProfiles = map[string]bool{"fast": true, "gpu-hq": true, "high-quality": true, "sw-fast": true,
	"low-latency": true, "pseudo-gui": true, "builtin-pseudo-gui": true, "default": true}

// mpvArgs rewrites mpv's forms that the flag package does not read into ycbcrplay's: --no-NAME of a
// boolean NAME, and mpv's options that do not apply (dropped, with a notice each). Words after --
// are FILEs, untouched.
func mpvArgs(fs *flag.FlagSet, args []string) (out, notices []string) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return append(out, args[i:]...), notices
		}
		if len(a) < 2 || a[0] != '-' {
			out = append(out, a)
			continue
		}
		name, value, hasValue := strings.Cut(strings.TrimPrefix(strings.TrimPrefix(a, "-"), "-"), "=")
		if fs.Lookup(name) != nil {
			out = append(out, a)
			continue
		}
		if neg, ok := strings.CutPrefix(name, "no-"); ok && !hasValue {
			if f := fs.Lookup(neg); f != nil {
				if b, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() {
					out = append(out, "-"+neg+"=false")
					continue
				}
			}
			if _, ok := mpvIgnored[neg]; ok {
				notices = append(notices, fmt.Sprintf("notice: --%s: mpv's option does not apply to ycbcrplay: ignored", name))
				continue
			}
		}
		takesValue, ignored := mpvIgnored[name]
		if !ignored {
			for _, p := range mpvIgnoredPrefixes {
				if strings.HasPrefix(name, p) {
					takesValue, ignored = true, true
					break
				}
			}
		}
		if !ignored {
			out = append(out, a) // the flag package's error names it
			continue
		}
		if takesValue && !hasValue && i+1 < len(args) && !strings.HasPrefix(args[i+1], "-") {
			i++
			value, hasValue = args[i], true
		}
		shown := "--" + name
		if hasValue {
			shown += "=" + value
		}
		notices = append(notices, fmt.Sprintf("notice: %s: mpv's option does not apply to ycbcrplay: ignored", shown))
	}
	return out, notices
}

// mpvFlags are mpv's options that front-ends pass and that ycbcrplay follows (docs/frontends.md).
type mpvFlags struct {
	idle, forceWindow, keepOpen  choiceFlag
	reallyQuiet, quiet, terminal *bool
	pause, mute                  *bool
	loopFile, msgLevel, title    *string
	scriptOpts                   *string
	version                      *bool
}

// choiceFlag is an mpv option of a few values whose flag alone is yes (--idle, --keep-open,
// --force-window); no is "".
type choiceFlag struct {
	name, mode string
	choices    []string // beside yes and no
}

func (f *choiceFlag) String() string   { return f.mode }
func (f *choiceFlag) IsBoolFlag() bool { return true }
func (f *choiceFlag) Set(s string) error {
	switch {
	case s == "yes" || s == "true" || s == "1":
		f.mode = "yes"
	case s == "no" || s == "false" || s == "0":
		f.mode = ""
	case slices.Contains(f.choices, s):
		f.mode = s
	default:
		return fmt.Errorf("bad --%s %q: yes, no or %s", f.name, s, strings.Join(f.choices, ", "))
	}
	return nil
}

func (f *mpvFlags) add(fs *flag.FlagSet) {
	f.idle = choiceFlag{name: "idle", choices: []string{"once"}}
	f.forceWindow = choiceFlag{name: "force-window", choices: []string{"immediate"}}
	f.keepOpen = choiceFlag{name: "keep-open", choices: []string{"always"}}
	fs.Var(&f.idle, "idle", "")
	fs.Var(&f.forceWindow, "force-window", "")
	fs.Var(&f.keepOpen, "keep-open", "")
	f.reallyQuiet = fs.Bool("really-quiet", false, "")
	f.quiet = fs.Bool("quiet", false, "")
	f.terminal = fs.Bool("terminal", true, "")
	f.pause = fs.Bool("pause", false, "")
	f.mute = fs.Bool("mute", false, "")
	f.loopFile = fs.String("loop-file", "no", "")
	f.msgLevel = fs.String("msg-level", "", "")
	f.title = fs.String("title", "", "")
	f.scriptOpts = fs.String("script-opts", "", "")
	f.version = fs.Bool("version", false, "")
	fs.BoolVar(f.version, "V", false, "")
}

// msgQuiet: mpv's --msg-level that leaves only errors (all=no, all=error, all=fatal).
var msgQuiet = regexp.MustCompile(`(^|,)all=(no|fatal|error)(,|$)`)

func (f *mpvFlags) read(o *options) error {
	o.idle = f.idle.mode
	o.version = *f.version
	o.quiet = *f.reallyQuiet || !*f.terminal || msgQuiet.MatchString(*f.msgLevel)
	o.cfg.Playback.KeepOpen = f.keepOpen.mode
	o.cfg.Playback.Pause = *f.pause
	o.sound.mute = *f.mute
	o.cfg.Output.Title = *f.title
	switch v := *f.loopFile; v {
	case "no":
	case "inf", "yes", "":
		o.cfg.Playback.Loop = -1
	default:
		// mpv's N loops play the file N+1 times (-loop counts the plays).
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return fmt.Errorf("bad --loop-file %q: N, inf or no", v)
		}
		o.cfg.Playback.Loop = n + 1
	}
	if o.cfg.Playback.Loop != 1 && len(o.inputs) > 0 && o.inputs[0].stdin {
		return fmt.Errorf("--loop-file %s: standard input (-) is read once and cannot be played again", *f.loopFile)
	}
	if *f.scriptOpts != "" {
		o.notices = append(o.notices, "notice: --script-opts: ycbcrplay runs no scripts: ignored")
	}
	return nil
}

// printVersion is --version: the player and the FFmpeg it was built with, on stdout.
func printVersion(w io.Writer) {
	v := "(devel)"
	if bi, ok := debug.ReadBuildInfo(); ok {
		if bi.Main.Version != "" {
			v = bi.Main.Version
		}
		for _, s := range bi.Settings {
			if s.Key == "vcs.revision" && len(s.Value) >= 12 {
				v += " " + s.Value[:12]
			}
		}
	}
	fmt.Fprintf(w, "ycbcrplay %s (ycbcrkit): mpv's command line and JSON IPC, docs/frontends.md\n", v)
}
