// Package decode reads video with FFmpeg (through go-astiav v0.39.0 on a static FFmpeg 7.1 and the project's internal/avx)
// and hands out pictures in the layouts of the formats package, with their colour metadata resolved.
//
// It owns:
//
//   - opening files and URLs, choosing the best video stream, threaded decoding (decoder.go, next.go);
//     the demuxer both decoders open (input.go): format context, interrupt callback installed before
//     avformat_open_input, so that Options.Timeout and Options.Stop bound probing as they bound reads;
//   - Frame (frame.go): a formats.Frame whose planes alias the decoder's page-aligned buffers (no
//     copy), its timestamp, colour metadata, sample aspect ratio and damage flag, and the lifetime
//     rule (Release);
//   - colour metadata per frame (color.go): AVFrame fields, the stream's codec parameters where the
//     frame says nothing, then formats.Resolve's documented defaults, with notes;
//   - conversion with swscale of pixel formats the toolkit does not support (convert.go), with a
//     notice and consistent colour metadata;
//   - error recovery, statistics (stats.go), seeking (seek.go) and one-line errors (errors.go);
//   - live sources (live.go): IsLive names them by URL, and Open reads them with a short probe,
//     stated jitter buffers and no read-ahead (docs/live.md); Reopen opens one again after it
//     failed (reopen.go), and OpenLater makes a Decoder that only Reopen opens, for a feed that
//     is down when its client starts (decoder.go);
//   - FFmpeg's log, once a program calls CaptureLog (log.go): counted per decoder, whose
//     Options.Log gets one summary a second at most, and never written to stderr;
//   - audio (audio.go): AudioDecoder decodes the best audio stream (or the N-th), on a demuxer of its
//     own, and resamples it with swresample to interleaved float32 Chunks timed on the video's clock
//     (AudioOptions.Origin = Info.Start), with sample-accurate Seek.
//
// A Decoder is not safe for concurrent use, except Interrupt, which may be called from any goroutine.
// FFmpeg's log goes wherever the process's FFmpeg log goes until a program calls CaptureLog (the
// one call of this package that changes global state); callers that want silence without it set
// astiav.SetLogLevel themselves.
package decode
