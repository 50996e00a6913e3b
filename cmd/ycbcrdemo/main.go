// Command ycbcrdemo draws one synthetic frame through both conversion paths, headless, and writes a
// PNG with the two pictures side by side and their amplified difference, with figures: how far each
// path is from the CPU oracle, and how far the paths are from each other.
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/gpu"
	"github.com/ycbcrkit/ycbcrkit/internal/app/cli"
	"github.com/ycbcrkit/ycbcrkit/testvectors/synth"
	"github.com/ycbcrkit/ycbcrkit/ycbcr"
	"github.com/ycbcrkit/ycbcrkit/ycbcr/check"
	"github.com/ycbcrkit/ycbcrkit/ycbcr/oracle"
)

const usageText = `usage: ycbcrdemo [flags]

Draws one synthetic frame through the Y′CbCr sampler path and the shader path, offscreen, and
writes PNG: sampler | shader | difference ×32. Prints each path's distance from the CPU oracle.

  -format NAME       pixel layout, FFmpeg's name (yuv420p, nv12, p010le, yuyv422, gray10le, ...)
  -size WxH          frame size, each 1..8192 (default 640x360)
  -pattern NAME      moving, probe (chroma-siting probe) or noise (default moving)
  -matrix NAME       bt709, smpte170m, bt470bg, bt2020nc, smpte240m, fcc, gbr (default bt709)
  -range tv|pc       (default tv)
  -chroma-loc NAME   left, center, topleft, top, bottomleft, bottom (default topleft: cosited on
                     both axes, which every device's sampler offers)
  -o FILE.png        output (default ycbcrdemo.png)
  -json              print the figures as one JSON object on stdout instead of lines
  -device N          Vulkan device as -list-devices numbers them; -1 picks one
  -list-devices      list the Vulkan devices and exit
  -validate          Khronos validation layer on; any message is an error

Exit status: 0 done, 1 error (device, conversion, output), 2 bad command line.
`

const diffGain = 32

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

// options is the command line.
type options struct {
	pixFmt, size, pattern, matrix, rng, chromaLoc, out string
	devIndex                                           int
	list, validate, jsonOut                            bool
}

// usageError is a malformed command line or a bad flag value: exit status 2.
type usageError struct{ error }

func parseArgs(args []string) (options, bool, error) {
	var o options
	fs := flag.NewFlagSet("ycbcrdemo", flag.ContinueOnError)
	fs.SetOutput(io.Discard) // errors are reported on one line by run
	fs.StringVar(&o.pixFmt, "format", "yuv420p", "")
	fs.StringVar(&o.size, "size", "640x360", "")
	fs.StringVar(&o.pattern, "pattern", "moving", "")
	fs.StringVar(&o.matrix, "matrix", "bt709", "")
	fs.StringVar(&o.rng, "range", "tv", "")
	fs.StringVar(&o.chromaLoc, "chroma-loc", "topleft", "")
	fs.StringVar(&o.out, "o", "ycbcrdemo.png", "")
	fs.BoolVar(&o.jsonOut, "json", false, "")
	cli.DeviceFlags(fs, &o.devIndex, &o.list)
	fs.BoolVar(&o.validate, "validate", false, "")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return o, true, nil
		}
		return o, false, usageError{err}
	}
	if fs.NArg() > 0 {
		return o, false, usageError{fmt.Errorf("unexpected argument %q", fs.Arg(0))}
	}
	return o, false, nil
}

// run is the whole command, returning the exit status, so that tests can call it.
func run(args []string, stdout, stderr io.Writer) int {
	o, help, err := parseArgs(args)
	switch {
	case help:
		fmt.Fprint(stdout, usageText)
		return 0
	case err == nil && o.list:
		return cli.ListDevices(stdout, stderr, 1)
	case err == nil:
		err = demo(o, stdout)
	}
	if _, ok := err.(usageError); ok {
		return cli.Fail(stderr, 2, "%v (see ycbcrdemo -h)", err)
	}
	if err != nil {
		return cli.Fail(stderr, 1, "%v", err)
	}
	return 0
}

// figures is what -json prints.
type figures struct {
	Device   string              `json:"device"`
	Frame    string              `json:"frame"`
	Sampler  string              `json:"sampler"` // the conversion, or why the sampler path is not used
	Paths    map[string]distFrom `json:"paths"`
	Notes    []string            `json:"notes,omitempty"`
	Output   string              `json:"output"`
	DiffGain int                 `json:"diff_gain"`
}

type distFrom struct {
	MaxLSB  float64 `json:"max_lsb"`
	MeanLSB float64 `json:"mean_lsb"`
	Ms      float64 `json:"ms"`
}

