package player

import (
	"fmt"
	"image"
	"time"

	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/ycbcr"
)

// diffEvery is how often the window's diff figures are measured: each measurement converts the
// picture through both paths again and reads both back, so a few times a second, not every frame.
const diffEvery = 500 * time.Millisecond

// convertPath converts f again through path at the video's size, turned as shown (the screenshot's
// picture).
//
// A hardware-decoded frame has no planes on the CPU: it is drawn again from FFmpeg's image through
// the route it is played by (Renderer.Picture), so that the screenshot is what was shown.
//
// It is debanded where the stream debands (-deband), and not dithered (the exact picture, or the
// debanded one rounded) unless Config.Quality.ScreenshotDither asks for the dither shown;
// a PQ picture is tone-mapped for the peak the stream detected, as shown (-hdr-peak auto: a
// hardware frame is drawn by the stream's own bindings, which carry it).
func (p *Player) convertPath(f *Frame, path formats.Path) (*image.RGBA, error) {
	pic := f.Picture
	o := p.orientation(f)
	prm := p.params(f.Color)
	// Debanded as shown: one path, an 8-bit source, -deband (the stream's rule, stream.Config.Deband).
	debanded := p.cfg.Quality.debands(pic.Format) && len(p.rend.Stream.Paths()) == 1
	if p.cfg.Quality.ScreenshotDither {
		prm.Dither = p.cfg.Quality.Dither.For(pic.Format, prm, debanded)
	}
	dw, dh := o.DisplaySize(pic.Width, pic.Height)
	v := ycbcr.Fit(pic.Width, pic.Height, dw, dh, o, p.cfg.View.Filter) // Exact when not turned
	if hw := f.foreign(); hw != nil {
		return p.rend.Picture(pic, hw, prm, path, v)
	}
	if p.cfg.Colour.HDRPeak == PeakAuto {
		prm = prm.WithPeak(p.rend.Stream.Peak())
	}
	if debanded {
		return p.rend.Conv.ConvertDebanded(pic, prm, path, p.cfg.Quality.Deband, v)
	}
	if !o.Identity() { // turned as shown: the scale pass at 1:1 only moves pixels
		return p.rend.Conv.ConvertScaled(pic, prm, path, v)
	}
	return p.rend.Conv.Convert(pic, prm, path)
}

// diffPicture is the compare diff of f, as the diff mode shows it: |sampler − shader| × DiffGain per
// channel (clamped to 255, opaque), from both paths' 8-bit pictures, with the largest and the mean
// difference in 8-bit steps over all R, G and B samples.
func (p *Player) diffPicture(f *Frame) (img *image.RGBA, largest int, mean float64, err error) {
	a, err := p.convertPath(f, formats.PathSampler)
	if err != nil {
		return nil, 0, 0, err
	}
	b, err := p.convertPath(f, formats.PathShader)
	if err != nil {
		return nil, 0, 0, err
	}
	img, largest, mean = diffImage(a, b, DiffGain)
	return img, largest, mean, nil
}

// diffImage is |a − b| × gain per colour channel, clamped to 255, alpha 255, with the largest and the
// mean |a − b| over the colour samples.
func diffImage(a, b *image.RGBA, gain int) (*image.RGBA, int, float64) {
	out := image.NewRGBA(a.Rect)
	sum, n, largest := 0, 0, 0
	for i := 0; i+3 < len(a.Pix) && i+3 < len(b.Pix); i += 4 {
		for c := range 3 {
			d := int(a.Pix[i+c]) - int(b.Pix[i+c])
			if d < 0 {
				d = -d
			}
			sum += d
			n++
			largest = max(largest, d)
			out.Pix[i+c] = uint8(min(255, d*gain))
		}
		out.Pix[i+3] = 255
	}
	if n == 0 {
		return out, 0, 0
	}
	return out, largest, float64(sum) / float64(n)
}

// measureDiff refreshes the diff figures the window shows in diff mode, at most every diffEvery.
func (p *Player) measureDiff() {
	if p.win == nil || p.rend == nil || p.rend.active != CompareDiff || p.last == nil || time.Since(p.osd.diffAt) < diffEvery {
		return
	}
	p.osd.diffAt = time.Now()
	_, largest, mean, err := p.diffPicture(p.last)
	if err != nil {
		p.osd.diff = "not measured: " + err.Error()
		return
	}
	p.osd.diff = fmt.Sprintf("max %d, mean %.3f LSB (8-bit)", largest, mean)
}
