package avx

/*
#include "avx.h"
*/
import "C"

import (
	"fmt"

	"github.com/asticode/go-astiav"
)

// PosDefault leaves a chroma position to swscale (centre of the subsampled block).
const PosDefault = C.AVX_POS_DEFAULT

// swscale flags used by the decoder's conversions.
const (
	SwsBilinear    = C.SWS_BILINEAR
	SwsAccurateRnd = C.SWS_ACCURATE_RND
	SwsFullChrHInt = C.SWS_FULL_CHR_H_INT
	SwsFullChrHInp = C.SWS_FULL_CHR_H_INP
)

// ScaleSpec is one swscale conversion. Colorspaces are AVColorSpace values (swscale's SWS_CS_* use
// the same numbers); Full is the range (true: full/pc). Positions are swscale's *_chr_pos: the
// position of chroma sample 0 in 1/256 luma samples from luma sample 0, or PosDefault.
type ScaleSpec struct {
	SrcW, SrcH       int
	SrcFormat        astiav.PixelFormat
	DstW, DstH       int
	DstFormat        astiav.PixelFormat
	Flags            int
	SrcColorspace    int
	SrcFull          bool
	DstColorspace    int
	DstFull          bool
	SrcHPos, SrcVPos int
	DstHPos, DstVPos int
}

// Scaler is a swscale context set up with explicit ranges, matrices and chroma positions, which
// go-astiav's SoftwareScaleContext (sws_getContext only) cannot set.
type Scaler struct {
	c    *C.struct_SwsContext
	Spec ScaleSpec
}

// NewScaler initialises a conversion; it fails when swscale cannot convert between the formats.
func NewScaler(s ScaleSpec) (*Scaler, error) {
	b := func(v bool) C.int {
		if v {
			return 1
		}
		return 0
	}
	cs := C.AvxScaleSpec{
		src_w: C.int(s.SrcW), src_h: C.int(s.SrcH), src_format: C.int(s.SrcFormat),
		dst_w: C.int(s.DstW), dst_h: C.int(s.DstH), dst_format: C.int(s.DstFormat),
		flags:          C.int(s.Flags),
		src_colorspace: C.int(s.SrcColorspace), src_full: b(s.SrcFull),
		dst_colorspace: C.int(s.DstColorspace), dst_full: b(s.DstFull),
		src_h_pos: C.int(s.SrcHPos), src_v_pos: C.int(s.SrcVPos),
		dst_h_pos: C.int(s.DstHPos), dst_v_pos: C.int(s.DstVPos),
	}
	c := C.avx_scaler_new(&cs)
	if c == nil {
		return nil, fmt.Errorf("avx: swscale cannot convert %s %dx%d to %s %dx%d",
			s.SrcFormat.Name(), s.SrcW, s.SrcH, s.DstFormat.Name(), s.DstW, s.DstH)
	}
	return &Scaler{c: c, Spec: s}, nil
}

// Scale converts src into dst, whose planes must already be allocated (Pool.Alloc).
func (s *Scaler) Scale(dst, src *astiav.Frame) error {
	if ret := C.avx_scale(s.c, frame(dst), frame(src)); ret < 0 {
		return fmt.Errorf("avx: swscale %s to %s: %w", s.Spec.SrcFormat.Name(), s.Spec.DstFormat.Name(), astiav.Error(ret))
	}
	return nil
}

// Free releases the swscale context.
func (s *Scaler) Free() {
	if s.c != nil {
		C.sws_freeContext(s.c)
		s.c = nil
	}
}
