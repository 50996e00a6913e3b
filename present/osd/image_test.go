package osd

import (
	"image"
	"math"
	"testing"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/internal/testkit/vktest"
)

// pq is SMPTE ST 2084's inverse EOTF (BT.2100 Table 4) of y, a fraction of 10000 cd/m².
func pq(y float64) float64 {
	const m1, m2 = 2610.0 / 16384, 2523.0 / 4096 * 128
	const c1, c2, c3 = 3424.0 / 4096, 2413.0 / 4096 * 32, 2392.0 / 4096 * 32
	l := math.Pow(y, m1)
	return math.Pow((c1+c2*l)/(1+c3*l), m2)
}

// TestImagePassBlendsInTheOutputsSpace draws a premultiplied image (opaque white, half-transparent
// red, transparent) over black at an offset, on an SDR and on an HDR10 target: SDR shows the image's
// values blended as straight alpha; HDR10 shows white at PQ(203 cd/m²), BT.2408's graphics white.
func TestImagePassBlendsInTheOutputsSpace(t *testing.T) {
	dev := vktest.Open(t)
	p, err := NewImagePass(dev, 2)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Destroy()
	const w, h = 64, 32
	off, err := dev.NewOffscreen(w, h)
	if err != nil {
		t.Fatal(err)
	}
	defer off.Destroy()
	img := image.NewRGBA(image.Rect(10, 5, 40, 25))
	for y := 5; y < 25; y++ {
		for x := 10; x < 40; x++ {
			switch {
			case x < 20:
				copy(img.Pix[img.PixOffset(x, y):], []uint8{255, 255, 255, 255})
			case x < 30:
				copy(img.Pix[img.PixOffset(x, y):], []uint8{128, 0, 0, 128}) // red at half, premultiplied
			}
		}
	}
	for slot, hdr := range []bool{false, true} {
		err = dev.Submit(func(cb vk.CommandBuffer) {
			off.Begin(cb)
			if err := p.Draw(cb, slot, off, w, h, img, hdr); err != nil {
				t.Error(err)
			}
			off.End(cb)
		})
		if err != nil {
			t.Fatal(err)
		}
		got := off.RGBA()
		white := 255.0
		if hdr {
			white = math.Round(255 * pq(203.0/10000))
		}
		for _, c := range []struct {
			x, y    int
			r, g, b float64
		}{
			{15, 10, white, white, white},
			{25, 20, 0, 0, 0}, // red: checked below
			{35, 10, 0, 0, 0}, // transparent
			{5, 3, 0, 0, 0},   // outside the image
			{45, 28, 0, 0, 0},
		} {
			px := got.RGBAAt(c.x, c.y)
			if c.x == 25 {
				r := 255 * 0.5
				if hdr { // red at 203 cd/m² in BT.2020: R' = PQ(0.6274·203/10000), G' = PQ(0.0691·…), B' = PQ(0.0164·…)
					r = 0.5 * 255 * pq(0.6274*203.0/10000)
					c.g, c.b = 0.5*255*pq(0.0691*203.0/10000), 0.5*255*pq(0.0164*203.0/10000)
				}
				c.r = r
			}
			if math.Abs(float64(px.R)-c.r) > 1.5 || math.Abs(float64(px.G)-c.g) > 1.5 || math.Abs(float64(px.B)-c.b) > 1.5 {
				t.Errorf("hdr %v: pixel (%d,%d) = %v, want %.1f %.1f %.1f", hdr, c.x, c.y, px, c.r, c.g, c.b)
			}
		}
	}
	vktest.Check(t, dev)
}
