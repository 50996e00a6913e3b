#include "avx.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <time.h>

#include <libavutil/imgutils.h>
#include <libavutil/opt.h>
#include <libavutil/pixdesc.h>

// ---- page-aligned buffer pool -------------------------------------------------------------------

// Bytes after each plane that SIMD code may read or write past the last row (FFmpeg's own pools
// add 16 + STRIDE_ALIGN - 1; 64 covers AVX-512).
#define AVX_SLACK (16 + 64)
// Row alignment: a multiple of every STRIDE_ALIGN FFmpeg uses (16, 32 or 64).
#define AVX_ROW 64

struct AvxPool {
	pthread_mutex_t mu;
	AVBufferPool *pool; // buffers of `size` bytes; replaced when a frame needs another size
	size_t size;
	int max_w, max_h;
	int refused_w, refused_h; // written under mu, read with atomics
	int64_t allocs;           // atomic
	int64_t bytes;            // atomic: the buffers of the current AVBufferPool (they stay until it goes)
	int owner;                // avx_mem_owner while a hardware frame is allocated
	void *hw;                 // hardware decoding state (hw.c), reached from get_format
	void (*hw_free)(void *);
};

// Bytes of picture buffers alive in every pool of the process, and the most at once: the decoded
// pictures' share of the resident set (buffers return to their pool, not to the system, until the
// pool goes).
static int64_t live_bytes, peak_bytes; // atomic

static void page_free(void *opaque, uint8_t *data) {
	__atomic_sub_fetch(&live_bytes, (int64_t)(uintptr_t)opaque, __ATOMIC_RELAXED);
	free(data);
}

void avx_pool_bytes(int64_t *live, int64_t *peak) {
	*live = __atomic_load_n(&live_bytes, __ATOMIC_RELAXED);
	*peak = __atomic_load_n(&peak_bytes, __ATOMIC_RELAXED);
}

