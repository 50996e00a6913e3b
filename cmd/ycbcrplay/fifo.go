package main

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"golang.org/x/sys/unix"

	"github.com/ycbcrkit/ycbcrkit/decode"
	"github.com/ycbcrkit/ycbcrkit/internal/avx"
)

// openFIFO opens the named pipe path interruptibly (avx.OpenFIFO: a plain open(2) would wait for a
// writer for ever, deaf to SIGINT) and returns FFmpeg's pipe-protocol URL for the descriptor and the
// descriptor, which the caller closes after the decoder. A writer that has not written within
// timeout is decode.ErrTimeout, as any other blocked read; a signal, avx.ErrStopped.
func openFIFO(path string, stop <-chan struct{}, timeout time.Duration) (url string, fd int, err error) {
	url, fd, err = avx.OpenFIFO(path, stop, timeout)
	switch {
	case errors.Is(err, avx.ErrNoWriter):
		return "", -1, fmt.Errorf("decode: open %s: %w after %s waiting for the named pipe's writer", path, decode.ErrTimeout, timeout)
	case errors.Is(err, avx.ErrStopped):
		return "", -1, err
	case err != nil:
		return "", -1, fmt.Errorf("decode: open %s: %w", path, err)
	}
	return url, fd, nil
}

// stopped reports whether stop has been closed (nil never is).
func stopped(stop <-chan struct{}) bool {
	select {
	case <-stop:
		return true
	default:
		return false
	}
}

// whileOpening is stop for the time of an open: the returned channel is closed when stop is, until
// opened is called. During playback the player ends reads itself when stop closes (decoderSource's
// Interrupt, after it has seen the quit), so a decoder interrupted by the signal cannot race the
// player's quit with an "interrupted" error.
func whileOpening(stop <-chan struct{}) (opening <-chan struct{}, opened func()) {
	if stop == nil {
		return nil, func() {}
	}
	ch, done := make(chan struct{}), make(chan struct{})
	go func() {
		select {
		case <-stop:
			close(ch)
		case <-done:
		}
	}()
	return ch, func() { close(done) }
}

// nonblockingStdin puts standard input in non-blocking mode when it is a pipe or a socket, and
// returns what puts the previous mode back. FFmpeg's pipe protocol reads descriptor 0 with read(2):
// blocking, a writer that stalls holds it for ever, deaf to the interrupt callback; non-blocking,
// read gets EAGAIN and FFmpeg's retry loop sleeps and polls the callback between tries
// (retry_transfer_wrapper in libavformat/avio.c). A terminal or a regular file is left as it is: a
// file does not stall, and a terminal's mode is shared with the shell.
func nonblockingStdin() (restore func(), err error) {
	var st unix.Stat_t
	if err := unix.Fstat(0, &st); err != nil {
		return nil, fmt.Errorf("standard input: %w", err)
	}
	if t := st.Mode & unix.S_IFMT; t != unix.S_IFIFO && t != unix.S_IFSOCK {
		return func() {}, nil
	}
	flags, err := unix.FcntlInt(0, unix.F_GETFL, 0)
	if err != nil {
		return nil, fmt.Errorf("standard input: %w", err)
	}
	if flags&unix.O_NONBLOCK != 0 {
		return func() {}, nil
	}
	if _, err := unix.FcntlInt(0, unix.F_SETFL, flags|unix.O_NONBLOCK); err != nil {
		return nil, fmt.Errorf("standard input: %w", err)
	}
	return func() { unix.FcntlInt(0, unix.F_SETFL, flags) }, nil
}

// defaultCacheMB is -cache-size's default: 150 MiB read ahead and 50 MiB kept behind, mpv's
// --demuxer-max-bytes and --demuxer-max-back-bytes (decode/readahead splits the cache so).
const defaultCacheMB = 200

// isNetwork says whether url names a network stream (a protocol other than file and pipe), which
// is read once, through the read-ahead cache.
func isNetwork(url string) bool {
	scheme, _, ok := strings.Cut(url, "://")
	if !ok || scheme == "" || strings.ContainsAny(scheme, "/\\") {
		return false
	}
	return scheme != "file" && scheme != "pipe"
}
