// Command ycbcrplay plays a video file through the Y′CbCr sampler path or the shader path, in a
// window or headless.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/ycbcrkit/ycbcrkit/decode"
	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/player"
	"github.com/ycbcrkit/ycbcrkit/present"
	"github.com/ycbcrkit/ycbcrkit/present/window"
	"github.com/ycbcrkit/ycbcrkit/testvectors/media"
)

const usageText = `usage: ycbcrplay [flags] [FILE|URL]     no FILE: the bundled default clip

Plays video with FFmpeg decoding and Vulkan presentation. The picture goes through a
VkSamplerYcbcrConversion (the sampler path) when the device expresses the stream's matrix, range
and chroma siting exactly, and through a conversion in the fragment shader otherwise.

  -headless                 draw offscreen, no window (the default when there is no display)
  -frames N                 stop after N presented frames
  -untimed                  do not wait for timestamps
  -path auto|sampler|shader
  -compare off|split        split: sampler path left, shader path right
  -upload auto|copy         how planes reach the GPU (copy through a staging buffer)
  -screenshot FILE.png      at exit, write the last presented frame as PNG: video size, cropped, RGB
  -stats                    at exit, print one JSON object to stdout
  -matrix NAME -range tv|pc -chroma-loc NAME   override the stream's metadata (FFmpeg's names:
                            bt709, smpte170m, bt470bg, bt2020nc, smpte240m, ...; left, center,
                            topleft, top, bottomleft, bottom)
  -device N  -list-devices
  -validate                 Khronos validation layer on; any message is an error

Keys: space pause, ←/→ seek 5 s, ↑/↓ seek 60 s, . step, p switch path, c compare, i info,
f fullscreen, q/Esc quit.
`

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func fail(stderr io.Writer, err error) int {
	msg := strings.ReplaceAll(err.Error(), "\n", " ")
	fmt.Fprintf(stderr, "error: %s\n", msg)
	return 1
}

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("ycbcrplay", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	headless := fs.Bool("headless", !window.Available(), "")
	frames := fs.Int("frames", 0, "")
	untimed := fs.Bool("untimed", false, "")
	path := fs.String("path", "auto", "")
	compare := fs.String("compare", "off", "")
	upload := fs.String("upload", "auto", "")
	shot := fs.String("screenshot", "", "")
	stats := fs.Bool("stats", false, "")
	matrix := fs.String("matrix", "", "")
	rng := fs.String("range", "", "")
	loc := fs.String("chroma-loc", "", "")
	dev := fs.Int("device", -1, "")
	list := fs.Bool("list-devices", false, "")
	validate := fs.Bool("validate", false, "")
	// Flags may come before or after FILE, as with most players.
	var inputs []string
	for {
		if err := fs.Parse(args); err != nil {
			if err == flag.ErrHelp {
				fmt.Fprint(stdout, usageText)
				return 0
			}
			fmt.Fprintf(stderr, "error: %v (see ycbcrplay -h)\n", err)
			return 2
		}
		if fs.NArg() == 0 {
			break
		}
		inputs = append(inputs, fs.Arg(0))
		args = fs.Args()[1:]
	}
	if *list {
		devs, err := present.ListDevices()
		if err != nil {
			return fail(stderr, err)
		}
		for _, d := range devs {
			fmt.Fprintln(stdout, d)
		}
		return 0
	}
	if len(inputs) > 1 {
		fmt.Fprintf(stderr, "error: one input at most, got %d (see ycbcrplay -h)\n", len(inputs))
		return 2
	}
	url, name := "", ""
	if len(inputs) == 1 {
		url, name = inputs[0], filepath.Base(inputs[0])
	}
	cfg := player.Config{Headless: *headless, Frames: *frames, Untimed: *untimed, Device: *dev,
		Validate: *validate, Screenshot: *shot, Log: stderr}
	var err error
	if cfg.Path, err = player.ParsePath(*path); err != nil {
		return fail(stderr, err)
	}
	if cfg.Compare, err = player.ParseCompare(*compare); err != nil {
		return fail(stderr, err)
	}
	if *upload != "auto" && *upload != "copy" {
		return fail(stderr, fmt.Errorf("bad -upload %q: auto or copy (zero-copy import is not built yet)", *upload))
	}
	if *frames < 0 {
		return fail(stderr, fmt.Errorf("bad -frames %d: must be ≥ 0", *frames))
	}
	if *matrix != "" {
		m, err := formats.ParseMatrix(*matrix)
		if err != nil {
			return fail(stderr, err)
		}
		cfg.Matrix = &m
	}
	if *rng != "" {
		r, err := formats.ParseRange(*rng)
		if err != nil {
			return fail(stderr, err)
		}
		cfg.Range = &r
	}
	if *loc != "" {
		l, err := formats.ParseChromaLocation(*loc)
		if err != nil {
			return fail(stderr, err)
		}
		cfg.ChromaLocation = &l
	}

	if url == "" {
		tmp, err := os.CreateTemp("", "ycbcrplay-default-*.mkv")
		if err != nil {
			return fail(stderr, err)
		}
		defer os.Remove(tmp.Name())
		if _, err := tmp.Write(media.DefaultClip); err != nil {
			return fail(stderr, err)
		}
		tmp.Close()
		url, name = tmp.Name(), "default clip"
	}
	d, err := decode.Open(url, decode.Options{})
	if err != nil {
		return fail(stderr, err)
	}
	for _, n := range d.Notices() {
		fmt.Fprintln(stderr, n)
	}
	st, err := player.Play(&decoderSource{d: d, name: name}, cfg)
	for _, n := range d.Notices() {
		fmt.Fprintln(stderr, n)
	}
	if err != nil {
		return fail(stderr, err)
	}
	if *stats {
		enc := json.NewEncoder(stdout)
		if err := enc.Encode(st); err != nil {
			return fail(stderr, err)
		}
	}
	return 0
}
