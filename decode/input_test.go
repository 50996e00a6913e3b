package decode

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/ycbcrkit/ycbcrkit/internal/testkit/timebound"
)

// stalledPipe is FFmpeg's "pipe:N" URL for the read end of a pipe whose writer has written the
// first n bytes of the default clip and then stays silent with the pipe open: a stall in the middle
// of probing. Both ends are non-blocking, as ycbcrplay makes a FIFO or standard input, so that
// FFmpeg's pipe protocol polls the interrupt callback while it waits.
func stalledPipe(t *testing.T, n int) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(mediaDir, "default.mkv"))
	if err != nil {
		t.Fatal(err)
	}
	var fds [2]int
	if err := syscall.Pipe2(fds[:], syscall.O_NONBLOCK|syscall.O_CLOEXEC); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { syscall.Close(fds[0]); syscall.Close(fds[1]) })
	if w, err := syscall.Write(fds[1], b[:n]); err != nil || w != n {
		t.Fatalf("wrote %d of %d bytes: %v", w, n, err)
	}
	return "pipe:" + strconv.Itoa(fds[0])
}

// TestStopWhileProbing: a writer that stalls after 300 bytes of a Matroska file (inside its
// header: avformat_open_input is still probing), and no timeout. Closing Options.Stop (and
// AudioOptions.Stop) ends Open with ErrInterrupted, at once; a deadline ends it with ErrTimeout,
// so -timeout bounds probing as it bounds reading.
func TestStopWhileProbing(t *testing.T) {
	for _, audio := range []bool{false, true} {
		stop := make(chan struct{})
		time.AfterFunc(200*time.Millisecond, func() { close(stop) })
		span := timebound.Start()
		var err error
		if audio {
			_, err = OpenAudio(stalledPipe(t, 300), AudioOptions{Timeout: -1, Stop: stop})
		} else {
			_, err = Open(stalledPipe(t, 300), Options{Timeout: -1, Stop: stop})
		}
		took, _ := span.Elapsed()
		if !errors.Is(err, ErrInterrupted) {
			t.Fatalf("audio %v: %v: want ErrInterrupted", audio, err)
		}
		oneLine(t, err)
		// 200 ms, then FFmpeg's retry loop notices within a millisecond; 1 s of slack for a loaded machine.
		span.Within(t, fmt.Sprintf("audio %v: Open's return, 200 ms after Stop was closed (want at once)", audio), 1200*time.Millisecond)
		t.Logf("audio %v: %v after %s", audio, err, took.Round(time.Millisecond))
	}
	span := timebound.Start()
	_, err := Open(stalledPipe(t, 300), Options{Timeout: 300 * time.Millisecond, Stop: make(chan struct{})})
	if !errors.Is(err, ErrTimeout) {
		t.Fatalf("%v: want ErrTimeout", err)
	}
	oneLine(t, err)
	span.Within(t, "the end of a probe a 300 ms timeout ends", 1300*time.Millisecond)
}

// TestStopAfterOpen: Options.Stop closed during playback interrupts a stalled read, as Interrupt
// does; a decoder closed with its Stop never closed ends its watcher (Close does not hang).
func TestStopAfterOpen(t *testing.T) {
	stop := make(chan struct{})
	d, err := Open(stalledY4M(t), Options{Timeout: -1, Stop: stop})
	if err != nil {
		t.Fatal(err)
	}
	time.AfterFunc(300*time.Millisecond, func() { close(stop) })
	n, err := drain(d)
	d.Close()
	if !errors.Is(err, ErrInterrupted) {
		t.Fatalf("%d frames, %v: want ErrInterrupted", n, err)
	}
	d, err = Open(filepath.Join(mediaDir, "clip.y4m"), Options{Stop: make(chan struct{})})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := drain(d); err != nil {
		t.Fatal(err)
	}
	d.Close()
	d.Close()
}
