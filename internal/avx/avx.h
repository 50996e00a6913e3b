// C side of package avx: the FFmpeg details go-astiav v0.39.0 does not expose.
#ifndef YCBCRKIT_AVX_H
#define YCBCRKIT_AVX_H

#include <stdint.h>

#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/frame.h>
#include <libswscale/swscale.h>

// The toolkit is built against FFmpeg 7.1 (libavcodec 61), linked statically from the prefix that
// scripts/build-ffmpeg.sh makes. Without its pkg-config path cgo would compile silently against the
// system's FFmpeg headers (Debian 12: 5.1), so a mismatch stops the build here.
#if LIBAVCODEC_VERSION_MAJOR != 61 || LIBAVFORMAT_VERSION_MAJOR != 61 || LIBAVUTIL_VERSION_MAJOR != 59
#error "ycbcrkit needs FFmpeg 7.1's headers: build with make, or eval \"$(scripts/build-ffmpeg.sh --env)\" first"
#endif

// Page size the Vulkan host-pointer import needs (minImportedHostPointerAlignment is 4096 on lavapipe
// and on NVIDIA).
#define AVX_PAGE 4096
// Every plane starts on a 64 KiB boundary and owns the bytes up to the next one (or the buffer's
// end): the granularity NVIDIA rounds the memory of a LINEAR image plane to, so that a plane with
// its padding can be bound in place as one (planes' direct route). A build may set another power of
// two (-DAVX_PLANE_ALIGN=4096) to measure what the alignment costs (scripts/device, variants).
#ifndef AVX_PLANE_ALIGN
#define AVX_PLANE_ALIGN 65536
#endif

// AvxPool hands out page-aligned picture buffers: one buffer per frame, each plane starting on its own
// page. It is the get_buffer2 of a codec context and the allocator for copies and conversions.
typedef struct AvxPool AvxPool;

AvxPool *avx_pool_new(int max_w, int max_h);
// avx_pool_free releases the pool's hold on its buffers; buffers still referenced by frames stay valid
// until those frames are unreferenced (AVBufferPool frees itself after its last buffer returns).
void avx_pool_free(AvxPool *p);
// avx_pool_install makes p the get_buffer2 of avctx. Call before avcodec_open2; p must outlive avctx.
void avx_pool_install(AvxPool *p, AVCodecContext *avctx);
// avx_pool_alloc gives dst (format, width, height set from the arguments) page-aligned planes.
int avx_pool_alloc(AvxPool *p, AVFrame *dst, int format, int width, int height);
// avx_pool_copy makes dst a page-aligned copy of src (pixels and properties).
int avx_pool_copy(AvxPool *p, AVFrame *dst, const AVFrame *src);
int64_t avx_pool_allocations(AvxPool *p);
// avx_pool_held_bytes: the bytes of the buffers p's current size has allocated (in use or back in
// the pool: an AVBufferPool keeps them until it goes).
int64_t avx_pool_held_bytes(AvxPool *p);
// avx_pool_of is the pool installed on avctx (or on the context its frame thread copied), else NULL.
AvxPool *avx_pool_of(const AVCodecContext *avctx);
void avx_pool_bytes(int64_t *live, int64_t *peak);
// FFmpeg's device memory (hw.c): avx_mem_owner names, on the allocating thread, the pool whose
// decoder allocates (0: none); avx_mem_ffmpeg reads an owner's bytes now and at most, or with owner
// 0 the whole process's.
extern __thread int avx_mem_owner;
int avx_mem_new_owner(void);
void avx_mem_ffmpeg(int owner, int64_t *now, int64_t *peak);
int avx_pool_owner(AvxPool *p);
// avx_pool_refused reports the last frame size get_buffer2 refused as over the limit (0×0: none).
void avx_pool_refused(AvxPool *p, int *w, int *h);
// The pool carries a codec context's hardware decoding state (hw.c) to its frame threads, which
// share the context's opaque; hw_free frees it with the pool.
void avx_pool_set_hw(AvxPool *p, void *hw, void (*hw_free)(void *));
void *avx_pool_hw(AvxPool *p);
// avx_hw_frame_allocated (hw.c) keeps the frames context of a hardware frame get_buffer2 made;
// avx_hw_held_frames says how many the pool's decoder holds.
void avx_hw_frame_allocated(void *hw, const AVCodecContext *avctx, const AVFrame *f);
int avx_hw_held_frames(AvxPool *p);

// AvxInterrupt is an AVIOInterruptCB with a deadline and an abort flag, so that blocking demuxer
// calls (network reads above all) end instead of hanging.
typedef struct AvxInterrupt AvxInterrupt;

AvxInterrupt *avx_interrupt_new(void);
void avx_interrupt_free(AvxInterrupt *it);
void avx_interrupt_install(AvxInterrupt *it, AVFormatContext *fc);
// avx_interrupt_arm sets the deadline timeout_ns from now; 0 disarms.
void avx_interrupt_arm(AvxInterrupt *it, int64_t timeout_ns);
void avx_interrupt_abort(AvxInterrupt *it);
// avx_interrupt_fired: 0 not fired, 1 deadline passed, 2 aborted.
int avx_interrupt_fired(AvxInterrupt *it);
// avx_io_open opens url for reading through FFmpeg's protocols (avio_open2) with it as the
// interrupt callback of every blocking call.
int avx_io_open(AVIOContext **pb, const char *url, AvxInterrupt *it);
// avx_interrupt_of is cb's AvxInterrupt when cb is one (an AVFormatContext's or a URLContext's
// interrupt_callback, copied from the format context that opened it), else NULL: FFmpeg's log names
// its input by it (log.c).
void *avx_interrupt_of(const AVIOInterruptCB *cb);
// avx_interrupt_poll calls fc's interrupt callback as FFmpeg does (tests).
int avx_interrupt_poll(const AVFormatContext *fc);

// AvxScaleSpec describes one swscale conversion. Chroma positions are in 1/256 luma samples from luma
// sample 0 (swscale's src_h_chr_pos and friends); AVX_POS_DEFAULT leaves swscale's default.
#define AVX_POS_DEFAULT (-513)
typedef struct AvxScaleSpec {
	int src_w, src_h, src_format;
	int dst_w, dst_h, dst_format;
	int flags;
	int src_colorspace, src_full;
	int dst_colorspace, dst_full;
	int src_h_pos, src_v_pos, dst_h_pos, dst_v_pos;
} AvxScaleSpec;

struct SwsContext *avx_scaler_new(const AvxScaleSpec *s);
int avx_scale(struct SwsContext *c, AVFrame *dst, const AVFrame *src);

// avx_log_capture routes FFmpeg's log (av_log_set_callback) to the Go side (log.go): messages at
// AV_LOG_WARNING or more severe, each with the AvxInterrupt or AvxPool of the context that logged it
// (0: none found). avx_log_release gives the log back to FFmpeg's default callback.
void avx_log_capture(void);
void avx_log_release(void);
// avx_find_stream_info is avformat_find_stream_info (no options) whose messages from contexts of no
// owner (the probing decoders FFmpeg opens itself) count as fc's.
int avx_find_stream_info(AVFormatContext *fc);
// avx_open_input is avformat_open_input (no forced format) whose messages from no context (the
// demuxers' probes: libavformat/hls.c's hls_probe logs with av_log(NULL, ...)) count as *fc's, a
// context allocated with its interrupt callback installed.
int avx_open_input(AVFormatContext **fc, const char *url, AVDictionary **opts);
// avx_log_owner finds that owner for a context FFmpeg logs with (tests).
uintptr_t avx_log_owner(void *avcl);

#endif
