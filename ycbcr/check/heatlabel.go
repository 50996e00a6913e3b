package check

import (
	"fmt"
	"image"
	"image/color"
	imagedraw "image/draw"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gomono"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
)

// The labelled heat map's text: Go Mono (the Go fonts, https://go.dev/blog/go-fonts), rasterized
// by golang.org/x/image/font/opentype at labelSize pixels per em, light grey on the frame colour.
const (
	labelSize   = 13
	labelMargin = 8
	swatchW     = 18 // the colour scale's bar
	swatchH     = 18 // one step of it
)

var labelInk = color.RGBA{0xe8, 0xe8, 0xe8, 0xff}

// scaleSteps are the colour scale's steps, top to bottom: palette index and tick label.
var scaleSteps = []struct {
	idx   uint8
	label string
}{
	{2, "in bounds"}, {3, "≤ 1 LSB"}, {4, "≤ 2"}, {5, "≤ 4"}, {6, "≤ 8"}, {7, "≤ 16"}, {8, "≤ 32"}, {9, "> 32 LSB"},
}

// textLine is one string drawn into the labelled image, with its pen position on the baseline.
type textLine struct {
	text string
	dot  image.Point
}

// heatLayout is where LabelledHeatMap put things: the map's top left, and every string it drew.
type heatLayout struct {
	mapAt image.Point
	text  []textLine
}

func labelFace() (font.Face, error) {
	ft, err := opentype.Parse(gomono.TTF)
	if err != nil {
		return nil, fmt.Errorf("heat map font: %w", err)
	}
	face, err := opentype.NewFace(ft, &opentype.FaceOptions{Size: labelSize, DPI: 72, Hinting: font.HintingFull})
	if err != nil {
		return nil, fmt.Errorf("heat map font: %w", err)
	}
	return face, nil
}

// heatTitle is the labelled map's title: what was checked, then one line per path (the map's rows)
// with its worst value.
func heatTitle(format string, c ComboResult) []string {
	lines := []string{fmt.Sprintf("%s %s: %s, %s range, siting %s, %s", shortFormatName(format), c.Name, c.Model, c.Range, c.Location, c.Filter)}
	rows := [2]string{"top row", "bottom row"}
	for k, pr := range []*PathResult{c.Sampler, c.Shader} {
		switch {
		case pr == nil:
			lines = append(lines, fmt.Sprintf("%s path (%s): not run", pathNames[k], rows[k]))
		case pr.Failed == 0:
			lines = append(lines, fmt.Sprintf("%s path (%s): all %d pixels within bounds", pathNames[k], rows[k], pr.Pixels))
		default:
			lines = append(lines, fmt.Sprintf("%s path (%s): %d of %d pixels outside, worst %.2f LSB at %s",
				pathNames[k], rows[k], pr.Failed, pr.Pixels, pr.WorstLSB, pr.Worst))
		}
	}
	lines = append(lines, "columns: noise centre, probe centre, noise off-centre, probe off-centre")
	return lines
}

// LabelledHeatMap is HeatMap (its pixels unchanged) with a title above it (format, combination,
// model, range, siting, filter, and each path's worst value) and the colour scale beside it: one
// step of the bar per palette entry, with tick labels in LSB outside the bounds.
func LabelledHeatMap(format string, c ComboResult, w, h int) (*image.RGBA, error) {
	img, _, err := labelledHeatMap(format, c, w, h)
	return img, err
}

func labelledHeatMap(format string, c ComboResult, w, h int) (*image.RGBA, heatLayout, error) {
	var lay heatLayout
	face, err := labelFace()
	if err != nil {
		return nil, lay, err
	}
	defer face.Close()
	m := face.Metrics()
	ascent, lineH := m.Ascent.Ceil(), m.Height.Ceil()
	hm := HeatMap(c, w, h)
	mb := hm.Bounds()

	title := heatTitle(format, c)
	titleW := 0
	for _, t := range title {
		titleW = max(titleW, font.MeasureString(face, t).Ceil())
	}
	labelW := 0
	for _, s := range scaleSteps {
		labelW = max(labelW, font.MeasureString(face, s.label).Ceil())
	}
	scaleHead := "outside bounds"
	labelW = max(labelW, font.MeasureString(face, scaleHead).Ceil()-swatchW-8, font.MeasureString(face, "not run").Ceil())

	lay.mapAt = image.Pt(labelMargin, labelMargin+len(title)*lineH+labelMargin/2)
	scaleX := lay.mapAt.X + mb.Dx() + 2*labelMargin
	width := max(labelMargin+titleW, scaleX+swatchW+8+labelW) + labelMargin
	scaleH := lineH + len(scaleSteps)*swatchH + swatchH/2 + swatchH
	height := lay.mapAt.Y + max(mb.Dy(), scaleH) + labelMargin

	img := image.NewRGBA(image.Rect(0, 0, width, height))
	imagedraw.Draw(img, img.Bounds(), image.NewUniform(heatColors[0]), image.Point{}, imagedraw.Src)
	imagedraw.Draw(img, mb.Add(lay.mapAt), hm, mb.Min, imagedraw.Src)

	d := font.Drawer{Dst: img, Src: image.NewUniform(labelInk), Face: face}
	text := func(s string, x, y int) { // y: the line's top
		dot := image.Pt(x, y+ascent)
		d.Dot = fixed.P(dot.X, dot.Y)
		d.DrawString(s)
		lay.text = append(lay.text, textLine{s, dot})
	}
	for i, t := range title {
		text(t, labelMargin, labelMargin+i*lineH)
	}

	// The scale: a heading, the bar (one step per palette entry, a tick and a label at each step's
	// middle), then the "not run" swatch apart from it.
	y := lay.mapAt.Y
	text(scaleHead, scaleX, y)
	y += lineH
	tick := func(idx uint8, label string, y int) {
		imagedraw.Draw(img, image.Rect(scaleX, y, scaleX+swatchW, y+swatchH), image.NewUniform(heatColors[idx]), image.Point{}, imagedraw.Src)
		mid := y + swatchH/2
		imagedraw.Draw(img, image.Rect(scaleX+swatchW, mid, scaleX+swatchW+4, mid+1), image.NewUniform(labelInk), image.Point{}, imagedraw.Src)
		text(label, scaleX+swatchW+8, mid-lineH/2)
	}
	for _, s := range scaleSteps {
		tick(s.idx, s.label, y)
		y += swatchH
	}
	tick(1, "not run", y+swatchH/2)
	return img, lay, nil
}
