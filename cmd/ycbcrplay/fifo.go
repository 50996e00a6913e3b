package main

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"syscall"

	"golang.org/x/sys/unix"
)

// errStopped: a signal came while waiting for a named pipe's writer.
var errStopped = errors.New("stopped before the input opened")

// isFIFO reports whether path names a named pipe (mkfifo). URLs and missing files are not.
func isFIFO(path string) bool {
	fi, err := os.Stat(path)
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
func openFIFO(path string, stop <-chan struct{}) (url string, fd int, err error) {
	fd, err = syscall.Open(path, syscall.O_RDONLY|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
	if err != nil {
		return "", -1, fmt.Errorf("decode: open %s: %w", path, err)
	}
	for {
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
