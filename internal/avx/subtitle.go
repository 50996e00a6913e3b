package avx

/*
#include "avx.h"

// avx_decode_subtitle is avcodec_decode_subtitle2 on a packet: 1 and sub filled when the packet
// made a subtitle (freed by avsubtitle_free), 0 when not, or FFmpeg's negative error.
static int avx_decode_subtitle(AVCodecContext *c, AVSubtitle *sub, AVPacket *pkt) {
	int got = 0;
	int ret = avcodec_decode_subtitle2(c, sub, &got, pkt);
	if (ret < 0) return ret;
	return got ? 1 : 0;
}

static AVSubtitleRect *avx_subtitle_rect(AVSubtitle *sub, unsigned i) { return sub->rects[i]; }
*/
import "C"

import (
	"fmt"
	"reflect"
	"time"
	"unsafe"

	"github.com/asticode/go-astiav"
)

// go-astiav v0.39.0 does not wrap avcodec_decode_subtitle2 (subtitles do not go through
// avcodec_send_packet), nor does it give a Packet's pointer: it is read from the wrapper's first
// field, checked as FormatContext's is.
var packetLayoutErr = checkLayout(reflect.TypeOf(astiav.Packet{}), "AVPacket")

// Subtitle is one decoded AVSubtitle, copied into Go memory.
type Subtitle struct {
	// PTS is the packet's time in microseconds (AV_TIME_BASE, from the codec context's pkt_timebase),
	// or NoPTS.
	PTS int64
	// Start and End are when it shows and hides, from PTS (start_display_time, end_display_time);
	// End is 0 when the subtitle lasts until the next one (PGS, DVB).
	Start, End time.Duration
	Rects      []SubtitleRect
}

// SubtitleRect is one area of a subtitle: a paletted bitmap, or an ASS event.
type SubtitleRect struct {
	// The bitmap's place and size on the decoder's canvas (the codec context's width and height),
	// its palette indices (W×H, rows packed) and its palette (0xAARRGGBB, straight alpha).
	X, Y, W, H int
	Index      []byte
	Palette    []uint32
	// ASS is an event in Matroska's form ("ReadOrder,Layer,Style,Name,MarginL,MarginR,MarginV,Effect,
	// Text"): what FFmpeg's text decoders (subrip, webvtt, mov_text, ass...) make.
	ASS string
}

// DecodeSubtitle decodes one subtitle packet; nil (and no error) when the packet made no subtitle.
func DecodeSubtitle(cc *astiav.CodecContext, pkt *astiav.Packet) (*Subtitle, error) {
	c, err := codecContext(cc)
	if err != nil {
		return nil, err
	}
	if packetLayoutErr != nil {
		return nil, packetLayoutErr
	}
	p := (*C.AVPacket)(firstPointer(unsafe.Pointer(pkt)))
	var sub C.AVSubtitle
	ret := C.avx_decode_subtitle(c, &sub, p)
	if ret < 0 {
		return nil, fmt.Errorf("avx: decode subtitle: %w", astiav.Error(ret))
	}
	if ret == 0 {
		return nil, nil
	}
	defer C.avsubtitle_free(&sub)
	out := &Subtitle{PTS: int64(sub.pts),
		Start: time.Duration(sub.start_display_time) * time.Millisecond,
		End:   time.Duration(sub.end_display_time) * time.Millisecond}
	for i := range uint(sub.num_rects) {
		r := C.avx_subtitle_rect(&sub, C.uint(i))
		sr := SubtitleRect{X: int(r.x), Y: int(r.y), W: int(r.w), H: int(r.h)}
		switch r._type {
		case C.SUBTITLE_BITMAP:
			if sr.W <= 0 || sr.H <= 0 || r.data[0] == nil || r.data[1] == nil {
				continue
			}
			stride := int(r.linesize[0])
			src := unsafe.Slice((*byte)(unsafe.Pointer(r.data[0])), stride*(sr.H-1)+sr.W)
			sr.Index = make([]byte, sr.W*sr.H)
			for y := range sr.H {
				copy(sr.Index[y*sr.W:(y+1)*sr.W], src[y*stride:])
			}
			n := min(max(int(r.nb_colors), 0), 256)
			sr.Palette = append([]uint32(nil), unsafe.Slice((*uint32)(unsafe.Pointer(r.data[1])), n)...)
		case C.SUBTITLE_ASS:
			if r.ass == nil {
				continue
			}
			sr.ASS = C.GoString(r.ass)
		default: // SUBTITLE_TEXT: no FFmpeg 7.1 decoder makes it without ASS
			continue
		}
		out.Rects = append(out.Rects, sr)
	}
	return out, nil
}

// SubtitleHeader is the codec context's subtitle_header: the ASS script header ([Script Info],
// [V4+ Styles]) that a text decoder's events go with.
func SubtitleHeader(cc *astiav.CodecContext) []byte {
	c, err := codecContext(cc)
	if err != nil || c.subtitle_header == nil || c.subtitle_header_size <= 0 {
		return nil
	}
	return C.GoBytes(unsafe.Pointer(c.subtitle_header), c.subtitle_header_size)
}

// KeepStreams makes the demuxer read the streams keep says (AVDISCARD_DEFAULT) and drop the others
// (AVDISCARD_ALL): a subtitle reader reads no video or audio packets.
func KeepStreams(fc *astiav.FormatContext, keep func(i int) bool) error {
	c, err := formatContext(fc)
	if err != nil {
		return err
	}
	for i, st := range unsafeStreams(c) {
		if keep(i) {
			st.discard = C.AVDISCARD_DEFAULT
		} else {
			st.discard = C.AVDISCARD_ALL
		}
	}
	return nil
}
