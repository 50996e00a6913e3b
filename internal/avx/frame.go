package avx

/*
#include "avx.h"
*/
import "C"

import (
	"unsafe"

	"github.com/asticode/go-astiav"
)

// NoPTS is AV_NOPTS_VALUE.
const NoPTS = int64(C.AV_NOPTS_VALUE)

// FrameFlagCorrupt is AV_FRAME_FLAG_CORRUPT.
const FrameFlagCorrupt = int(C.AV_FRAME_FLAG_CORRUPT)

// FrameFlagInterlaced is AV_FRAME_FLAG_INTERLACED: the frame holds two fields.
const FrameFlagInterlaced = int(C.AV_FRAME_FLAG_INTERLACED)

// FrameFlagTopFieldFirst is AV_FRAME_FLAG_TOP_FIELD_FIRST.
const FrameFlagTopFieldFirst = int(C.AV_FRAME_FLAG_TOP_FIELD_FIRST)

// Fields are the AVFrame fields the decoder needs, read in one cgo call. Data points into the
// frame's buffers: valid while the frame holds its reference.
type Fields struct {
	Width, Height, Format int
	Data                  [4]unsafe.Pointer
	Linesize              [4]int
	// Owned is how many bytes from Data[i] belong to plane i: to the end of the buffer holding it, or
	// to the next plane's start in that buffer (0 when no buffer of the frame holds it).
	Owned [4]int

	// Colour metadata with FFmpeg's numeric values (AVColorRange, AVColorSpace, ...).
	ColorRange, ColorSpace, ColorPrimaries, ColorTrc, ChromaLocation int

	Flags            int // AV_FRAME_FLAG_*
	DecodeErrorFlags int // FF_DECODE_ERROR_*
	KeyFrame         bool

	// PktDuration is AVFrame.duration (FFmpeg 6.0 renamed pkt_duration): the frame's duration in the
	// stream's time base, 0 when unknown.
	PTS, BestEffortTimestamp, PktDuration int64
	SARNum, SARDen                        int
}

// ReadFields reads f's fields (go-astiav exposes only some of them, and Data() copies the planes).
func ReadFields(f *astiav.Frame) Fields {
	c := frame(f)
	out := Fields{
		Width: int(c.width), Height: int(c.height), Format: int(c.format),
		ColorRange: int(c.color_range), ColorSpace: int(c.colorspace), ColorPrimaries: int(c.color_primaries),
		ColorTrc: int(c.color_trc), ChromaLocation: int(c.chroma_location),
		Flags: int(c.flags), DecodeErrorFlags: int(c.decode_error_flags), KeyFrame: c.flags&C.AV_FRAME_FLAG_KEY != 0,
		PTS: int64(c.pts), BestEffortTimestamp: int64(c.best_effort_timestamp), PktDuration: int64(c.duration),
		SARNum: int(c.sample_aspect_ratio.num), SARDen: int(c.sample_aspect_ratio.den),
	}
	for i := 0; i < 4; i++ {
		out.Data[i] = unsafe.Pointer(c.data[i])
		out.Linesize[i] = int(c.linesize[i])
	}
	for i := 0; i < 4; i++ {
		a := uintptr(out.Data[i])
		if a == 0 {
			continue
		}
		for _, b := range c.buf {
			if b == nil {
				continue
			}
			start := uintptr(unsafe.Pointer(b.data))
			end := start + uintptr(b.size)
			if a < start || a >= end {
				continue
			}
			for k := 0; k < 4; k++ { // a later plane in the same buffer ends this one
				if n := uintptr(out.Data[k]); n > a && n < end {
					end = n
				}
			}
			out.Owned[i] = int(end - a)
			break
		}
	}
	return out
}

// SetColor writes the colour metadata of f (FFmpeg's numeric values), e.g. after a conversion.
func SetColor(f *astiav.Frame, colorRange, colorSpace, primaries, trc, chromaLocation int) {
	c := frame(f)
	c.color_range = C.enum_AVColorRange(colorRange)
	c.colorspace = C.enum_AVColorSpace(colorSpace)
	c.color_primaries = C.enum_AVColorPrimaries(primaries)
	c.color_trc = C.enum_AVColorTransferCharacteristic(trc)
	c.chroma_location = C.enum_AVChromaLocation(chromaLocation)
}

// Bytes returns n bytes at p as a slice without copying. p must point into C memory that stays
// valid for as long as the slice is used.
func Bytes(p unsafe.Pointer, n int) []byte {
	if p == nil || n <= 0 {
		return nil
	}
	return unsafe.Slice((*byte)(p), n)
}
