package osd

import (
	"fmt"
	"image"
	"image/draw"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gomono"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
)

// Charset is what the atlas holds: printable ASCII and the few symbols the display uses. A rune
// outside it is drawn as '?'.
const Charset = " !\"#$%&'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrstuvwxyz{|}~" +
	"×–—…←→↑↓·′″±≤≥"

// Glyph is one rune's place in the atlas and how to place it on a line.
type Glyph struct {
	Atlas   image.Rectangle // texels in the atlas
	Offset  image.Point     // of the glyph's top left from the pen (on the baseline)
	Advance int             // pixels to the next pen position
}

// Font is a rasterized font: the atlas's coverage (Mask, one byte per texel) and where each glyph is.
type Font struct {
	Mask       *image.Alpha
	Glyphs     map[rune]Glyph
	Ascent     int // pixels above the baseline
	LineHeight int // pixels from one baseline to the next
	solid      image.Rectangle
}

// atlasWidth is the atlas's width in texels; its height is what the glyphs need.
const atlasWidth = 512

// NewFont rasterizes Go Mono (the Go fonts, https://go.dev/blog/go-fonts) at size pixels per em into
// an atlas, with full hinting (sharp stems at small sizes), one texel of padding around each glyph
// (so that neighbours never bleed in), and a solid block for filled rectangles.
func NewFont(size float64) (*Font, error) {
	ft, err := opentype.Parse(gomono.TTF)
	if err != nil {
		return nil, fmt.Errorf("osd: font: %w", err)
	}
	face, err := opentype.NewFace(ft, &opentype.FaceOptions{Size: size, DPI: 72, Hinting: font.HintingFull})
	if err != nil {
		return nil, fmt.Errorf("osd: font: %w", err)
	}
	defer face.Close()
	m := face.Metrics()
	f := &Font{Glyphs: map[rune]Glyph{}, Ascent: m.Ascent.Ceil(), LineHeight: m.Height.Ceil()}
	// The glyph mask face.Glyph returns is only valid until its next call: each is drawn at once into
	// a tall atlas, cut to the rows used at the end. Shelf packing: glyphs left to right, a new row
	// when the row is full.
	tall := image.NewAlpha(image.Rect(0, 0, atlasWidth, atlasWidth))
	f.solid = image.Rect(1, 1, 5, 5)
	draw.Draw(tall, f.solid, image.Opaque, image.Point{}, draw.Src)
	x, y, rowH := 6, 1, 6
	for _, r := range Charset {
		dr, mask, mp, adv, ok := face.Glyph(fixed.Point26_6{}, r)
		if !ok {
			continue
		}
		w, h := dr.Dx(), dr.Dy()
		if x+w+1 > atlasWidth {
			x, y, rowH = 1, y+rowH+1, 0
		}
		if y+h+1 > atlasWidth {
			return nil, fmt.Errorf("osd: font: %g px glyphs do not fit a %d² atlas", size, atlasWidth)
		}
		g := Glyph{Atlas: image.Rect(x, y, x+w, y+h), Offset: dr.Min, Advance: adv.Round()}
		f.Glyphs[r] = g
		draw.Draw(tall, g.Atlas, mask, mp, draw.Src)
		x += w + 1
		rowH = max(rowH, h)
	}
	f.Mask = image.NewAlpha(image.Rect(0, 0, atlasWidth, y+rowH+1))
	copy(f.Mask.Pix, tall.Pix)
	return f, nil
}

// glyph is r's glyph, or '?' for a rune outside Charset.
func (f *Font) glyph(r rune) Glyph {
	if g, ok := f.Glyphs[r]; ok {
		return g
	}
	return f.Glyphs['?']
}

// Width is how wide s is drawn, in pixels.
func (f *Font) Width(s string) int {
	w := 0
	for _, r := range s {
		w += f.glyph(r).Advance
	}
	return w
}

// Fit shortens each line that is wider than width pixels, ending it with "…".
func (f *Font) Fit(lines []string, width int) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		if f.Width(l) <= width {
			out[i] = l
			continue
		}
		r := []rune(l)
		for len(r) > 0 && f.Width(string(r)+"…") > width {
			r = r[:len(r)-1]
		}
		out[i] = string(r) + "…"
	}
	return out
}
