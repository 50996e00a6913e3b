package osd

import (
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	vk "github.com/vulkan-go/vulkan"
	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gomono"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"

	"github.com/ycbcrkit/ycbcrkit/internal/testkit/vktest"
)

// TestPassDrawsTheFontsOwnGlyphs draws a line of white text over black into an offscreen target and
// reads it back: each pixel must be the font's own rasterization (golang.org/x/image/font's Drawer
// drawing the same string on the CPU, not through the atlas) blended over black, within 1 of 255; and a filled rectangle
// over the picture blends as straight alpha does.
func TestPassDrawsTheFontsOwnGlyphs(t *testing.T) {
	dev := vktest.Open(t)
	p, err := NewPass(dev, 16, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Destroy()
	const w, h = 320, 48
	off, err := dev.NewOffscreen(w, h)
	if err != nil {
		t.Fatal(err)
	}
	defer off.Destroy()
	c := &Canvas{Font: p.Font}
	const text = "pos 0:12.3 / 1:00 ×2 ←→ [Wg|]"
	end := c.Text(4, 4, text, color.NRGBA{255, 255, 255, 255})
	c.Rect(0, 30, 100, 46, color.NRGBA{255, 0, 0, 128}) // half-transparent red over black
	err = dev.Submit(func(cb vk.CommandBuffer) {
		off.Begin(cb)
		if err := p.Draw(cb, 0, off, w, h, c.Quads); err != nil {
			t.Error(err)
		}
		off.End(cb)
	})
	if err != nil {
		t.Fatal(err)
	}
	got := off.RGBA()
	// The expected picture, independent of the atlas: the same string drawn by the font package's own
	// Drawer (x/image/font: face.Glyph per rune, at the same pen positions) into a CPU image.
	ft, err := opentype.Parse(gomono.TTF)
	if err != nil {
		t.Fatal(err)
	}
	face, err := opentype.NewFace(ft, &opentype.FaceOptions{Size: 16, DPI: 72, Hinting: font.HintingFull})
	if err != nil {
		t.Fatal(err)
	}
	want := image.NewGray(got.Rect)
	d := font.Drawer{Dst: want, Src: image.White, Face: face, Dot: fixed.P(4, 4+face.Metrics().Ascent.Ceil())}
	d.DrawString(text)
	covered := 0
	for y := 0; y < 30; y++ {
		for x := 0; x < w; x++ {
			g, wv := int(got.Pix[got.PixOffset(x, y)]), int(want.GrayAt(x, y).Y)
			if d := g - wv; d < -1 || d > 1 {
				t.Fatalf("pixel (%d,%d) = %d, want the glyph coverage %d", x, y, g, wv)
			}
			if wv > 128 {
				covered++
			}
		}
	}
	if covered < 100 || end != 4+len([]rune(text))*p.Font.Glyphs['a'].Advance {
		t.Fatalf("%d covered pixels, text ends at %d", covered, end)
	}
	if px := got.RGBAAt(50, 38); px.R < 127 || px.R > 129 || px.G != 0 || px.B != 0 {
		t.Errorf("rectangle pixel %v, want red 128 (half of 255 over black)", px)
	}
	if dir := os.Getenv("OSD_SHOTS"); dir != "" {
		f, _ := os.Create(filepath.Join(dir, "pass.png"))
		png.Encode(f, got)
		f.Close()
	}
	vktest.Check(t, dev)
}