func demo(o options, stdout io.Writer) error {
	pf, ok := formats.Lookup(o.pixFmt)
	if !ok {
		return usageError{fmt.Errorf("unknown pixel format %q (supported: %s)", o.pixFmt, strings.Join(formats.Names(), ", "))}
	}
	var w, h int
	if _, err := fmt.Sscanf(o.size, "%dx%d", &w, &h); err != nil || w <= 0 || h <= 0 || w > 8192 || h > 8192 {
		return usageError{fmt.Errorf("bad -size %q: want WxH, each 1..8192", o.size)}
	}
	c := formats.UnspecifiedColor()
	var err error
	if c.Matrix, err = formats.ParseMatrix(o.matrix); err != nil {
		return usageError{err}
	}
	if c.Range, err = formats.ParseRange(o.rng); err != nil {
		return usageError{err}
	}
	if c.ChromaLocation, err = formats.ParseChromaLocation(o.chromaLoc); err != nil {
		return usageError{err}
	}
	switch o.pattern {
	case "moving", "probe", "noise":
	default:
		return usageError{fmt.Errorf("unknown -pattern %q: moving, probe or noise", o.pattern)}
	}
	if !strings.EqualFold(filepath.Ext(o.out), ".png") {
		return usageError{fmt.Errorf("bad -o %q: a .png file", o.out)}
	}
	// The output is checked before any work: a missing folder fails at once.
	if f, err := os.OpenFile(o.out, os.O_WRONLY|os.O_CREATE, 0o644); err != nil {
		return err
	} else {
		f.Close()
	}
	fig := figures{Paths: map[string]distFrom{}, Output: o.out, DiffGain: diffGain}
	say := func(format string, a ...any) {
		if !o.jsonOut {
			fmt.Fprintf(stdout, format, a...)
		}
	}
	c, notes := formats.Resolve(c, pf, w, h)
	for _, n := range notes {
		say("note: %s\n", n)
	}
	fig.Notes = notes
	var f *formats.Frame
	switch o.pattern {
	case "moving":
		f, err = synth.Moving(pf, w, h, 0)
	case "probe":
		f, err = synth.SitingProbe(pf, w, h)
	default:
		f, err = synth.Noise(pf, w, h, 1)
	}
	if err != nil {
		return err
	}

	dev, err := gpu.Open(gpu.Options{Index: o.devIndex, Validation: o.validate})
	if err != nil {
		return err
	}
	defer dev.Close()
	conv, err := ycbcr.NewPaths(dev)
	if err != nil {
		return err
	}
	defer conv.Destroy()
	p := ycbcr.FromColor(c)
	fig.Device = dev.Info.String()
	fig.Frame = fmt.Sprintf("%s %dx%d %s, %s", pf.Name, w, h, pf.Subsampling(), p)
	say("device:  %s\nframe:   %s\n", fig.Device, fig.Frame)

	op, err := check.OracleParams(pf, p)
	if err != nil {
		return err
	}
	ref := oracle.Image(check.OraclePicture(f), op)
	pics := map[formats.Path]*image.RGBA{}
	for _, path := range []formats.Path{formats.PathSampler, formats.PathShader} {
		if path == formats.PathSampler {
			k, err := ycbcr.SamplerKey(dev, pf, p)
			if err != nil {
				fig.Sampler = "not used: " + err.Error()
				say("sampler: not used: %v\n", err)
				continue
			}
			fig.Sampler = fmt.Sprint(k)
			say("sampler: %s\n", k)
		}
		start := time.Now()
		img, err := conv.Convert(f, p, path)
		if err != nil {
			return err
		}
		maxd, mean := distance(img, ref)
		took := time.Since(start)
		fig.Paths[path.String()] = distFrom{MaxLSB: maxd, MeanLSB: mean, Ms: float64(took.Microseconds()) / 1000}
		say("%-8s from the oracle: max %.2f, mean %.3f (8-bit LSB); %s incl. upload and readback\n",
			path.String()+":", maxd, mean, took.Round(time.Millisecond))
		pics[path] = img
	}
	if err := dev.ValidationError(os.Stderr); err != nil {
		return err
	}
	if err := writeComposite(o.out, w, h, pics); err != nil {
		return err
	}
	say("wrote %s: sampler | shader | difference ×%d\n", o.out, diffGain)
	if o.jsonOut {
		return json.NewEncoder(stdout).Encode(fig)
	}
	return nil
}

// distance is the largest and mean absolute difference from the oracle's exact values, in LSB.
func distance(img *image.RGBA, ref [][4]float64) (maxd, mean float64) {
	w := img.Rect.Dx()
	for i, r := range ref {
		for c := 0; c < 3; c++ {
			d := math.Abs(float64(img.Pix[img.PixOffset(i%w, i/w)+c]) - 255*math.Min(math.Max(r[c], 0), 1))
			maxd = math.Max(maxd, d)
			mean += d
		}
	}
	return maxd, mean / float64(3*len(ref))
}

func writeComposite(out string, w, h int, pics map[formats.Path]*image.RGBA) error {
	const gap = 8
	canvas := image.NewRGBA(image.Rect(0, 0, 3*w+2*gap, h))
	draw.Draw(canvas, canvas.Bounds(), image.NewUniform(color.RGBA{40, 40, 40, 255}), image.Point{}, draw.Src)
	s, sh := pics[formats.PathSampler], pics[formats.PathShader]
	if s != nil {
		draw.Draw(canvas, image.Rect(0, 0, w, h), s, image.Point{}, draw.Src)
	}
	draw.Draw(canvas, image.Rect(w+gap, 0, 2*w+gap, h), sh, image.Point{}, draw.Src)
	if s != nil {
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				var px [3]uint8
				for c := 0; c < 3; c++ {
					d := math.Abs(float64(s.Pix[s.PixOffset(x, y)+c])-float64(sh.Pix[sh.PixOffset(x, y)+c])) * diffGain
					px[c] = uint8(math.Min(d, 255))
				}
				canvas.Set(2*(w+gap)+x, y, color.RGBA{px[0], px[1], px[2], 255})
			}
		}
	}
	file, err := os.Create(out)
	if err != nil {
		return err
	}
	if err := png.Encode(file, canvas); err != nil {
		file.Close()
		return err
	}
	if err := file.Close(); err != nil {
		return err
	}
	return nil
}
