package player

import (
	"fmt"

	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/ycbcr"
)

// Dither is -dither: how the shown picture is rounded to the target's depth (ycbcr.Dither).
type Dither int

const (
	// DitherOff rounds to the nearest code: the zero value, the library's and the tests' default.
	DitherOff Dither = iota
	// DitherAuto dithers with blue noise where the picture carries more precision than the target
	// holds (ycbcr.DitherNeeded: deeper sources, tone mapping, HDR10 output): ycbcrplay's default.
	DitherAuto
	DitherBlue
	DitherOrdered
)

// ParseDither reads -dither.
func ParseDither(s string) (Dither, error) {
	for d := DitherOff; d <= DitherOrdered; d++ {
		if d.String() == s {
			return d, nil
		}
	}
	return 0, fmt.Errorf("bad -dither %q: auto, blue, ordered or off", s)
}

func (d Dither) String() string { return [...]string{"off", "auto", "blue", "ordered"}[d] }

// For is the dither of a picture of pf converted with p: the target holds 8 bits per component,
// 10 with HDR10 output.
func (d Dither) For(pf *formats.PixelFormat, p ycbcr.Params) ycbcr.Dither {
	switch d {
	case DitherBlue:
		return ycbcr.DitherBlue
	case DitherOrdered:
		return ycbcr.DitherOrdered
	case DitherAuto:
		bits := 8
		if p.Output != ycbcr.OutputSDR {
			bits = 10
		}
		if ycbcr.DitherNeeded(pf, p, bits) {
			return ycbcr.DitherBlue
		}
	}
	return ycbcr.DitherOff
}