// page_alloc is the AVBufferPool allocator: posix_memalign so that the buffer, and therefore plane 0,
// starts on a page — on a 64 KiB boundary, in fact (AVX_PLANE_ALIGN).
static AVBufferRef *page_alloc(void *opaque, size_t size) {
	AvxPool *p = opaque;
	void *mem = NULL;
	if (posix_memalign(&mem, AVX_PLANE_ALIGN, size) != 0)
		return NULL;
	AVBufferRef *ref = av_buffer_create(mem, size, page_free, (void *)(uintptr_t)size, 0);
	if (!ref) {
		free(mem);
		return NULL;
	}
	__atomic_add_fetch(&p->allocs, 1, __ATOMIC_RELAXED);
	__atomic_add_fetch(&p->bytes, (int64_t)size, __ATOMIC_RELAXED);
	int64_t now = __atomic_add_fetch(&live_bytes, (int64_t)size, __ATOMIC_RELAXED);
	int64_t peak = __atomic_load_n(&peak_bytes, __ATOMIC_RELAXED);
	while (now > peak && !__atomic_compare_exchange_n(&peak_bytes, &peak, now, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
	}
	return ref;
}

AvxPool *avx_pool_new(int max_w, int max_h) {
	AvxPool *p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	pthread_mutex_init(&p->mu, NULL);
	p->max_w = max_w;
	p->max_h = max_h;
	p->owner = avx_mem_new_owner();
	return p;
}

void avx_pool_free(AvxPool *p) {
	if (!p)
		return;
	av_buffer_pool_uninit(&p->pool);
	pthread_mutex_destroy(&p->mu);
	if (p->hw_free)
		p->hw_free(p->hw);
	free(p);
}

void avx_pool_set_hw(AvxPool *p, void *hw, void (*hw_free)(void *)) {
	if (p->hw_free)
		p->hw_free(p->hw);
	p->hw = hw;
	p->hw_free = hw_free;
}

void *avx_pool_hw(AvxPool *p) { return p ? p->hw : NULL; }

int avx_pool_owner(AvxPool *p) { return p ? p->owner : 0; }

int64_t avx_pool_allocations(AvxPool *p) { return __atomic_load_n(&p->allocs, __ATOMIC_RELAXED); }

int64_t avx_pool_held_bytes(AvxPool *p) { return __atomic_load_n(&p->bytes, __ATOMIC_RELAXED); }

void avx_pool_refused(AvxPool *p, int *w, int *h) {
	*w = __atomic_load_n(&p->refused_w, __ATOMIC_RELAXED);
	*h = __atomic_load_n(&p->refused_h, __ATOMIC_RELAXED);
}

static size_t round_plane(size_t n) { return (n + AVX_PLANE_ALIGN - 1) & ~(size_t)(AVX_PLANE_ALIGN - 1); }

// plan lays out a width×height picture: rows padded to AVX_ROW (and to align[i] when given), every
// plane at an AVX_PLANE_ALIGN boundary with at least AVX_SLACK spare bytes before the next one.
static int plan(int format, int width, int height, const int *align, int linesize[4], size_t sizes[4],
                size_t offset[4], size_t *total) {
	int ret = av_image_fill_linesizes(linesize, format, width);
	if (ret < 0)
		return ret;
	for (int i = 0; i < 4; i++) {
		if (linesize[i] <= 0)
			continue;
		linesize[i] = FFALIGN(linesize[i], AVX_ROW);
		// A decoder may ask for a row alignment that is not a divisor of AVX_ROW; grow until both hold.
		for (int n = 0; align && align[i] > 0 && linesize[i] % align[i] != 0; n++) {
			if (n > 64)
				return AVERROR(EINVAL);
			linesize[i] += AVX_ROW;
		}
	}
	ptrdiff_t ls[4];
	for (int i = 0; i < 4; i++)
		ls[i] = linesize[i];
	ret = av_image_fill_plane_sizes(sizes, format, height, ls);
	if (ret < 0)
		return ret;
	size_t off = 0;
	for (int i = 0; i < 4; i++) {
		offset[i] = off;
		if (sizes[i] > 0)
			off = round_plane(off + sizes[i] + AVX_SLACK);
	}
	if (off == 0)
		return AVERROR(EINVAL);
	*total = off;
	return 0;
}

// fill gives f one pool buffer holding all planes of a width×height picture of format.
static int fill(AvxPool *p, AVFrame *f, int format, int width, int height, const int *align) {
	int linesize[4];
	size_t sizes[4], offset[4], total;
	int ret = plan(format, width, height, align, linesize, sizes, offset, &total);
	if (ret < 0)
		return ret;

	pthread_mutex_lock(&p->mu);
	if (!p->pool || p->size != total) {
		// A new size (resolution or format change): old buffers stay valid until released.
		av_buffer_pool_uninit(&p->pool);
		__atomic_store_n(&p->bytes, 0, __ATOMIC_RELAXED);
		p->pool = av_buffer_pool_init2(total, p, page_alloc, NULL);
		p->size = p->pool ? total : 0;
	}
	AVBufferRef *buf = p->pool ? av_buffer_pool_get(p->pool) : NULL;
	pthread_mutex_unlock(&p->mu);
	if (!buf)
		return AVERROR(ENOMEM);

	for (int i = 0; i < AV_NUM_DATA_POINTERS; i++) {
		f->data[i] = NULL;
		f->linesize[i] = 0;
		f->buf[i] = NULL;
	}
	f->buf[0] = buf;
	for (int i = 0; i < 4; i++) {
		if (sizes[i] == 0)
			continue;
		f->data[i] = buf->data + offset[i];
		f->linesize[i] = linesize[i];
	}
	f->extended_data = f->data;
	return 0;
}

static int get_buffer2(AVCodecContext *avctx, AVFrame *frame, int flags) {
	AvxPool *p = avctx->opaque;
	const AVPixFmtDescriptor *desc = av_pix_fmt_desc_get(frame->format);
	// Hardware frames, and decoders that do not promise to honour a custom allocator (no DR1), get
	// FFmpeg's own buffers; the Go side copies those frames into the pool.
	if (p && desc && (desc->flags & AV_PIX_FMT_FLAG_HWACCEL)) {
		// The frames pool's images are this decoder's device memory (hw.c counts it).
		avx_mem_owner = p->owner;
		int ret = avcodec_default_get_buffer2(avctx, frame, flags);
		avx_mem_owner = 0;
		if (ret >= 0) avx_hw_frame_allocated(p->hw, avctx, frame);
		return ret;
	}
	if (!p || !desc || avctx->codec_type != AVMEDIA_TYPE_VIDEO ||
	    !avctx->codec || !(avctx->codec->capabilities & AV_CODEC_CAP_DR1))
		return avcodec_default_get_buffer2(avctx, frame, flags);
	if (frame->width > p->max_w || frame->height > p->max_h || frame->width <= 0 || frame->height <= 0) {
		__atomic_store_n(&p->refused_w, frame->width, __ATOMIC_RELAXED);
		__atomic_store_n(&p->refused_h, frame->height, __ATOMIC_RELAXED);
		return AVERROR(ERANGE);
	}
	int w = frame->width, h = frame->height;
	int align[AV_NUM_DATA_POINTERS] = {0};
	// The decoder's padding needs (macroblock multiples, edge emulation) and row alignment.
	avcodec_align_dimensions2(avctx, &w, &h, align);
	return fill(p, frame, frame->format, w, h, align);
}

void avx_pool_install(AvxPool *p, AVCodecContext *avctx) {
	// opaque is copied into every frame-thread context, so get_buffer2 finds the pool from any thread;
	// fill() serialises pool replacement with p->mu (av_buffer_pool_get is thread-safe itself).
	avctx->opaque = p;
	avctx->get_buffer2 = get_buffer2;
}

AvxPool *avx_pool_of(const AVCodecContext *avctx) {
	return avctx->get_buffer2 == get_buffer2 ? avctx->opaque : NULL;
}

int avx_pool_alloc(AvxPool *p, AVFrame *dst, int format, int width, int height) {
	if (width > p->max_w || height > p->max_h || width <= 0 || height <= 0)
		return AVERROR(ERANGE);
	av_frame_unref(dst);
	dst->format = format;
	dst->width = width;
	dst->height = height;
	return fill(p, dst, format, width, height, NULL);
}

int avx_pool_copy(AvxPool *p, AVFrame *dst, const AVFrame *src) {
	int ret = avx_pool_alloc(p, dst, src->format, src->width, src->height);
	if (ret < 0)
		return ret;
	if ((ret = av_frame_copy(dst, src)) < 0)
		return ret;
	return av_frame_copy_props(dst, src);
}

// ---- interrupt callback -------------------------------------------------------------------------

struct AvxInterrupt {
	int64_t deadline; // CLOCK_MONOTONIC ns; 0: none. Atomic.
	int fired;        // atomic
};

static int64_t now_ns(void) {
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static int interrupt_cb(void *opaque) {
	AvxInterrupt *it = opaque;
	if (__atomic_load_n(&it->fired, __ATOMIC_ACQUIRE) == 2)
		return 1;
	int64_t dl = __atomic_load_n(&it->deadline, __ATOMIC_ACQUIRE);
	if (dl != 0 && now_ns() > dl) {
		int zero = 0;
		__atomic_compare_exchange_n(&it->fired, &zero, 1, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
		return 1;
	}
	return 0;
}

AvxInterrupt *avx_interrupt_new(void) { return calloc(1, sizeof(AvxInterrupt)); }
void avx_interrupt_free(AvxInterrupt *it) { free(it); }

void avx_interrupt_install(AvxInterrupt *it, AVFormatContext *fc) {
	fc->interrupt_callback.callback = interrupt_cb;
	fc->interrupt_callback.opaque = it;
}

void avx_interrupt_arm(AvxInterrupt *it, int64_t timeout_ns) {
	int one = 1;
	// A fired deadline is cleared by re-arming; an abort is final.
	__atomic_compare_exchange_n(&it->fired, &one, 0, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
	__atomic_store_n(&it->deadline, timeout_ns > 0 ? now_ns() + timeout_ns : 0, __ATOMIC_RELEASE);
}

void avx_interrupt_abort(AvxInterrupt *it) { __atomic_store_n(&it->fired, 2, __ATOMIC_RELEASE); }

int avx_interrupt_fired(AvxInterrupt *it) { return __atomic_load_n(&it->fired, __ATOMIC_ACQUIRE); }

int avx_io_open(AVIOContext **pb, const char *url, AvxInterrupt *it) {
	AVIOInterruptCB cb = {.callback = interrupt_cb, .opaque = it};
	return avio_open2(pb, url, AVIO_FLAG_READ, &cb, NULL);
}

void *avx_interrupt_of(const AVIOInterruptCB *cb) { return cb->callback == interrupt_cb ? cb->opaque : NULL; }

int avx_interrupt_poll(const AVFormatContext *fc) {
	const AVIOInterruptCB *cb = &fc->interrupt_callback;
	return cb->callback ? cb->callback(cb->opaque) : 0;
}

// ---- swscale ------------------------------------------------------------------------------------

struct SwsContext *avx_scaler_new(const AvxScaleSpec *s) {
	struct SwsContext *c = sws_alloc_context();
	if (!c)
		return NULL;
	// Options rather than sws_getContext: the chroma positions and ranges can only be given this way
	// before initialisation.
	int ok = av_opt_set_int(c, "srcw", s->src_w, 0) >= 0 && av_opt_set_int(c, "srch", s->src_h, 0) >= 0 &&
	         av_opt_set_int(c, "src_format", s->src_format, 0) >= 0 &&
	         av_opt_set_int(c, "dstw", s->dst_w, 0) >= 0 && av_opt_set_int(c, "dsth", s->dst_h, 0) >= 0 &&
	         av_opt_set_int(c, "dst_format", s->dst_format, 0) >= 0 &&
	         av_opt_set_int(c, "sws_flags", s->flags, 0) >= 0 &&
	         av_opt_set_int(c, "src_range", s->src_full, 0) >= 0 &&
	         av_opt_set_int(c, "dst_range", s->dst_full, 0) >= 0 &&
	         av_opt_set_int(c, "src_h_chr_pos", s->src_h_pos, 0) >= 0 &&
	         av_opt_set_int(c, "src_v_chr_pos", s->src_v_pos, 0) >= 0 &&
	         av_opt_set_int(c, "dst_h_chr_pos", s->dst_h_pos, 0) >= 0 &&
	         av_opt_set_int(c, "dst_v_chr_pos", s->dst_v_pos, 0) >= 0;
	if (!ok || sws_init_context(c, NULL, NULL) < 0) {
		sws_freeContext(c);
		return NULL;
	}
	// The matrices matter only for RGB ↔ Y′CbCr; Y′CbCr → Y′CbCr keeps codes (apart from range).
	sws_setColorspaceDetails(c, sws_getCoefficients(s->src_colorspace), s->src_full,
	                         sws_getCoefficients(s->dst_colorspace), s->dst_full, 0, 1 << 16, 1 << 16);
	return c;
}

int avx_scale(struct SwsContext *c, AVFrame *dst, const AVFrame *src) {
	int h = sws_scale(c, (const uint8_t *const *)src->data, src->linesize, 0, src->height, dst->data,
	                  dst->linesize);
	if (h < 0)
		return h;
	return h == dst->height ? 0 : AVERROR(EINVAL);
}
