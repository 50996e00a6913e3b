package avx

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// Errors of OpenFIFO.
var (
	// ErrNoWriter: the timeout passed before a writer wrote to the named pipe.
	ErrNoWriter = errors.New("no writer")
	// ErrStopped: stop was closed while OpenFIFO waited for a writer.
	ErrStopped = errors.New("stopped before the input opened")
)

// IsFIFO reports whether path names a named pipe (mkfifo), as a path or a file: URL (which FFmpeg's
// file protocol would open with a blocking open(2) as well). Other URLs and missing files are not.
func IsFIFO(path string) bool {
	fi, err := os.Stat(strings.TrimPrefix(path, "file:"))
	return err == nil && fi.Mode()&os.ModeNamedPipe != 0
}

// OpenFIFO opens the named pipe path (a path or a file: URL) for reading without blocking, waits
// until a writer has written something (or has come and gone), and returns FFmpeg's pipe-protocol URL
// for the descriptor ("pipe:N", https://ffmpeg.org/ffmpeg-protocols.html#pipe) and the descriptor,
// which the caller closes after the format context (the pipe protocol does not close it).
//
// A plain open(2) of a FIFO for reading blocks until a writer opens it (fifo(7)), and FFmpeg's file
// protocol opens it that way, deaf to the interrupt callback and to signals. With O_NONBLOCK the
// open returns at once (POSIX open(2): "O_RDONLY ... shall return without delay"); poll(2) then
// waits for data in short slices that also watch stop. On Linux a reader that has never seen a
// writer gets no POLLHUP (pipe(7)), so the wait lasts until data comes, a writer closes, timeout
// passes (ErrNoWriter; ≤ 0: no limit) or stop is closed (ErrStopped).
//
// The descriptor stays non-blocking: FFmpeg's pipe protocol then gets EAGAIN from read(2) when the
// writer stalls, and its retry loop sleeps and checks the interrupt callback between tries
// (retry_transfer_wrapper in libavformat/avio.c), so an Interrupter's deadline and Abort reach a
// stalled pipe too; a blocking read would wait for the writer for ever.
func OpenFIFO(path string, stop <-chan struct{}, timeout time.Duration) (url string, fd int, err error) {
	fd, err = syscall.Open(strings.TrimPrefix(path, "file:"), syscall.O_RDONLY|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
	if err != nil {
		return "", -1, err
	}
	start := time.Now()
	for {
		if timeout > 0 && time.Since(start) >= timeout {
			syscall.Close(fd)
			return "", -1, ErrNoWriter
		}
		select {
		case <-stop:
			syscall.Close(fd)
			return "", -1, ErrStopped
		default:
		}
		fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
		n, err := unix.Poll(fds, 20)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			syscall.Close(fd)
			return "", -1, fmt.Errorf("poll: %w", err)
		}
		if n > 0 && fds[0].Revents != 0 {
			return "pipe:" + strconv.Itoa(fd), fd, nil
		}
	}
}
