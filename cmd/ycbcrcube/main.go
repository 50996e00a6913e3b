// Command ycbcrcube is the example of package videotex: a small "engine" that owns its Vulkan
// device, render pass (with a depth attachment), pipeline and frame loop draws a rotating,
// depth-tested cube whose faces show a playing video, or up to six videos (-videos N: face i shows
// video i mod N), all textures of one videotex.Engine on one device. The engine's pipeline layout for each texture
// holds the binding videotex gives it (an immutable Y′CbCr sampler, or a plain one when the stream
// needs the shader-path fallback) plus the engine's own push constants.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/gpu"
	"github.com/ycbcrkit/ycbcrkit/internal/app/cli"
	"github.com/ycbcrkit/ycbcrkit/internal/app/picfile"
	"github.com/ycbcrkit/ycbcrkit/present"
	"github.com/ycbcrkit/ycbcrkit/present/window"
	"github.com/ycbcrkit/ycbcrkit/testvectors/media"
	"github.com/ycbcrkit/ycbcrkit/videotex"
)

var errEOF = io.EOF

const usageText = `usage: ycbcrcube [flags] [FILE|URL]...  no FILE: the bundled default clip

Draws a rotating cube textured with a playing video, through package videotex: the Y′CbCr sampler
path where the device expresses the stream, an RGBA8 conversion otherwise (the engine's code is
the same). The video loops. Keys: q or Esc quits.

  -headless            draw offscreen, no window (the default when there is no display);
                       pictures are shown in order, one per frame, timed by their timestamps
  -videos N            N textures, 1 to 6 (default: one per input): face i shows video i mod N;
                       the inputs repeat to make N
  -frames N            stop after N frames (0: until the window closes)
  -screenshot FILE.png at exit, write the last frame as PNG (needs -frames N)
  -size WxH            window or target size (default 640x480)
  -spin DEG            degrees per second (default 40; 0: the front face looks at the camera)
  -path auto|sampler|shader
  -depth=false         no depth test (to show what it does: hidden faces show through)
  -device N  -list-devices
  -validate            Khronos validation layer on; any message is an error
`

// config is the parsed command line.
type config struct {
	headless      bool
	frames        int
	screenshot    string
	width, height int
	spin          float64
	path          formats.Choice
	depth         bool
	device        int
	validate      bool
	urls          []string // one per texture
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func fail(stderr io.Writer, err error) int { return cli.Fail(stderr, 1, "%v", err) }

// usageFail reports a malformed command line or a bad flag value: one line, exit status 2.
func usageFail(stderr io.Writer, err error) int {
	return cli.Fail(stderr, 2, "%v (see ycbcrcube -h)", err)
}

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("ycbcrcube", flag.ContinueOnError)
	var cfg config
	fs.BoolVar(&cfg.headless, "headless", !window.Available(), "")
	fs.IntVar(&cfg.frames, "frames", 0, "")
	fs.StringVar(&cfg.screenshot, "screenshot", "", "")
	size := fs.String("size", "640x480", "")
	fs.Float64Var(&cfg.spin, "spin", 40, "")
	path := fs.String("path", "auto", "")
	fs.BoolVar(&cfg.depth, "depth", true, "")
	fs.IntVar(&cfg.device, "device", -1, "")
	list := fs.Bool("list-devices", false, "")
	fs.BoolVar(&cfg.validate, "validate", false, "")
	videos := fs.Int("videos", 0, "")
	inputs, err := cli.ParseMixed(fs, args)
	switch {
	case err == flag.ErrHelp:
		fmt.Fprint(stdout, usageText)
		return 0
	case err != nil:
		return usageFail(stderr, err)
	}
	if *list {
		return cli.ListDevices(stdout, stderr, 1)
	}
	if *videos == 0 {
		*videos = max(len(inputs), 1)
	}
	if *videos < 1 || *videos > 6 {
		return usageFail(stderr, fmt.Errorf("bad -videos %d: 1 to 6 (a cube has six faces)", *videos))
	}
	if len(inputs) > *videos {
		return usageFail(stderr, fmt.Errorf("%d inputs for -videos %d: one input a video at most", len(inputs), *videos))
	}
	if cfg.width, cfg.height, err = parseSize(*size); err != nil {
		return usageFail(stderr, err)
	}
	switch *path {
	case "auto":
		cfg.path = formats.ChooseAuto
	case "sampler":
		cfg.path = formats.ChooseSampler
	case "shader":
		cfg.path = formats.ChooseShader
	default:
		return usageFail(stderr, fmt.Errorf("bad -path %q: auto, sampler or shader", *path))
	}
	if cfg.frames < 0 {
		return usageFail(stderr, fmt.Errorf("bad -frames %d: must be ≥ 0", cfg.frames))
	}
	if cfg.screenshot != "" && cfg.frames == 0 {
		return usageFail(stderr, fmt.Errorf("-screenshot needs -frames N (the last frame is written)"))
	}
	if len(inputs) == 0 {
		clip, err := media.DefaultClipFile("ycbcrcube")
		if err != nil {
			return fail(stderr, err)
		}
		defer os.Remove(clip)
		inputs = []string{clip}
	}
	for i := 0; i < *videos; i++ {
		cfg.urls = append(cfg.urls, inputs[i%len(inputs)])
	}
	if err := play(cfg, stdout, stderr); err != nil {
		return fail(stderr, err)
	}
	return 0
}

