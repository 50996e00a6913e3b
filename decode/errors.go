package decode

import (
	"errors"

	"github.com/asticode/go-astiav"
)

// Errors callers may test for with errors.Is. Every error this package returns is one line of the
// form "decode: <operation> <url>: <reason>".
var (
	// ErrNoVideo: the input has no video stream (audio-only files, for example).
	ErrNoVideo = errors.New("no video stream")
	// ErrUnsupportedCodec: FFmpeg has no decoder for the video stream's codec.
	ErrUnsupportedCodec = errors.New("unsupported codec")
	// ErrUnsupportedPixelFormat: the stream's pixel format is outside the formats table and swscale
	// cannot convert it either (rgb4, bgr4).
	ErrUnsupportedPixelFormat = errors.New("unsupported pixel format")
	// ErrTooLarge: the picture is larger than Options.MaxWidth × Options.MaxHeight.
	ErrTooLarge = errors.New("picture too large")
	// ErrTimeout: a demuxer call took longer than Options.Timeout.
	ErrTimeout = errors.New("timed out")
	// ErrInterrupted: Interrupt was called.
	ErrInterrupted = errors.New("interrupted")
	// ErrClosed: the decoder was used after Close.
	ErrClosed = errors.New("decoder is closed")
	// ErrNotOpened: a decoder made by OpenLater was used before Reopen opened it.
	ErrNotOpened = errors.New("not opened yet")
	// ErrProtocolNotFound: this FFmpeg build reads no URL of that scheme (srt:// without libsrt).
	ErrProtocolNotFound = astiav.ErrProtocolNotFound
)

// isAgain and isEOF test FFmpeg's EAGAIN and AVERROR_EOF.
func isAgain(err error) bool { return errors.Is(err, astiav.ErrEagain) }
func isEOF(err error) bool   { return errors.Is(err, astiav.ErrEof) }
