package avx

/*
#include "avx.h"
#include <libavutil/pixdesc.h>
*/
import "C"

import "github.com/asticode/go-astiav"

// PixFmtDesc is the part of AVPixFmtDescriptor the format choice needs.
type PixFmtDesc struct {
	Name                     string
	Components               int // nb_components (alpha included)
	Log2ChromaW, Log2ChromaH int
	Depth                    int // bits of the first component
	RGB, Palette, Alpha      bool
	BigEndian, Bayer, Float  bool
	HWAccel, Bitstream       bool
}

// Describe returns the descriptor of pf; ok is false for AV_PIX_FMT_NONE and unknown values.
func Describe(pf astiav.PixelFormat) (d PixFmtDesc, ok bool) {
	c := C.av_pix_fmt_desc_get(C.enum_AVPixelFormat(pf))
	if c == nil {
		return d, false
	}
	f := uint64(c.flags)
	has := func(bit C.uint64_t) bool { return f&uint64(bit) != 0 }
	d = PixFmtDesc{
		Name:        C.GoString(c.name),
		Components:  int(c.nb_components),
		Log2ChromaW: int(c.log2_chroma_w),
		Log2ChromaH: int(c.log2_chroma_h),
		Depth:       int(c.comp[0].depth),
		RGB:         has(C.AV_PIX_FMT_FLAG_RGB),
		Palette:     has(C.AV_PIX_FMT_FLAG_PAL),
		Alpha:       has(C.AV_PIX_FMT_FLAG_ALPHA),
		BigEndian:   has(C.AV_PIX_FMT_FLAG_BE),
		Bayer:       has(C.AV_PIX_FMT_FLAG_BAYER),
		Float:       has(C.AV_PIX_FMT_FLAG_FLOAT),
		HWAccel:     has(C.AV_PIX_FMT_FLAG_HWACCEL),
		Bitstream:   has(C.AV_PIX_FMT_FLAG_BITSTREAM),
	}
	return d, true
}
