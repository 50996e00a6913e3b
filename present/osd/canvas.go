package osd

import "image/color"

// Quad is one rectangle of the display, as osd.vert reads it (shaders.OSDQuadSize bytes): where it
// goes in target pixels, which part of the atlas it shows (0..1), and its colour (straight alpha).
type Quad struct {
	X0, Y0, X1, Y1 float32
	U0, V0, U1, V1 float32
	R, G, B, A     float32
}

// Canvas collects the quads of one frame's display.
type Canvas struct {
	Font  *Font
	Quads []Quad
}

// Reset empties the canvas for the next frame (its memory is kept).
func (c *Canvas) Reset() { c.Quads = c.Quads[:0] }

func rgba(col color.NRGBA) (r, g, b, a float32) {
	return float32(col.R) / 255, float32(col.G) / 255, float32(col.B) / 255, float32(col.A) / 255
}

// Rect fills (x0, y0)–(x1, y1) with col.
func (c *Canvas) Rect(x0, y0, x1, y1 int, col color.NRGBA) {
	if x1 <= x0 || y1 <= y0 {
		return
	}
	s := c.Font.solid
	w, h := float32(c.Font.Mask.Rect.Dx()), float32(c.Font.Mask.Rect.Dy())
	// The solid block's centre texels: any filtering reads full coverage there.
	u0, v0 := float32(s.Min.X+1)/w, float32(s.Min.Y+1)/h
	u1, v1 := float32(s.Max.X-1)/w, float32(s.Max.Y-1)/h
	r, g, b, a := rgba(col)
	c.Quads = append(c.Quads, Quad{float32(x0), float32(y0), float32(x1), float32(y1), u0, v0, u1, v1, r, g, b, a})
}

// Text draws s with its line's top at y, from x; it returns the x after the last glyph.
func (c *Canvas) Text(x, y int, s string, col color.NRGBA) int {
	f := c.Font
	w, h := float32(f.Mask.Rect.Dx()), float32(f.Mask.Rect.Dy())
	r, g, b, a := rgba(col)
	base := y + f.Ascent
	for _, ch := range s {
		gl := f.glyph(ch)
		if gl.Atlas.Dx() > 0 && gl.Atlas.Dy() > 0 {
			x0, y0 := x+gl.Offset.X, base+gl.Offset.Y
			c.Quads = append(c.Quads, Quad{float32(x0), float32(y0), float32(x0 + gl.Atlas.Dx()), float32(y0 + gl.Atlas.Dy()),
				float32(gl.Atlas.Min.X) / w, float32(gl.Atlas.Min.Y) / h, float32(gl.Atlas.Max.X) / w, float32(gl.Atlas.Max.Y) / h,
				r, g, b, a})
		}
		x += gl.Advance
	}
	return x
}

// Panel draws lines of text on a translucent box whose top left is (x, y), with pad pixels of margin
// inside; it returns the box's size.
func (c *Canvas) Panel(x, y, pad int, lines []string, text, box color.NRGBA) (w, h int) {
	for _, l := range lines {
		w = max(w, c.Font.Width(l))
	}
	w, h = w+2*pad, len(lines)*c.Font.LineHeight+2*pad
	c.Rect(x, y, x+w, y+h, box)
	for i, l := range lines {
		c.Text(x+pad, y+pad+i*c.Font.LineHeight, l, text)
	}
	return w, h
}
