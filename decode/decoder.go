package decode

import (
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/asticode/go-astiav"

	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/internal/avx"
)

// Decoder decodes the best video stream of one input. Open it, call Next until io.EOF, Close it.
type Decoder struct {
	input // the demuxer: format context, interrupt callback, timeout (input.go)
	opts  Options

	// infoMu guards info: the decoding goroutine rewrites it (a stream change, deinterlacing
	// starting) while a player reads Info from its own goroutine.
	infoMu sync.Mutex

	st       *astiav.Stream
	stIdx    int
	tb       float64 // stream time base in seconds
	start    int64   // stream start time in time-base units (0 when unknown)
	streamCl formats.Color

	cc     *astiav.CodecContext
	pool   *avx.Pool // the decoder's get_buffer2
	copies *avx.Pool // copies of foreign buffers and swscale output; separate so sizes don't thrash
	pkt    *astiav.Packet
	recv   *astiav.Frame

	pktHeld   bool  // pkt was refused with EAGAIN and is sent again before reading another
	inputDone bool  // the flush (nil) packet has been sent
	drained   bool  // the decoder returned EOF
	endErr    error // what Next returns after draining: nil means io.EOF
	fatal     error // sticky error: Next returns it from now on
	errRun    int   // consecutive decode errors without a frame

	tried    []int         // video streams opened so far (nextStream)
	deint    *deinterlacer // bwdif, once a frame needs it (deinterlace.go)
	conv     *converter
	resolved resolveCache
	notices  []string
	noticed  map[string]bool

	last    frameKey // size and format of the last frame returned
	hasLast bool
	lastPTS float64
	hasPTS  bool
	pending *Frame // the frame Seek landed on, returned by the next Next

	info     Info
	stats    Stats
	progress atomic.Int64 // packets read + frames decoded, for Progress
	closed   bool

	hwDev    *avx.HWDevice // FFmpeg's device context on Options.Vulkan (decode/hw.go)
	hwReason string        // why decoding is in software, as decided at open (under infoMu)
	hwOff    string        // set by a mid-stream hardware failure: software from then on, and why
	hwSingle bool          // opened without threads for Vulkan decoding (restoreThreads)
	threads  int           // the open decoder's thread count (Threads)
	// After a fallback (hwFallback) the software decoder restarts at a key frame at or before the
	// last frame returned; frames up to dropUntil (that frame's PTS) are dropped.
	dropping  bool
	dropUntil float64
}

// frameKey identifies a picture geometry: a change of it sets Frame.Changed.
type frameKey struct {
	w, h   int
	format int
}

// Open opens url (a file path or anything FFmpeg's protocols open), picks the best video stream
// (av_find_best_stream) and opens its decoder with opts.Threads threads and page-aligned buffers.
// Errors are one line, e.g. "decode: open foo.mp4: No such file or directory".
func Open(url string, opts Options) (*Decoder, error) {
	d := newDecoder(url, opts)
	d.input.openTimeout = d.opts.OpenTimeout
	if err := d.open(); err != nil {
		d.log.discard() // the error says what went wrong
		d.Close()
		return nil, err
	}
	return d, nil
}

// OpenLater is a Decoder for url, with opts, that is not open yet: its Info is zero and Next fails
// with ErrNotOpened until Reopen opens it. A client that reopens a live source when it fails
// (package pump's Params.Reopen) so plays a feed that is down when it starts once the feed comes,
// as it would one lost later.
func OpenLater(url string, opts Options) *Decoder {
	d := newDecoder(url, opts)
	d.fatal = fmt.Errorf("decode: open %s: %w", url, ErrNotOpened)
	return d
}

func newDecoder(url string, opts Options) *Decoder {
	opts = opts.withDefaults()
	d := &Decoder{input: input{url: url, timeout: opts.Timeout, cacheSize: opts.CacheSize, live: opts.Live.isLive(url),
		rtspTransport: opts.RTSPTransport}, opts: opts, noticed: map[string]bool{}}
	if opts.Log != nil {
		d.input.log = newLogSink(opts.Log)
	}
	return d
}

func (d *Decoder) open() error {
	if err := d.input.open("open", d.opts.Stop); err != nil {
		return err
	}

	idx, err := avx.FindBestVideoStream(d.fc)
	if d.opts.Video > 0 {
		idx, err = d.nthVideoStream(d.opts.Video)
	}
	if err != nil {
		if errors.Is(err, astiav.ErrStreamNotFound) {
			return fmt.Errorf("decode: open %s: %w", d.url, ErrNoVideo)
		}
		return fmt.Errorf("decode: open %s: find video stream: %w", d.url, err)
	}
	if d.pkt == nil { // kept across Reopen
		if d.pkt = astiav.AllocPacket(); d.pkt == nil {
			return fmt.Errorf("decode: open %s: cannot allocate a packet", d.url)
		}
	}
	if d.recv == nil {
		if d.recv = astiav.AllocFrame(); d.recv == nil {
			return fmt.Errorf("decode: open %s: cannot allocate a frame", d.url)
		}
	}
	return d.openStream(idx)
}

