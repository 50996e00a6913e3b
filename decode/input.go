package decode

import (
	"fmt"
	"time"

	"github.com/asticode/go-astiav"

	"github.com/ycbcrkit/ycbcrkit/internal/avx"
)

// input is one opened demuxer: the format context, the interrupt callback that bounds (timeout) and
// cancels (Interrupt, stop) its blocking calls, and what closing it needs. Decoder and AudioDecoder
// each embed one: each opens the URL on its own, so that video and audio are read and sought apart.
type input struct {
	url     string        // as given: a path or anything FFmpeg's protocols open
	timeout time.Duration // each blocking call's limit; ≤ 0: none

	fc       *astiav.FormatContext
	fcOpened bool // OpenInput succeeded: CloseInput is needed (and only then safe)
	intr     *avx.Interrupter

	// The goroutine that turns a closed stop channel into an abort, and its end.
	unwatch, watched chan struct{}
}

// open opens the URL and reads its stream information, as avformat_open_input and
// avformat_find_stream_info do, with the interrupt callback installed on the pre-allocated context
// first, so that connecting and probing are bounded by the timeout and cancelled by Interrupt or
// stop as reading is (a FIFO or pipe whose writer stalls mid-probe, a network URL that stops
// answering). op names the operation in errors ("open", "open audio"): one line, "decode: <op>
// <url>: <reason>". After an error, close frees what was made.
func (in *input) open(op string, stop <-chan struct{}) error {
	if in.url == "" {
		return fmt.Errorf("decode: %s: empty URL", op)
	}
	if err := avx.CheckLayout(); err != nil {
		return fmt.Errorf("decode: %s %s: %w", op, in.url, err)
	}
	if in.fc = astiav.AllocFormatContext(); in.fc == nil {
		return fmt.Errorf("decode: %s %s: cannot allocate a format context", op, in.url)
	}
	var err error
	if in.intr, err = avx.NewInterrupter(); err != nil {
		return fmt.Errorf("decode: %s %s: %w", op, in.url, err)
	}
	// Installed on the pre-allocated context before avformat_open_input: a context the caller
	// allocates keeps its callback through the open (https://ffmpeg.org/doxygen/7.1/group__lavf__decoding.html).
	if err := in.intr.Install(in.fc); err != nil {
		return fmt.Errorf("decode: %s %s: %w", op, in.url, err)
	}
	if stop != nil {
		in.watch(stop)
	}
	in.arm()
	if err := in.fc.OpenInput(in.url, nil, nil); err != nil {
		// avformat_open_input has freed the context on failure; only Free (a no-op) is safe now.
		return in.ioError(op, err)
	}
	in.fcOpened = true
	in.arm()
	if err := in.fc.FindStreamInfo(nil); err != nil {
		return in.ioError(op, fmt.Errorf("read stream info: %w", err))
	}
	return nil
}

// watch aborts the input's blocking calls once stop is closed, until close.
func (in *input) watch(stop <-chan struct{}) {
	in.unwatch, in.watched = make(chan struct{}), make(chan struct{})
	go func() {
		defer close(in.watched)
		select {
		case <-stop:
			in.intr.Abort()
		case <-in.unwatch:
		}
	}()
}

// arm starts the timeout for the next blocking call.
func (in *input) arm() { in.intr.Arm(in.timeout) }

// interrupt makes the current and every later blocking call return ErrInterrupted. Safe from any
// goroutine, but not concurrently with close.
func (in *input) interrupt() {
	if in.intr != nil {
		in.intr.Abort()
	}
}

// ioError names an FFmpeg failure of op on the URL, turning an interrupt into ErrTimeout or
// ErrInterrupted so that the message says why rather than FFmpeg's "Immediate exit requested".
func (in *input) ioError(op string, err error) error {
	if in.intr != nil {
		switch {
		case in.intr.Aborted():
			return fmt.Errorf("decode: %s %s: %w", op, in.url, ErrInterrupted)
		case in.intr.TimedOut():
			return fmt.Errorf("decode: %s %s: %w after %s", op, in.url, ErrTimeout, in.timeout)
		}
	}
	return fmt.Errorf("decode: %s %s: %w", op, in.url, err)
}

// close closes and frees the format context, then the interrupter (after the stop watcher has
// ended, which may use it). Closing twice is harmless.
func (in *input) close() {
	if in.unwatch != nil {
		close(in.unwatch)
		<-in.watched
		in.unwatch = nil
	}
	if in.fc != nil {
		if in.fcOpened {
			in.fc.CloseInput()
		}
		in.fc.Free()
		in.fc, in.fcOpened = nil, false
	}
	if in.intr != nil {
		in.intr.Free()
		in.intr = nil
	}
}
