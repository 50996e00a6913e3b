package avx

/*
#cgo pkg-config: libavfilter
#include <stdio.h>
#include <libavfilter/avfilter.h>
#include <libavfilter/buffersrc.h>
#include <libavfilter/buffersink.h>
#include <libavutil/opt.h>

// AvxDeint is a filter graph buffer → bwdif → buffersink for one picture geometry.
typedef struct AvxDeint {
	AVFilterGraph *graph;
	AVFilterContext *src, *sink;
} AvxDeint;

static void avx_deint_free(AvxDeint *d) {
	if (!d) return;
	avfilter_graph_free(&d->graph);
	av_free(d);
}

// avx_deint_new builds the graph. only_interlaced: bwdif's deint=interlaced (frames not marked
// interlaced pass through untouched) instead of deint=all.
static int avx_deint_new(AvxDeint **out, int w, int h, int fmt, int tb_num, int tb_den, int sar_num, int sar_den,
                         int only_interlaced) {
	AvxDeint *d = av_mallocz(sizeof(*d));
	if (!d) return AVERROR(ENOMEM);
	char args[256];
	int ret;
	d->graph = avfilter_graph_alloc();
	if (!d->graph) { ret = AVERROR(ENOMEM); goto fail; }
	d->graph->nb_threads = 1; // the decoder's frame threads already use the cores
	snprintf(args, sizeof args, "video_size=%dx%d:pix_fmt=%d:time_base=%d/%d:pixel_aspect=%d/%d", w, h, fmt,
	         tb_num, tb_den, sar_num > 0 ? sar_num : 1, sar_den > 0 ? sar_den : 1);
	if ((ret = avfilter_graph_create_filter(&d->src, avfilter_get_by_name("buffer"), "in", args, NULL, d->graph)) < 0)
		goto fail;
	AVFilterContext *bwdif;
	// mode=send_field: one frame per field (the frame rate doubles, as FFmpeg's default for bwdif);
	// parity=auto: the field order each frame declares.
	snprintf(args, sizeof args, "mode=send_field:parity=auto:deint=%s", only_interlaced ? "interlaced" : "all");
	if ((ret = avfilter_graph_create_filter(&bwdif, avfilter_get_by_name("bwdif"), "bwdif", args, NULL, d->graph)) < 0)
		goto fail;
	if ((ret = avfilter_graph_create_filter(&d->sink, avfilter_get_by_name("buffersink"), "out", NULL, NULL, d->graph)) < 0)
		goto fail;
	if ((ret = avfilter_link(d->src, 0, bwdif, 0)) < 0 || (ret = avfilter_link(bwdif, 0, d->sink, 0)) < 0)
		goto fail;
	if ((ret = avfilter_graph_config(d->graph, NULL)) < 0)
		goto fail;
	*out = d;
	return 0;
fail:
	avx_deint_free(d);
	return ret;
}

static int avx_deint_push(AvxDeint *d, AVFrame *f) {
	return av_buffersrc_add_frame_flags(d->src, f, 0); // takes f's reference (f is reset); NULL flushes
}

static int avx_deint_pull(AvxDeint *d, AVFrame *f) { return av_buffersink_get_frame(d->sink, f); }

static void avx_deint_tb(AvxDeint *d, int *num, int *den) {
	AVRational tb = av_buffersink_get_time_base(d->sink);
	*num = tb.num;
	*den = tb.den;
}
*/
import "C"

import (
	"fmt"

	"github.com/asticode/go-astiav"
)

// Deinterlacer is FFmpeg's bwdif filter (libavfilter) for one picture geometry: frames in, one
// frame per field out, on the filter's own time base.
type Deinterlacer struct {
	d *C.AvxDeint
}

// NewDeinterlacer builds buffer → bwdif → buffersink for width×height pictures of format, with
// timestamps in tb. onlyInterlaced passes frames not marked interlaced through unchanged.
func NewDeinterlacer(width, height int, format astiav.PixelFormat, tb, sar astiav.Rational, onlyInterlaced bool) (*Deinterlacer, error) {
	var d *C.AvxDeint
	oi := C.int(0)
	if onlyInterlaced {
		oi = 1
	}
	if ret := C.avx_deint_new(&d, C.int(width), C.int(height), C.int(format), C.int(tb.Num()), C.int(tb.Den()),
		C.int(sar.Num()), C.int(sar.Den()), oi); ret < 0 {
		return nil, fmt.Errorf("avx: bwdif filter graph: %w", astiav.Error(ret))
	}
	return &Deinterlacer{d: d}, nil
}

// Push hands f's picture to the filter (f is left empty); nil flushes the filter at the end.
func (d *Deinterlacer) Push(f *astiav.Frame) error {
	var cf *C.AVFrame
	if f != nil {
		cf = frame(f)
	}
	if ret := C.avx_deint_push(d.d, cf); ret < 0 {
		return fmt.Errorf("avx: bwdif: %w", astiav.Error(ret))
	}
	return nil
}

// Pull moves the next filtered frame into f: nil, or astiav.ErrEagain (needs input), or
// astiav.ErrEof (flushed and drained).
func (d *Deinterlacer) Pull(f *astiav.Frame) error {
	if ret := C.avx_deint_pull(d.d, frame(f)); ret < 0 {
		return astiav.Error(ret)
	}
	return nil
}

// TimeBase is the time base of the filtered frames' timestamps (half the input's: two fields a frame).
func (d *Deinterlacer) TimeBase() astiav.Rational {
	var num, den C.int
	C.avx_deint_tb(d.d, &num, &den)
	return astiav.NewRational(int(num), int(den))
}

// Free releases the filter graph.
func (d *Deinterlacer) Free() {
	if d.d != nil {
		C.avx_deint_free(d.d)
		d.d = nil
	}
}