// openStream makes video stream idx the decoded one: its decoder (threads, page-aligned buffers),
// time base, information and the up-front notice of a pixel-format conversion.
func (d *Decoder) openStream(idx int) error {
	var err error
	d.tried = append(d.tried, idx)
	streams := d.fc.Streams()
	d.stIdx, d.st = idx, streams[idx]
	cp := d.st.CodecParameters()
	if w, h := cp.Width(), cp.Height(); w > d.opts.MaxWidth || h > d.opts.MaxHeight {
		return fmt.Errorf("decode: open %s: %w: %dx%d is over the %dx%d limit", d.url, ErrTooLarge, w, h,
			d.opts.MaxWidth, d.opts.MaxHeight)
	}
	codec := astiav.FindDecoder(cp.CodecID())
	if codec == nil {
		return fmt.Errorf("decode: open %s: %w: no decoder for %s (video stream %d)", d.url, ErrUnsupportedCodec,
			avx.CodecName(cp.CodecID()), idx)
	}
	if err := avx.DiscardOthers(d.fc, idx); err != nil {
		return fmt.Errorf("decode: open %s: %w", d.url, err)
	}

	tb := d.st.TimeBase()
	if tb.Num() <= 0 || tb.Den() <= 0 {
		return fmt.Errorf("decode: open %s: video stream %d has no time base", d.url, idx)
	}
	d.tb = tb.Float64()
	if s := d.st.StartTime(); s != avx.NoPTS {
		d.start = s
	}

	if d.cc = astiav.AllocCodecContext(codec); d.cc == nil {
		return fmt.Errorf("decode: open %s: cannot allocate a %s decoder", d.url, codec.Name())
	}
	if err := cp.ToCodecContext(d.cc); err != nil {
		return fmt.Errorf("decode: open %s: codec parameters: %w", d.url, err)
	}
	if err := avx.SetPacketTimeBase(d.cc, tb); err != nil {
		return fmt.Errorf("decode: open %s: %w", d.url, err)
	}
	pool, err := avx.NewPool(d.opts.MaxWidth, d.opts.MaxHeight)
	if err != nil {
		return fmt.Errorf("decode: open %s: %w", d.url, err)
	}
	d.infoMu.Lock() // HW reads the pool from other goroutines (a fallback or Reopen swaps it)
	d.pool = pool
	d.infoMu.Unlock()
	if d.copies, err = avx.NewPool(d.opts.MaxWidth, d.opts.MaxHeight); err != nil {
		return fmt.Errorf("decode: open %s: %w", d.url, err)
	}
	// Before avcodec_open2: frame threads copy get_buffer2 and opaque from this context when they start.
	if err := d.pool.Install(d.cc); err != nil {
		return fmt.Errorf("decode: open %s: %w", d.url, err)
	}
	registerLog(d.pool.LogOwner(), d.log)
	if err := d.setupHW(codec); err != nil {
		return fmt.Errorf("decode: open %s: %w", d.url, err)
	}
	// Threads are fixed by avcodec_open2, hardware is chosen later in get_format. Where Vulkan may
	// decode, open without threads (hwThreads, decode/hw.go); restoreThreads reopens with
	// opts.Threads if get_format then decodes in software.
	threads := d.opts.Threads
	d.hwSingle = d.pool.HWState().Installed && threads > 1
	if d.hwSingle {
		threads = 1
	}
	d.cc.SetThreadCount(threads)
	d.cc.SetThreadType(astiav.ThreadTypeFrame | astiav.ThreadTypeSlice)
	if err := d.cc.Open(codec, nil); err != nil {
		return fmt.Errorf("decode: open %s: open %s decoder: %w", d.url, codec.Name(), err)
	}
	d.threads = max(1, d.cc.ThreadCount()) // what FFmpeg kept (1 for a decoder without threads)

	d.fillInfo(codec)
	d.streamCl = d.info.Color
	// Announce a conversion up front when the stream declares its format; frames of other formats
	// met later (mid-stream changes) add their own notice. A format swscale cannot read (rgb4, bgr4:
	// bitstream formats it only writes) is refused here, rather than announced as a conversion and
	// then failed at the first frame.
	if pf := cp.PixelFormat(); pf != astiav.PixelFormatNone {
		if _, ok := formats.Lookup(pf.Name()); !ok {
			if t, err := chooseTarget(pf); err == nil {
				if w, h := cp.Width(), cp.Height(); w > 0 && h > 0 {
					c, err := newConverter(convKey{int(pf), w, h, d.streamCl}, t)
					if err != nil {
						return fmt.Errorf("decode: open %s: %w: %s (swscale cannot convert it to %s)", d.url,
							ErrUnsupportedPixelFormat, pf.Name(), t.dst.Name)
					}
					c.free()
				}
				d.notice(t.notice)
			}
		}
	}
	return nil
}

