package decode

import (
	"unsafe"

	"github.com/asticode/go-astiav"

	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/internal/avx"
)

// Frame is one decoded picture.
//
// Lifetime: Picture's planes alias the frame's FFmpeg buffer (no copy). They stay valid until
// Release, independently of later Next, Seek and Close calls: each Frame holds its own reference to
// its buffer, and the decoder never writes into a buffer while a Frame holds it. After Release the
// planes must not be touched (the memory returns to the pool and is reused). Frames that are never
// released keep their buffer forever, so a player releases each frame once it has been uploaded or
// shown. Release is idempotent.
type Frame struct {
	// Picture is the picture in a layout of the formats table. Planes[i] has Strides[i] bytes per row
	// and ends with the last byte of the last row (the padding after it is not part of the slice).
	Picture *formats.Frame
	// SourceFormat is the stream's own pixel format; it differs from Picture.Format.Name when the
	// frame was converted with swscale (see Decoder.Notices), and for a picture decoded by Vulkan
	// Video into another layout (yuv420p decoded into nv12).
	SourceFormat string
	// PTS is the presentation time in seconds from the stream's start time.
	PTS float64
	// Duration is the frame's duration in seconds (0 when unknown).
	Duration float64
	// Field: the frame is one field of an interlaced frame, deinterlaced (bwdif, one frame per
	// field): it lasts half a coded frame (Duration), at twice the stream's frame rate.
	Field bool
	// Color is the resolved colour metadata of Picture: every field specified and valid.
	Color formats.Color
	// Tagged is the metadata as the input states it (frame fields, then the stream's), before
	// defaults; for converted frames, that of the source.
	Tagged formats.Color
	// Notes say how Color was obtained where it was not simply tagged: one line per default applied
	// (formats.Resolve) and a line for a conversion. Shared between frames: do not modify.
	Notes []string
	// SampleAspect is the pixel aspect ratio (1:1 when unknown).
	SampleAspect Rational
	// Orient is how the stream's display matrix turns the picture for display (Info.Orient).
	Orient formats.Orientation
	// KeyFrame is true for key frames.
	KeyFrame bool
	// Damaged is true when the decoder flagged the frame as corrupt (AV_FRAME_FLAG_CORRUPT) or
	// reported concealed errors in it (decode_error_flags).
	Damaged bool
	// Changed is true on the first frame whose size or pixel format differs from the frame before it
	// (a mid-stream change); false on the very first frame.
	Changed bool
	// HW is set for a picture decoded by Vulkan Video: the picture is in HW's image on the GPU and
	// Picture has its format and size but no planes.
	HW *HWFrame

	av   *astiav.Frame
	done func() // a relayed frame's (Relayed)
}

// Release drops the frame's reference to its buffer. Picture must not be used afterwards.
func (f *Frame) Release() {
	if f != nil && f.done != nil {
		done := f.done
		f.done, f.Picture, f.HW = nil, nil, nil
		done()
	}
	if f == nil || f.av == nil {
		return
	}
	f.av.Free()
	f.av = nil
	f.Picture = nil
	f.HW = nil
}

// PageAligned reports whether every plane of Picture starts on a 4096-byte boundary (and therefore on
// its own page), as zero-copy Vulkan host-pointer import needs. The decoder makes this true for every
// frame it returns: decoders write into page-aligned buffers, and frames from decoders that allocate
// their own (rawvideo) are copied once.
func (f *Frame) PageAligned() bool {
	if f == nil || f.Picture == nil {
		return false
	}
	for _, p := range f.Picture.Planes {
		if len(p) == 0 || uintptr(unsafe.Pointer(&p[0]))%avx.Page != 0 {
			return false
		}
	}
	return true
}

// aligned reports whether the planes pf uses are page-aligned with positive strides.
func aligned(fl avx.Fields, pf *formats.PixelFormat) bool {
	for i := range pf.Planes {
		if fl.Data[i] == nil || fl.Linesize[i] <= 0 || uintptr(fl.Data[i])%avx.Page != 0 {
			return false
		}
	}
	return true
}

// picture describes the frame's planes as a formats.Frame without copying. A plane of the pool
// (starting on an avx.PlaneAlign boundary) is handed out with the bytes it owns up to the next
// boundary, so that planes' direct route sees memory as large as a device that rounds plane memory
// to 64 KiB asks for.
func picture(fl avx.Fields, pf *formats.PixelFormat) *formats.Frame {
	pic := &formats.Frame{Format: pf, Width: fl.Width, Height: fl.Height}
	for i, p := range pf.Planes {
		w, h := pf.PlaneSize(i, fl.Width, fl.Height)
		n := fl.Linesize[i]*(h-1) + w*p.BytesPerTexel
		if a := uintptr(fl.Data[i]); a%avx.PlaneAlign == 0 && fl.Owned[i] > n {
			n = min(fl.Owned[i], int((a+uintptr(n)+avx.PlaneAlign-1)/avx.PlaneAlign*avx.PlaneAlign-a))
		}
		pic.Planes = append(pic.Planes, avx.Bytes(fl.Data[i], n))
		pic.Strides = append(pic.Strides, fl.Linesize[i])
	}
	return pic
}
