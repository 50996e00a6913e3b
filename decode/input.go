package decode

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/asticode/go-astiav"

	"github.com/ycbcrkit/ycbcrkit/decode/readahead"
	"github.com/ycbcrkit/ycbcrkit/internal/avx"
)

// input is one opened demuxer: the format context, the interrupt callback that bounds (timeout) and
// cancels (Interrupt, stop) its blocking calls, and what closing it needs. Decoder and AudioDecoder
// each embed one: each opens the URL on its own, so that video and audio are read and sought apart.
type input struct {
	url     string        // as given: a path or anything FFmpeg's protocols open
	timeout time.Duration // each blocking call's limit; ≤ 0: none
	// openTimeout, when positive, bounds the next opening's connecting and probing instead of
	// timeout, once (Options.OpenTimeout).
	openTimeout time.Duration
	limit       time.Duration // the opening's limit, then timeout: what an ErrTimeout says

	fc       *astiav.FormatContext
	fcOpened bool // OpenInput succeeded: CloseInput is needed (and only then safe)
	intr     *avx.Interrupter
	// imu guards intr and srcIntr against interrupt, which another goroutine calls while Reopen
	// replaces them; stopped makes an interrupt stick across a reopening.
	imu     sync.Mutex
	stopped bool

	// The goroutine that turns a closed stop channel into an abort, and its end.
	unwatch, watched chan struct{}

	// With a read-ahead cache (cacheSize > 0): the URL is read through src by the cache's goroutine,
	// its blocking calls bounded by srcIntr, and the demuxer reads the cache through pb.
	cacheSize int64
	cache     *readahead.Cache
	src       *avx.IO
	srcIntr   *avx.Interrupter
	pb        *astiav.IOContext

	log *logSink // FFmpeg's messages about this input (log.go); nil: not counted

	// live: read as a live source (live.go): FFmpeg's low-latency options, no read-ahead cache.
	live          bool
	rtspTransport string
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
	intr, err := avx.NewInterrupter()
	if err != nil {
		return fmt.Errorf("decode: %s %s: %w", op, in.url, err)
	}
	in.imu.Lock()
	in.intr = intr
	in.imu.Unlock()
	// Installed on the pre-allocated context before avformat_open_input: a context the caller
	// allocates keeps its callback through the open (https://ffmpeg.org/doxygen/7.1/group__lavf__decoding.html).
	registerLog(in.intr.LogOwner(), in.log)
	if err := in.intr.Install(in.fc); err != nil {
		return fmt.Errorf("decode: %s %s: %w", op, in.url, err)
	}
	if in.cacheSize > 0 {
		// Before the watch, which aborts it too.
		srcIntr, err := avx.NewInterrupter()
		if err != nil {
			return fmt.Errorf("decode: %s %s: %w", op, in.url, err)
		}
		in.imu.Lock()
		in.srcIntr = srcIntr
		in.imu.Unlock()
		registerLog(in.srcIntr.LogOwner(), in.log)
	}
	in.imu.Lock()
	if in.stopped { // interrupted before (Reopen): so is this opening
		in.intr.Abort()
		if in.srcIntr != nil {
			in.srcIntr.Abort()
		}
	}
	in.imu.Unlock()
	if stop != nil {
		in.watch(stop)
	}
	limit := in.timeout
	if in.openTimeout > 0 {
		limit, in.openTimeout = in.openTimeout, 0
	}
	in.limit = limit
	in.intr.Arm(limit)
	var opts *astiav.Dictionary
	if in.live {
		if opts, err = liveOptions(in.url, in.timeout, in.rtspTransport); err != nil {
			return fmt.Errorf("decode: %s %s: %w", op, in.url, err)
		}
		defer opts.Free()
	} else if in.cacheSize > 0 {
		if err := in.openCache(op); err != nil {
			return err
		}
	}
	if err := avx.OpenInput(in.fc, in.url, opts); err != nil { // FFmpeg's log during it is this input's
		// avformat_open_input has freed the context on failure; only Free (a no-op) is safe now.
		return in.ioError(op, err)
	}
	in.fcOpened = true
	in.intr.Arm(limit)
	if in.live && limit > 0 {
		// A live probe reads for LiveProbeDuration of the feed (MPEG-TS always does: it has no
		// header), on top of waiting for it.
		in.intr.Arm(limit + LiveProbeDuration)
	}
	if err := avx.FindStreamInfo(in.fc); err != nil {
		return in.ioError(op, fmt.Errorf("read stream info: %w", err))
	}
	in.limit = in.timeout // what the reads are armed with from now on
	return nil
}

// AVIO's seek requests beyond fseek's whence (libavformat/avio.h).
const (
	avseekSize  = 0x10000
	avseekForce = 0x20000
)

