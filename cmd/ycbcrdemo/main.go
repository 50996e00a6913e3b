// Command ycbcrdemo draws one synthetic frame through both conversion paths, headless, and writes a
// PNG with the two pictures side by side and their amplified difference, with figures: how far each
// path is from the CPU oracle, and how far the paths are from each other.
package main

import (
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"math"
	"os"
	"strings"
	"time"

	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/gpu"
	"github.com/ycbcrkit/ycbcrkit/testvectors/synth"
	"github.com/ycbcrkit/ycbcrkit/ycbcr"
	"github.com/ycbcrkit/ycbcrkit/ycbcr/check"
	"github.com/ycbcrkit/ycbcrkit/ycbcr/oracle"
)

func usage() {
	fmt.Fprintf(os.Stderr, `usage: ycbcrdemo [flags]

Draws one synthetic frame through the Y′CbCr sampler path and the shader path, offscreen, and
writes PNG: sampler | shader | difference ×%d. Prints each path's distance from the CPU oracle.

`, diffGain)
	flag.PrintDefaults()
}

const diffGain = 32

func main() {
	var (
		pixFmt    = flag.String("format", "yuv420p", "pixel layout (FFmpeg name): "+strings.Join(formats.Names(), ", "))
		size      = flag.String("size", "640x360", "frame size WxH")
		pattern   = flag.String("pattern", "moving", "picture: moving, probe (chroma-siting probe), noise")
		matrix    = flag.String("matrix", "bt709", "matrix (FFmpeg name)")
		rng       = flag.String("range", "tv", "range: tv or pc")
		chromaLoc = flag.String("chroma-loc", "topleft", "chroma location: left, center, topleft, top, bottomleft, bottom (topleft: cosited on both axes, which every device's sampler offers)")
		out       = flag.String("o", "ycbcrdemo.png", "output PNG")
		devIndex  = flag.Int("device", -1, "Vulkan device index (see -list-devices); -1 picks one")
		list      = flag.Bool("list-devices", false, "list Vulkan devices and exit")
		validate  = flag.Bool("validate", false, "turn on the Khronos validation layer")
	)
	flag.Usage = usage
	flag.Parse()
	if err := run(*pixFmt, *size, *pattern, *matrix, *rng, *chromaLoc, *out, *devIndex, *list, *validate); err != nil {
		fmt.Fprintf(os.Stderr, "error: %v\n", err)
		os.Exit(1)
	}
}

func run(pixFmt, size, pattern, matrix, rng, chromaLoc, out string, devIndex int, list, validate bool) error {
	if list {
		return gpu.PrintDevices(os.Stdout)
	}
	pf, ok := formats.Lookup(pixFmt)
	if !ok {
		return fmt.Errorf("unknown pixel format %q (supported: %s)", pixFmt, strings.Join(formats.Names(), ", "))
	}
	var w, h int
	if _, err := fmt.Sscanf(size, "%dx%d", &w, &h); err != nil || w <= 0 || h <= 0 || w > 8192 || h > 8192 {
		return fmt.Errorf("bad -size %q: want WxH, each 1..8192", size)
	}
	c := formats.UnspecifiedColor()
	var err error
	if c.Matrix, err = formats.ParseMatrix(matrix); err != nil {
		return err
	}
	if c.Range, err = formats.ParseRange(rng); err != nil {
		return err
	}
	if c.ChromaLocation, err = formats.ParseChromaLocation(chromaLoc); err != nil {
		return err
	}
	c, notes := formats.Resolve(c, pf, w, h)
	for _, n := range notes {
		fmt.Println("note:", n)
	}
	var f *formats.Frame
	switch pattern {
	case "moving":
		f, err = synth.Moving(pf, w, h, 0)
	case "probe":
		f, err = synth.SitingProbe(pf, w, h)
	case "noise":
		f, err = synth.Noise(pf, w, h, 1)
	default:
		return fmt.Errorf("unknown -pattern %q: moving, probe or noise", pattern)
	}
	if err != nil {
		return err
	}

	dev, err := gpu.Open(gpu.Options{Index: devIndex, Validation: validate})
	if err != nil {
		return err
	}
	defer dev.Close()
	conv, err := ycbcr.NewConverter(dev)
	if err != nil {
		return err
	}
	defer conv.Destroy()
	p := ycbcr.FromColor(c)
	fmt.Printf("device:  %s\nframe:   %s %dx%d %s, %s\n", dev.Info, pf.Name, w, h, pf.Subsampling(), p)

	ref := oracle.Image(check.OraclePicture(f), mustOracle(pf, p))
	pics := map[formats.Path]*image.RGBA{}
	for _, path := range []formats.Path{formats.PathSampler, formats.PathShader} {
		if path == formats.PathSampler {
			k, err := ycbcr.SamplerKey(dev, pf, p)
			if err != nil {
				fmt.Printf("sampler: not used: %v\n", err)
				continue
			}
			fmt.Printf("sampler: %s\n", k)
		}
		start := time.Now()
		img, err := conv.Convert(f, p, path)
		if err != nil {
			return err
		}
		maxd, mean := distance(img, ref)
		fmt.Printf("%-8s from the oracle: max %.2f, mean %.3f (8-bit LSB); %s incl. upload and readback\n",
			path.String()+":", maxd, mean, time.Since(start).Round(time.Millisecond))
		pics[path] = img
	}
	if msgs := dev.ValidationMessages(); len(msgs) > 0 {
		for _, m := range msgs {
			fmt.Fprintln(os.Stderr, m.Text)
		}
		return fmt.Errorf("%d validation message(s)", len(msgs))
	}
	return writeComposite(out, w, h, pics)
}

func mustOracle(pf *formats.PixelFormat, p ycbcr.Params) oracle.Params {
	o, err := check.OracleParams(pf, p)
	if err != nil {
		fmt.Fprintf(os.Stderr, "error: %v\n", err)
		os.Exit(1)
	}
	return o
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
	fmt.Printf("wrote %s: sampler | shader | difference ×%d\n", out, diffGain)
	return nil
}
