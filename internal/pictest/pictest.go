// Package pictest compares pictures in tests: with the oracle's per-pixel bounds, or with each other.
package pictest

import (
	"fmt"
	"image"
	"math"

	"github.com/ycbcrkit/ycbcrkit/ycbcr/oracle"
)

// Mismatch compares a read-back RGBA8 picture with per-pixel oracle bounds (already mapped to 8-bit
// codes). It returns how many channel values fall outside, the worst excess in 8-bit LSB and where.
func Mismatch(img *image.RGBA, bounds []oracle.Bounds) (fails int, worst float64, where string) {
	w := img.Rect.Dx()
	for i, b := range bounds {
		x, y := i%w, i/w
		for c := 0; c < 3; c++ {
			v := float64(img.Pix[img.PixOffset(x, y)+c]) / 255
			ex := math.Max(b.Lo[c]-v, v-b.Hi[c])
			if ex > 1e-9 {
				fails++
				if ex*255 > worst {
					worst = ex * 255
					where = fmt.Sprintf("(%d,%d) channel %d = %.0f, bounds [%.1f, %.1f]", x, y, c, v*255, b.Lo[c]*255, b.Hi[c]*255)
				}
			}
		}
	}
	return fails, worst, where
}

// FirstDiff finds the first pixel where two pictures of the same size differ ("" if none).
func FirstDiff(a, b *image.RGBA) string {
	if a.Rect != b.Rect {
		return fmt.Sprintf("sizes %v and %v", a.Rect, b.Rect)
	}
	for i := range a.Pix {
		if a.Pix[i] != b.Pix[i] {
			px := i / 4
			return fmt.Sprintf("(%d,%d) channel %d: %d vs %d", px%a.Rect.Dx(), px/a.Rect.Dx(), i%4, a.Pix[i], b.Pix[i])
		}
	}
	return ""
}