// closeStream frees the current stream's decoder and buffer pools. Frames already handed out stay
// valid: their buffers are reference counted.
func (d *Decoder) closeStream() {
	if d.conv != nil {
		d.conv.free()
		d.conv = nil
	}
	if d.cc != nil {
		// Joins the frame threads: nothing calls get_buffer2 after this. Not cc.Free, which drops
		// hw_device_ctx before the frame threads that share it have stopped (avx.FreeCodecContext).
		avx.FreeCodecContext(d.cc)
		d.cc = nil
	}
	if d.pool != nil {
		unregisterLog(d.pool.LogOwner())
		d.infoMu.Lock()
		d.pool.Free()
		d.pool = nil
		d.infoMu.Unlock()
	}
	if d.copies != nil {
		d.copies.Free()
		d.copies = nil
	}
}

// nthVideoStream is the index of the n-th video stream (from 1, cover pictures not counted), for
// Options.Video.
func (d *Decoder) nthVideoStream(n int) (int, error) {
	count := 0
	for i, st := range d.fc.Streams() {
		if st.CodecParameters().MediaType() != astiav.MediaTypeVideo || st.DispositionFlags().Has(astiav.DispositionFlagAttachedPic) {
			continue
		}
		if count++; count == n {
			return i, nil
		}
	}
	if count == 0 {
		return 0, astiav.ErrStreamNotFound
	}
	return 0, fmt.Errorf("no video stream %d: the input has %d", n, count)
}

// nextStream is FFmpeg's CLI behaviour for a video stream that ends before its first frame (an empty
// default track beside a playable one): the next video stream not tried yet that has a decoder and
// is not a cover picture is opened, and the input is read again from its start. It reports whether
// it switched; the notice names both streams.
func (d *Decoder) nextStream() bool {
	if d.stats.Decoded > 0 || d.opts.Video > 0 { // a stream the caller chose stands

		return false
	}
	for i, st := range d.fc.Streams() {
		cp := st.CodecParameters()
		if cp.MediaType() != astiav.MediaTypeVideo || slices.Contains(d.tried, i) ||
			st.DispositionFlags().Has(astiav.DispositionFlagAttachedPic) || astiav.FindDecoder(cp.CodecID()) == nil {
			continue
		}
		old := d.stIdx
		// Seek by the new stream's own index and start: with -1 the demuxer would use its default
		// stream, the empty one, whose index has nothing to seek to.
		start := st.StartTime()
		if start == avx.NoPTS {
			start = 0
		}
		d.intr.Arm(d.opts.Timeout)
		if err := d.fc.SeekFrame(i, start, astiav.NewSeekFlags(astiav.SeekFlagBackward)); err != nil {
			d.intr.Arm(d.opts.Timeout)
			if err := d.fc.SeekFrame(-1, 0, astiav.NewSeekFlags(astiav.SeekFlagByte)); err != nil {
				return false // not seekable (a pipe): the first stream's end stands
			}
		}
		d.closeStream()
		if err := d.openStream(i); err != nil {
			d.fatal = err
			return false
		}
		d.pkt.Unref()
		d.pktHeld, d.inputDone, d.drained = false, false, false
		d.endErr, d.errRun, d.hasPTS = nil, 0, false
		d.notice(fmt.Sprintf("notice: video stream %d has no frames; playing video stream %d (%s %dx%d) instead",
			old, i, d.info.Codec, d.info.Width, d.info.Height))
		return true
	}
	return false
}

// Progress counts the packets read and the frames decoded so far. Unlike the other methods it may
// be called from any goroutine: a caller waiting for Next or Seek (a seek that decodes a minute of
// video from a distant key frame) tells a decoder at work from a stalled input by it.
func (d *Decoder) Progress() int64 { return d.progress.Load() }

// Notices returns one-line notices about the input, such as conversions of pixel formats the
// toolkit does not support ("notice: yuv411p is not supported by the toolkit; converting to yuv422p
// with swscale"). Each is given once.
func (d *Decoder) Notices() []string { return append([]string(nil), d.notices...) }

func (d *Decoder) notice(s string) {
	if !d.noticed[s] {
		d.noticed[s] = true
		d.notices = append(d.notices, s)
	}
}

// Live says whether the input is read as a live source (Options.Live, IsLive).
func (d *Decoder) Live() bool { return d.live }

// Interrupt makes a blocking demuxer call (a stalled network read) return ErrInterrupted, now and
// from then on. It is the one method that may be called from another goroutine; it must not race
// with Close.
func (d *Decoder) Interrupt() { d.input.interrupt() }

// Close frees the decoder. Frames not yet released stay valid until their Release: their buffers are
// reference counted and outlive the decoder.
func (d *Decoder) Close() error {
	if d.closed {
		return nil
	}
	d.closed = true
	if d.pending != nil {
		d.pending.Release()
		d.pending = nil
	}
	if d.pkt != nil {
		d.pkt.Free()
	}
	if d.recv != nil {
		d.recv.Free()
	}
	d.resetDeinterlacer()
	d.closeStream()
	d.input.close()
	d.hwDev.Free() // decoders' frames hold their own references to the device
	d.hwDev = nil
	d.log.close() // what FFmpeg said since the last summary
	return nil
}