func parseSize(s string) (int, int, error) {
	w, h, ok := strings.Cut(s, "x")
	wi, err1 := strconv.Atoi(w)
	hi, err2 := strconv.Atoi(h)
	if !ok || err1 != nil || err2 != nil || wi < 16 || hi < 16 || wi > 8192 || hi > 8192 {
		return 0, 0, fmt.Errorf("bad -size %q: WxH, 16 to 8192 each", s)
	}
	return wi, hi, nil
}

// play opens the device (standing in for the engine's own device creation: gpu.Open enables
// what videotex.Requirements asks for, which is checked), the texture and the output, and runs the
// frame loop.
func play(cfg config, stdout, stderr io.Writer) (err error) {
	dev, err := present.OpenDevice(present.DeviceParams{Headless: cfg.headless, GPU: gpu.Options{Index: cfg.device, Validation: cfg.validate}})
	if err != nil {
		return err
	}
	defer present.CloseDevice(dev)
	req, err := videotex.Requirements(dev.Instance, dev.Physical)
	if err != nil {
		return err
	}
	var enabled []string
	for e := range dev.Extensions {
		enabled = append(enabled, e)
	}
	if missing := req.Missing(enabled, dev.Info.Ycbcr); len(missing) > 0 {
		return fmt.Errorf("the device lacks %s", strings.Join(missing, ", "))
	}
	fmt.Fprintf(stdout, "device: %s\n", dev.Info)

	e := &engine{dev: dev, cfg: cfg}
	// The textures' queue is the engine's rendering queue; the frame loop runs on this goroutine
	// only, which is the external synchronization Vulkan asks for. The textures share one
	// videotex.Engine: one conversion cache and one set of pipelines for all.
	eng, err := videotex.NewEngine(videotex.EngineDevice{Instance: dev.Instance, Physical: dev.Physical,
		Device: dev.Device, Queue: dev.Queue, QueueFamily: dev.QueueFamily, Extensions: enabled})
	if err != nil {
		return err
	}
	defer func() {
		e.close() // waits for the GPU: the textures' images are no longer in use
		for _, ts := range e.texs {
			if cerr := ts.tex.Close(); err == nil && cerr != nil {
				err = cerr
			}
		}
		if cerr := eng.Close(); err == nil && cerr != nil {
			err = cerr
		}
		if cfg.validate && err == nil {
			err = dev.ValidationError(stderr)
		}
	}()
	for i, url := range cfg.urls {
		label := "video"
		if len(cfg.urls) > 1 {
			label = fmt.Sprintf("video %d", i)
		}
		tex, err := eng.Open(url, videotex.Options{Path: cfg.path, Loop: true,
			OnChange: func(c videotex.Change) {
				fmt.Fprintf(stdout, "%s: %s %dx%d %s, generation %d, %s path (%s)\n", label, c.Format, c.Width, c.Height,
					c.Params, c.Generation, c.Path, c.Reason)
			}})
		if err != nil {
			return err
		}
		e.texs = append(e.texs, &texState{tex: tex})
	}
	if err := e.openOutput(); err != nil {
		return err
	}
	if err := e.newSlots(); err != nil {
		return err
	}
	res, err := e.loop()
	if err != nil {
		return err
	}
	if res.last != nil {
		fmt.Fprintf(stdout, "drew %d frames; last picture %d at %.3f s\n", res.frames, res.last.Index, res.last.PTS.Seconds())
	}
	if cfg.screenshot != "" {
		if res.shot == nil {
			return fmt.Errorf("no frame was drawn: nothing to write to %s", cfg.screenshot)
		}
		if err := picfile.Write(cfg.screenshot, res.shot); err != nil {
			return err
		}
	}
	return nil
}
