package main

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"github.com/ycbcrkit/ycbcrkit/decode"
)

// errStopped: a signal came while waiting for a named pipe's writer.
var errStopped = errors.New("stopped before the input opened")

// isFIFO reports whether path names a named pipe (mkfifo), as a path or a file: URL (which FFmpeg's
// file protocol would open with a blocking open(2) as well). Other URLs and missing files are not.
func isFIFO(path string) bool {
	fi, err := os.Stat(strings.TrimPrefix(path, "file:"))
	return err == nil && fi.Mode()&os.ModeNamedPipe != 0
}

// openFIFO opens the named pipe path for reading without blocking, waits until a writer has written
// something (or has come and gone), and returns FFmpeg's pipe-protocol URL for the descriptor
// ("pipe:N", https://ffmpeg.org/ffmpeg-protocols.html#pipe) and the descriptor, which the caller
// closes after the decoder (the pipe protocol does not close it).
//
// A plain open(2) of a FIFO for reading blocks until a writer opens it (fifo(7)), and FFmpeg's file
// protocol opens it that way: with no writer the player hung before its window existed, deaf to
// SIGINT. With O_NONBLOCK the open returns at once (POSIX open(2): "O_RDONLY ... shall return
// without delay"); poll(2) then waits for data in short slices that also watch stop. On Linux a
// reader that has never seen a writer gets no POLLHUP (pipe(7)), so the wait lasts until data comes,
// a writer closes, or stop is closed (errStopped).
//
// The descriptor stays non-blocking: FFmpeg's pipe protocol then gets EAGAIN from read(2) when the
// writer stalls, and its retry loop sleeps and checks the interrupt callback between tries, so
// decode.Options.Timeout (-timeout) and Decoder.Interrupt reach a stalled pipe too; a blocking read
// would wait for the writer for ever.
func openFIFO(path string, stop <-chan struct{}, timeout time.Duration) (url string, fd int, err error) {
	fd, err = syscall.Open(strings.TrimPrefix(path, "file:"), syscall.O_RDONLY|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
	if err != nil {
		return "", -1, fmt.Errorf("decode: open %s: %w", path, err)
	}
	start := time.Now()
	for {
		if timeout > 0 && time.Since(start) >= timeout {
			syscall.Close(fd)
			return "", -1, fmt.Errorf("decode: open %s: %w after %s waiting for the named pipe's writer", path, decode.ErrTimeout, timeout)
		}
		select {
		case <-stop:
			syscall.Close(fd)
			return "", -1, errStopped
		default:
		}
		fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
		n, err := unix.Poll(fds, 20)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			syscall.Close(fd)
			return "", -1, fmt.Errorf("decode: open %s: poll: %w", path, err)
		}
		if n > 0 && fds[0].Revents != 0 {
			return "pipe:" + strconv.Itoa(fd), fd, nil
		}
	}
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
