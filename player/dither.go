package player

import (
	"fmt"
	"strconv"

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

// For is the dither of a picture of pf converted with p, debanded or not: the target holds 8 bits
// per component, 10 with HDR10 output. auto dithers a debanded picture too: debanding computes values
// between the source's codes, which rounding to the target's would put back into the same steps.
func (d Dither) For(pf *formats.PixelFormat, p ycbcr.Params, debanded bool) ycbcr.Dither {
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
		if debanded || ycbcr.DitherNeeded(pf, p, bits) {
			return ycbcr.DitherBlue
		}
	}
	return ycbcr.DitherOff
}

// HDRPeak is -hdr-peak: the source peak the PQ tone mapping assumes. 0 (metadata, the zero value)
// takes the stream's metadata; PeakAuto measures each picture (ycbcr.PeakFilter, the stream's peak
// detection) and uses the detected peak where it is below the metadata's; N > 0 is N cd/m².
type HDRPeak float64

// PeakAuto is -hdr-peak auto.
const PeakAuto HDRPeak = -1

// ParseHDRPeak reads -hdr-peak: auto, metadata or N (cd/m², 100 to 10000).
func ParseHDRPeak(s string) (HDRPeak, error) {
	switch s {
	case "auto":
		return PeakAuto, nil
	case "metadata":
		return 0, nil
	}
	n, err := strconv.ParseFloat(s, 64)
	if err != nil || !(n >= ycbcr.SDRPeak && n <= 10000) {
		return 0, fmt.Errorf("bad -hdr-peak %q: auto, metadata or cd/m² from 100 to 10000", s)
	}
	return HDRPeak(n), nil
}

func (h HDRPeak) String() string {
	switch {
	case h == PeakAuto:
		return "auto"
	case h == 0:
		return "metadata"
	}
	return strconv.FormatFloat(float64(h), 'g', -1, 64)
}

// apply is p with a fixed peak (N cd/m²) as the mastering display's, for PQ streams; auto and
// metadata leave p as it is (auto acts in the stream, per picture).
func (h HDRPeak) apply(p ycbcr.Params) ycbcr.Params {
	if h <= 0 || p.Transfer.Kind() != formats.TransferPQ {
		return p
	}
	p.HDR.MaxLuminance, p.HDR.MaxCLL = float64(h), 0
	if p.HDR.MinLuminance >= float64(h) || !p.HDR.Valid() {
		p.HDR = formats.HDRMetadata{MaxLuminance: float64(h)}
	}
	return p
}

// peakName says, for -stats and the info line, which peak the PQ tone mapping uses ("" when the
// stream is not tone-mapped PQ).
func (r *Renderer) peakName() string {
	p := r.params
	if p.Transfer.Kind() != formats.TransferPQ || p.Tone == ycbcr.ToneOff || p.Output != ycbcr.OutputSDR {
		return ""
	}
	src := p.ToneInputs().SourcePeak
	switch {
	case r.Peak == PeakAuto && r.Stream.Peak() > 0:
		return fmt.Sprintf("detected %.0f cd/m² (tone-mapped from %.0f; metadata %.0f)", r.Stream.Peak(), p.WithPeak(r.Stream.Peak()).ToneInputs().SourcePeak, src)
	case r.Peak == PeakAuto && r.Stream.Plan().Path.Path != formats.PathShader:
		return fmt.Sprintf("metadata %.0f cd/m² (peak detection runs on the shader path)", src)
	case r.Peak == PeakAuto:
		return fmt.Sprintf("metadata %.0f cd/m² (nothing detected yet)", src)
	case r.Peak > 0:
		return fmt.Sprintf("fixed %.0f cd/m²", src)
	}
	return fmt.Sprintf("metadata %.0f cd/m²", src)
}
