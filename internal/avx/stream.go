package avx

/*
#include "avx.h"
*/
import "C"

import (
	"unsafe"

	"github.com/asticode/go-astiav"
)

// FindBestVideoStream is av_find_best_stream for video: FFmpeg's choice (the default disposition,
// most frames, highest resolution, attached pictures last). Decoder availability is not part of the
// choice, so that a file whose video has no decoder gets a "no decoder" error rather than "no video".
func FindBestVideoStream(fc *astiav.FormatContext) (int, error) {
	c, err := formatContext(fc)
	if err != nil {
		return -1, err
	}
	idx := C.av_find_best_stream(c, C.AVMEDIA_TYPE_VIDEO, -1, -1, nil, 0)
	if idx < 0 {
		return -1, astiav.Error(idx)
	}
	return int(idx), nil
}

// DiscardOthers tells the demuxer to drop the packets of every stream but keep (AVDISCARD_ALL), so
// that audio and subtitles are not read into packets only to be thrown away; keep itself is read
// (AVDISCARD_DEFAULT), also when it was discarded before.
func DiscardOthers(fc *astiav.FormatContext, keep int) error {
	c, err := formatContext(fc)
	if err != nil {
		return err
	}
	streams := unsafeStreams(c)
	for i, st := range streams {
		if i != keep {
			st.discard = C.AVDISCARD_ALL
		} else {
			st.discard = C.AVDISCARD_DEFAULT
		}
	}
	return nil
}

// FlushBuffers is avcodec_flush_buffers: drop the decoder's queued frames and references after a
// seek. go-astiav v0.39.0 does not wrap it.
func FlushBuffers(cc *astiav.CodecContext) error {
	c, err := codecContext(cc)
	if err != nil {
		return err
	}
	C.avcodec_flush_buffers(c)
	return nil
}

// SetPacketTimeBase sets pkt_timebase (the time base of the packets' timestamps), which decoders use
// for their best-effort timestamps. go-astiav's SetTimeBase sets time_base, a different field.
func SetPacketTimeBase(cc *astiav.CodecContext, tb astiav.Rational) error {
	c, err := codecContext(cc)
	if err != nil {
		return err
	}
	c.pkt_timebase = C.AVRational{num: C.int(tb.Num()), den: C.int(tb.Den())}
	return nil
}

// CodedSize is the decoder's coded_width and coded_height: the picture rounded up to the codec's
// coding blocks (1920×1088 for H.264's 1080p), the size FFmpeg's Vulkan decoding gives its frames
// context (libavcodec/vulkan_decode.c, ff_vk_frame_params). 0×0 before the first picture and for
// codecs that set none. go-astiav v0.39.0 does not wrap the fields.
func CodedSize(cc *astiav.CodecContext) (int, int) {
	c, err := codecContext(cc)
	if err != nil {
		return 0, 0
	}
	return int(c.coded_width), int(c.coded_height)
}

// CodecName is the codec's name (avcodec_get_name), for codecs without a decoder too.
func CodecName(id astiav.CodecID) string {
	return C.GoString(C.avcodec_get_name(C.enum_AVCodecID(id)))
}

// FormatName is the short name of the opened input's demuxer, e.g. "matroska,webm".
func FormatName(fc *astiav.FormatContext) string {
	c, err := formatContext(fc)
	if err != nil || c.iformat == nil {
		return ""
	}
	return C.GoString(c.iformat.name)
}

func unsafeStreams(c *C.AVFormatContext) []*C.AVStream {
	if c.nb_streams == 0 || c.streams == nil {
		return nil
	}
	return unsafe.Slice(c.streams, int(c.nb_streams))
}
