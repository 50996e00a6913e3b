// Package subtest helps subtitle tests: a clip with text subtitle tracks (made by Debian's ffmpeg),
// and bitmap subtitle tracks written with FFmpeg's own DVD subtitle encoder (dvdsub) into Matroska,
// since FFmpeg's command line cannot make bitmap subtitles from text, and go-astiav v0.39.0 does
// not wrap avcodec_encode_subtitle.
package subtest
