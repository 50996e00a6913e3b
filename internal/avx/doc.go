// Package avx is the thin cgo layer for the FFmpeg 7.1 details that go-astiav v0.39.0 does not expose.
// The decode package uses go-astiav for demuxing and decoding and this package for:
//
//   - raw pointers of go-astiav's wrappers (ptr.go): CodecContext and Frame have UnsafePointer() in
//     v0.39.0, FormatContext has not, so its AVFormatContext pointer is read from the wrapper's first
//     field, after a reflect check at start-up that the layout is the one this code was written
//     against;
//   - a page-aligned get_buffer2 (pool.go, avx.c): every plane of every decoded frame starts on its
//     own 4096-byte page, which zero-copy Vulkan import (VK_EXT_external_memory_host) needs;
//   - AVFrame fields go-astiav hides (frame.go): data/linesize without copying, colorspace, primaries,
//     transfer, chroma location, corruption flags, best-effort timestamps;
//   - an interrupt callback with a deadline (interrupt.go), so demuxer calls on network URLs end;
//   - FFmpeg's log callback (log.go, log.c): each message with the input it belongs to, found from
//     the logging context (a format context's or protocol's interrupt callback, a codec context's
//     buffer pool), for decode.CaptureLog;
//   - named pipes opened without blocking and read through FFmpeg's pipe protocol (fifo.go), so
//     that the wait for a writer is bounded and interruptible too;
//   - av_find_best_stream, stream discard, avcodec_flush_buffers, pkt_timebase (stream.go);
//   - pixel-format descriptors (pixfmt.go) and swscale with explicit ranges, matrices and chroma
//     positions (scale.go): go-astiav's SoftwareScaleContext cannot set them.
//
// FFmpeg is linked statically from the prefix scripts/build-ffmpeg.sh builds (the Makefile sets
// PKG_CONFIG_PATH to it); avx.h refuses to compile against any other FFmpeg major version.
// Nothing else in the project calls FFmpeg through cgo.
package avx
