package formats

import "fmt"

// Color is the colour metadata of a picture, as an AVFrame carries it.
//
// The zero Color is not "all unspecified": Matrix 0 is "gbr" and Primaries/Transfer 0 are reserved,
// as in FFmpeg. Start from UnspecifiedColor when filling one in field by field.
type Color struct {
	Matrix         Matrix
	Range          Range
	ChromaLocation ChromaLocation
	Primaries      Primaries
	Transfer       Transfer
	// HDR is the static HDR metadata (mastering display, content light level) the frame carries as
	// side data; zero when it carries none. Resolve leaves it as it is.
	HDR HDRMetadata
}

// UnspecifiedColor returns a Color with every field unspecified.
func UnspecifiedColor() Color {
	return Color{Matrix: MatrixUnspecified, Range: RangeUnspecified, ChromaLocation: ChromaUnspecified, Primaries: PrimariesUnspecified, Transfer: TransferUnspecified}
}

func (c Color) String() string {
	return fmt.Sprintf("matrix=%s range=%s chroma=%s primaries=%s transfer=%s",
		c.Matrix, c.Range, c.ChromaLocation, c.Primaries, c.Transfer)
}

// Resolve replaces unspecified (and reserved or invalid) fields of c with the values a player would
// assume, and returns one human-readable note per field it changed. Fields that are given are kept,
// except that yuvj* layouts force full range. pf may be nil (then it is treated as a subsampled,
// non-JPEG Y′CbCr layout).
//
// The rule (docs/ycbcr-math.md §7.2, §7.5):
//
//   - Matrix: yuvj* → BT.601 (smpte170m): JPEG (JFIF, T.871) is BT.601, as libplacebo's
//     pl_color_repr_jpeg. Otherwise BT.709 if width ≥ 1280 or height > 576, else BT.601 (smpte170m),
//     as mpv (mp_csp_guess_colorspace) and libplacebo (pl_color_system_guess_ycbcr) guess: HD content
//     is BT.709, SD content BT.601. (swscale uses BT.601 for everything; that is wrong for HD.)
//   - Range: yuvj* → full, always: the layout means full range ("deprecated in favor of setting
//     color_range", but decoders still emit it). Unspecified → full for gray and for the RGB matrix
//     (mpv infer_levels, libplacebo), limited otherwise (swscale treats unspecified as limited, mpv and
//     libplacebo guess limited for Y′CbCr).
//   - Chroma location: 4:4:4 and gray → center (there is no subsampling, so siting has no effect;
//     mpv does the same). yuvj* → center (JPEG siting, pixfmt.h). Otherwise → left: the H.264/HEVC
//     default when the VUI has no chroma_loc_info (FFmpeg's h2645_vui.c), and libplacebo's guess for
//     "the majority of subsampled chroma content". swscale assumes center instead; it is noted here
//     as the one disagreement.
//   - Primaries and transfer: BT.709 / BT.709: the common case for untagged content. They do not
//     affect the Y′CbCr → R′G′B′ step; they matter only to a colour-managed output.
func Resolve(c Color, pf *PixelFormat, width, height int) (resolved Color, notes []string) {
	yuvj, grayFmt, subsampled := false, false, true
	pfName := "?"
	if pf != nil {
		yuvj, grayFmt = pf.FullRange, pf.Gray
		subsampled = !pf.Gray && (pf.Log2ChromaW > 0 || pf.Log2ChromaH > 0)
		pfName = pf.Name
	}
	r := c
	note := func(format string, a ...any) { notes = append(notes, fmt.Sprintf(format, a...)) }
	// what says why a field is being replaced: unspecified, or a value that is not valid metadata.
	what := func(v int, names []string, unspecified int) string {
		if v == unspecified {
			return "unspecified"
		}
		if v >= 0 && v < len(names) && names[v] == "reserved" {
			return fmt.Sprintf("reserved (%d)", v)
		}
		return fmt.Sprintf("invalid (%d)", v)
	}

	if m := int(c.Matrix); !valid(matrixNames, m) || c.Matrix == MatrixUnspecified {
		switch {
		case yuvj:
			r.Matrix = MatrixSMPTE170M
			note("matrix %s: %s (%s: JPEG uses BT.601)", what(m, matrixNames, 2), r.Matrix, pfName)
		case width >= 1280:
			r.Matrix = MatrixBT709
			note("matrix %s: %s (width %d ≥ 1280)", what(m, matrixNames, 2), r.Matrix, width)
		case height > 576:
			r.Matrix = MatrixBT709
			note("matrix %s: %s (height %d > 576)", what(m, matrixNames, 2), r.Matrix, height)
		default:
			r.Matrix = MatrixSMPTE170M
			note("matrix %s: %s (%d×%d: width < 1280 and height ≤ 576, BT.601)", what(m, matrixNames, 2), r.Matrix, width, height)
		}
	}

	switch v := int(c.Range); {
	case yuvj && c.Range != RangeFull:
		r.Range = RangeFull
		if c.Range == RangeLimited {
			note("range tv overridden: pc (%s is full range)", pfName)
		} else {
			note("range %s: pc (%s is full range)", what(v, rangeNames, 0), pfName)
		}
	case valid(rangeNames, v) && c.Range != RangeUnspecified:
	case grayFmt:
		r.Range = RangeFull
		note("range %s: pc (gray is assumed full range, as mpv)", what(v, rangeNames, 0))
	case r.Matrix == MatrixRGB:
		r.Range = RangeFull
		note("range %s: pc (RGB is full range)", what(v, rangeNames, 0))
	default:
		r.Range = RangeLimited
		note("range %s: tv (limited, as swscale, mpv and libplacebo assume for Y′CbCr)", what(v, rangeNames, 0))
	}

	if l := int(c.ChromaLocation); !valid(chromaNames, l) || c.ChromaLocation == ChromaUnspecified {
		w := what(l, chromaNames, 0)
		switch {
		case grayFmt:
			r.ChromaLocation = ChromaCenter
			note("chroma location %s: center (gray has no chroma)", w)
		case !subsampled:
			r.ChromaLocation = ChromaCenter
			note("chroma location %s: center (%s is not subsampled: siting has no effect)", w, pfName)
		case yuvj:
			r.ChromaLocation = ChromaCenter
			note("chroma location %s: center (%s: JPEG siting)", w, pfName)
		default:
			r.ChromaLocation = ChromaLeft
			note("chroma location %s: left (H.264/HEVC default, as libplacebo; swscale would assume center)", w)
		}
	}

	if p := int(c.Primaries); !valid(primNames, p) || c.Primaries == PrimariesUnspecified {
		r.Primaries = PrimariesBT709
		note("primaries %s: bt709 (assumed for untagged content)", what(p, primNames, 2))
	}
	if t := int(c.Transfer); !valid(transferNames, t) || c.Transfer == TransferUnspecified {
		r.Transfer = TransferBT709
		note("transfer %s: bt709 (assumed for untagged content)", what(t, transferNames, 2))
	}
	return r, notes
}
