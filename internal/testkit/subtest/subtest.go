package subtest

/*
#cgo pkg-config: libavcodec libavformat libavutil
#include <stdlib.h>
#include <string.h>
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>

// One event: a w×h bitmap of palette indices at (x, y), shown from start_ms for dur_ms.
typedef struct {
	int x, y, w, h;
	const uint8_t *index;
	const uint32_t *palette; // 0xAARRGGBB, 4 entries
	int64_t start_ms, dur_ms;
} subtest_event;

static int subtest_write(const char *path, int cw, int ch, const subtest_event *ev, int n, char *err, int errlen) {
	AVFormatContext *oc = NULL;
	AVCodecContext *c = NULL;
	AVPacket *pkt = NULL;
	uint8_t *buf = NULL;
	int ret = avformat_alloc_output_context2(&oc, NULL, "matroska", path);
	if (ret < 0) goto fail;
	const AVCodec *enc = avcodec_find_encoder_by_name("dvdsub");
	if (!enc) { snprintf(err, errlen, "no dvdsub encoder in this FFmpeg"); ret = -1; goto out; }
	c = avcodec_alloc_context3(enc);
	c->width = cw;
	c->height = ch;
	c->time_base = (AVRational){1, 1000};
	if ((ret = avcodec_open2(c, enc, NULL)) < 0) goto fail;
	AVStream *st = avformat_new_stream(oc, NULL);
	st->time_base = (AVRational){1, 1000};
	if ((ret = avcodec_parameters_from_context(st->codecpar, c)) < 0) goto fail;
	if ((ret = avio_open(&oc->pb, path, AVIO_FLAG_WRITE)) < 0) goto fail;
	if ((ret = avformat_write_header(oc, NULL)) < 0) goto fail;
	pkt = av_packet_alloc();
	const int cap = 1 << 20;
	buf = av_malloc(cap);
	for (int i = 0; i < n; i++) {
		AVSubtitleRect rect = {0}, *rects[1] = {&rect};
		uint32_t pal[256] = {0};
		memcpy(pal, ev[i].palette, 4 * sizeof(uint32_t));
		rect.type = SUBTITLE_BITMAP;
		rect.x = ev[i].x; rect.y = ev[i].y; rect.w = ev[i].w; rect.h = ev[i].h;
		rect.nb_colors = 4;
		rect.data[0] = (uint8_t *)ev[i].index; rect.linesize[0] = ev[i].w;
		rect.data[1] = (uint8_t *)pal;
		AVSubtitle sub = {0};
		sub.pts = ev[i].start_ms * 1000;
		sub.end_display_time = ev[i].dur_ms;
		sub.num_rects = 1;
		sub.rects = rects;
		int size = avcodec_encode_subtitle(c, buf, cap, &sub);
		if (size < 0) { ret = size; goto fail; }
		if ((ret = av_new_packet(pkt, size)) < 0) goto fail;
		memcpy(pkt->data, buf, size);
		pkt->pts = pkt->dts = ev[i].start_ms;
		pkt->duration = ev[i].dur_ms;
		pkt->stream_index = 0;
		if ((ret = av_interleaved_write_frame(oc, pkt)) < 0) goto fail;
	}
	ret = av_write_trailer(oc);
	if (ret >= 0) goto out;
fail:
	av_strerror(ret, err, errlen);
out:
	av_free(buf);
	av_packet_free(&pkt);
	avcodec_free_context(&c);
	if (oc) {
		if (oc->pb) avio_closep(&oc->pb);
		avformat_free_context(oc);
	}
	return ret < 0 ? -1 : 0;
}
*/
import "C"

import (
	"fmt"
	"image"
	"image/color"
	"runtime"
	"time"
	"unsafe"
)

// Event is one bitmap subtitle: a paletted picture of at most 4 colours (DVD's limit) placed at its
// Rect's top left on the canvas, shown from Start for Duration.
type Event struct {
	Image           *image.Paletted
	Start, Duration time.Duration
}

// WriteDVD writes events as a Matroska file with one DVD subtitle track on a w×h canvas, encoded
// by FFmpeg's dvdsub encoder.
func WriteDVD(path string, w, h int, events []Event) error {
	cev := make([]C.subtest_event, len(events))
	var pin runtime.Pinner
	defer pin.Unpin()
	for i, e := range events {
		im := e.Image
		if len(im.Palette) > 4 || im.Stride != im.Rect.Dx() {
			return fmt.Errorf("subtest: event %d: %d colours, stride %d (want ≤ 4, packed)", i, len(im.Palette), im.Stride)
		}
		var pal [4]uint32
		for j, c := range im.Palette {
			n := color.NRGBAModel.Convert(c).(color.NRGBA)
			pal[j] = uint32(n.A)<<24 | uint32(n.R)<<16 | uint32(n.G)<<8 | uint32(n.B)
		}
		pp := &pal
		pin.Pin(pp)
		pin.Pin(&im.Pix[0])
		cev[i] = C.subtest_event{x: C.int(im.Rect.Min.X), y: C.int(im.Rect.Min.Y), w: C.int(im.Rect.Dx()), h: C.int(im.Rect.Dy()),
			index: (*C.uint8_t)(unsafe.Pointer(&im.Pix[0])), palette: (*C.uint32_t)(unsafe.Pointer(&pp[0])),
			start_ms: C.int64_t(e.Start.Milliseconds()), dur_ms: C.int64_t(e.Duration.Milliseconds())}
	}
	p := C.CString(path)
	defer C.free(unsafe.Pointer(p))
	var buf [256]C.char
	if len(cev) == 0 {
		return fmt.Errorf("subtest: no events")
	}
	if C.subtest_write(p, C.int(w), C.int(h), &cev[0], C.int(len(cev)), &buf[0], C.int(len(buf))) != 0 {
		return fmt.Errorf("subtest: write %s: %s", path, C.GoString(&buf[0]))
	}
	return nil
}