// openCache opens the URL through FFmpeg's protocols, starts the read-ahead cache on it and makes
// the cache the demuxer's AVIOContext (a custom one: avformat_open_input keeps it, and
// avformat_close_input leaves it to close). The demuxer sees an input that seeks within what the
// cache holds, so that an MP4 whose moov box is at the end plays from a pipe.
func (in *input) openCache(op string) error {
	var err error
	in.srcIntr.Arm(in.timeout)
	if in.src, err = avx.OpenIO(in.url, in.srcIntr); err != nil {
		return in.ioError(op, err)
	}
	src := readahead.Source{
		Read: func(p []byte) (int, error) {
			in.srcIntr.Arm(in.timeout) // each read of the source is bounded, as the demuxer's are
			return in.src.Read(p)
		},
		Interrupt: in.srcIntr.Abort,
	}
	if in.src.Seekable() {
		src.Seek = func(off int64) error {
			in.srcIntr.Arm(in.timeout)
			return in.src.SeekTo(off)
		}
	}
	in.cache = readahead.New(src, in.cacheSize)
	seek := func(offset int64, whence int) (int64, error) {
		if whence&avseekSize != 0 {
			if size, ok := in.cache.Size(); ok {
				return size, nil
			}
			return 0, astiav.Error(-int(syscall.ENOSYS))
		}
		return in.cache.Seek(offset, whence&^avseekForce)
	}
	read := func(p []byte) (int, error) {
		n, err := in.cache.Read(p)
		if err != nil && !errors.Is(err, io.EOF) {
			return n, astiav.ErrEio
		}
		return n, err
	}
	if in.pb, err = astiav.AllocIOContext(64<<10, false, read, seek, nil); err != nil {
		return fmt.Errorf("decode: %s %s: %w", op, in.url, err)
	}
	in.fc.SetPb(in.pb)
	return nil
}

// Cached is the read-ahead cache's byte range [start, end) and whether there is a cache.
func (in *input) cached() (start, end int64, ok bool) {
	if in.cache == nil {
		return 0, 0, false
	}
	start, end, _ = in.cache.Range()
	return start, end, true
}

// watch aborts the input's blocking calls once stop is closed, until close.
func (in *input) watch(stop <-chan struct{}) {
	in.unwatch, in.watched = make(chan struct{}), make(chan struct{})
	go func() {
		defer close(in.watched)
		select {
		case <-stop:
			in.interrupt()
		case <-in.unwatch:
		}
	}()
}

// arm starts the timeout for the next blocking call.
func (in *input) arm() { in.intr.Arm(in.timeout) }

// interrupt makes the current and every later blocking call return ErrInterrupted. Safe from any
// goroutine, but not concurrently with close.
func (in *input) interrupt() {
	in.imu.Lock()
	defer in.imu.Unlock()
	in.stopped = true
	if in.intr != nil {
		in.intr.Abort()
	}
	if in.srcIntr != nil {
		in.srcIntr.Abort()
	}
}

// ioError names an FFmpeg failure of op on the URL, turning an interrupt into ErrTimeout or
// ErrInterrupted so that the message says why rather than FFmpeg's "Immediate exit requested".
func (in *input) ioError(op string, err error) error {
	for _, it := range []*avx.Interrupter{in.intr, in.srcIntr} {
		if it == nil {
			continue
		}
		switch {
		case it.Aborted():
			return fmt.Errorf("decode: %s %s: %w", op, in.url, ErrInterrupted)
		case it.TimedOut():
			return fmt.Errorf("decode: %s %s: %w after %s", op, in.url, ErrTimeout, in.limit)
		}
	}
	if in.cache != nil && in.cache.Refused() > 0 {
		return fmt.Errorf("decode: %s %s: %w (the demuxer sought outside the %d MB read-ahead cache: the input cannot go back that far; a larger cache may hold it)",
			op, in.url, err, in.cacheSize>>20)
	}
	if errors.Is(err, astiav.ErrProtocolNotFound) {
		// A scheme FFmpeg knows but this build left out (srt:// without libsrt, rtmp://): said so,
		// where FFmpeg's own words read like a typo in the URL.
		scheme, _, _ := strings.Cut(in.url, "://")
		return fmt.Errorf("decode: %s %s: %w: this FFmpeg build reads no %s:// (`ffmpeg -protocols` lists what it reads; docs/live.md)",
			op, in.url, err, scheme)
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
	in.imu.Lock()
	defer in.imu.Unlock()
	if in.intr != nil {
		unregisterLog(in.intr.LogOwner())
		in.intr.Free()
		in.intr = nil
	}
	// The cache's goroutine reads the source: stopped (its read interrupted) before the source
	// closes; the demuxer's AVIOContext after the format context that used it.
	if in.cache != nil {
		in.cache.Close()
		in.cache = nil
	}
	if in.pb != nil {
		in.pb.Free()
		in.pb = nil
	}
	if in.src != nil {
		in.src.Close()
		in.src = nil
	}
	if in.srcIntr != nil {
		unregisterLog(in.srcIntr.LogOwner())
		in.srcIntr.Free()
		in.srcIntr = nil
	}
}
