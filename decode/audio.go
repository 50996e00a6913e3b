package decode

import (
	"errors"
	"fmt"
	"io"
	"math"
	"time"
	"unsafe"

	"github.com/asticode/go-astiav"

	"github.com/ycbcrkit/ycbcrkit/internal/avx"
)

// joinTolerance is how far a frame's timestamp may be from the end of the chunk before it and still
// count as continuous (2 ms: twice Matroska's timestamp rounding).
const joinTolerance = 0.002

// ErrNoAudio: the input has no audio stream (or not the one AudioOptions.Track asks for).
var ErrNoAudio = errors.New("no audio stream")

// AudioOptions tune OpenAudio. The zero value is what a player wants.
type AudioOptions struct {
	// Track chooses the stream: 0 is FFmpeg's best audio stream (av_find_best_stream, related to
	// Related); N > 0 is the N-th audio stream of the file, counted from 1 (mpv's --aid).
	Track int
	// Related is the video stream index av_find_best_stream prefers audio of the same program for;
	// -1 when there is none.
	Related int
	// Origin is subtracted from every timestamp (seconds), so that Chunk.PTS is on the video
	// decoder's clock: pass the video Info().Start. Seek targets are on the same clock.
	Origin float64
	// Rate is the output sample rate; 0 keeps the stream's.
	Rate int
	// Channels is the output channel count, 1 or 2; 0 keeps mono and makes everything else stereo
	// (swresample's default downmix matrix).
	Channels int
	// Timeout bounds each blocking demuxer call, as Options.Timeout; 0 means DefaultTimeout.
	Timeout time.Duration
	// Stop, when closed, interrupts the decoder, OpenAudio included, as Options.Stop does.
	Stop <-chan struct{}
	// Live, RTSPTransport and Log are Options': a live source read with FFmpeg's low-latency
	// options (a second connection beside the video's, ycbcrwall's picked tile), and this decoder's
	// summaries of FFmpeg's log.
	Live          LiveMode
	RTSPTransport string
	Log           func(summary string)
}

// AudioInfo describes the chosen audio stream and the output format.
type AudioInfo struct {
	URL         string
	StreamIndex int    // FFmpeg's stream index
	Track       int    // the stream's place among the audio streams, from 1
	Codec       string // decoder name, e.g. "aac"
	// Rate, Channels, Layout and SampleFormat are the stream's, as its codec parameters declare them.
	Rate         int
	Channels     int
	Layout       string
	SampleFormat string
	// OutRate and OutChannels are those of every Chunk: interleaved 32-bit float samples.
	OutRate, OutChannels int
	// Start is the stream's start time in seconds minus AudioOptions.Origin (0 when unknown).
	Start float64
	// Duration in seconds; 0 when unknown.
	Duration float64
}

// Chunk is a run of decoded, resampled audio.
type Chunk struct {
	// PTS is the time of the first sample, in seconds on the caller's clock (see AudioOptions.Origin).
	PTS float64
	// Samples holds Frames()×OutChannels interleaved float32 samples, nominally in [-1, 1].
	Samples []float32
}

// Frames is the number of sample frames (one sample per channel) in c.
func (c *Chunk) Frames(channels int) int { return len(c.Samples) / channels }

// AudioDecoder decodes one audio stream of an input and resamples it with swresample to interleaved
// float32 at AudioInfo.OutRate. It opens the input on its own (a second demuxer beside the video
// Decoder's), so that audio and video are read, buffered and sought independently, each at its own
// pace. Not safe for concurrent use, except Interrupt.
type AudioDecoder struct {
	input // the demuxer: format context, interrupt callback, timeout (input.go)
	opts  AudioOptions

	stIdx    int
	tb       float64
	start    float64 // stream start in seconds, on the caller's clock
	cc       *astiav.CodecContext
	pkt      *astiav.Packet
	recv     *astiav.Frame
	out      *astiav.Frame
	swr      *astiav.SoftwareResampleContext
	swrReady bool // swr has been configured by a first conversion (swr_get_delay divides by its input rate)
	outLay   astiav.ChannelLayout

	inputDone bool
	flushed   bool // swresample's buffered samples have been drained
	drained   bool
	nextPTS   float64 // expected PTS of the next output sample, for frames without timestamps
	hasNext   bool
	skipUntil float64 // after Seek: drop output before this time
	skipping  bool
	errRun    int

	info   AudioInfo
	closed bool
}

// OpenAudio opens url's audio stream for decoding. An input without audio gives ErrNoAudio.
func OpenAudio(url string, opts AudioOptions) (*AudioDecoder, error) {
	if opts.Timeout == 0 {
		opts.Timeout = DefaultTimeout
	}
	a := &AudioDecoder{input: input{url: url, timeout: opts.Timeout, live: opts.Live.isLive(url),
		rtspTransport: opts.RTSPTransport}, opts: opts}
	if opts.Log != nil {
		a.input.log = newLogSink(opts.Log)
	}
	if err := a.open(); err != nil {
		a.log.discard() // the error says what went wrong
		a.Close()
		return nil, err
	}
	return a, nil
}

func (a *AudioDecoder) open() error {
	if a.opts.Channels < 0 || a.opts.Channels > 2 || a.opts.Rate < 0 {
		return fmt.Errorf("decode: open audio %s: output of %d channels at %d Hz: want 1 or 2 channels", a.url,
			a.opts.Channels, a.opts.Rate)
	}
	if err := a.input.open("open audio", a.opts.Stop); err != nil {
		return err
	}

	var st *astiav.Stream
	track := 0
	if a.opts.Track > 0 {
		for _, s := range a.fc.Streams() {
			if s.CodecParameters().MediaType() == astiav.MediaTypeAudio {
				if track++; track == a.opts.Track {
					st = s
					break
				}
			}
		}
		if st == nil {
			return fmt.Errorf("decode: open audio %s: %w: audio track %d asked for, the file has %d", a.url,
				ErrNoAudio, a.opts.Track, track)
		}
	} else {
		related := a.opts.Related
		if related < 0 || related >= a.fc.NbStreams() {
			related = -1
		}
		s, _, err := a.fc.FindBestStream(astiav.MediaTypeAudio, -1, related)
		if err != nil {
			if errors.Is(err, astiav.ErrStreamNotFound) || errors.Is(err, astiav.ErrDecoderNotFound) {
				return fmt.Errorf("decode: open audio %s: %w", a.url, ErrNoAudio)
			}
			return fmt.Errorf("decode: open audio %s: find audio stream: %w", a.url, err)
		}
		st = s
		for _, s := range a.fc.Streams() {
			if s.CodecParameters().MediaType() == astiav.MediaTypeAudio {
				track++
			}
			if s.Index() == st.Index() {
				break
			}
		}
	}
	a.stIdx = st.Index()
	cp := st.CodecParameters()
	codec := astiav.FindDecoder(cp.CodecID())
	if codec == nil {
		return fmt.Errorf("decode: open audio %s: %w: no decoder for %s (audio stream %d)", a.url,
			ErrUnsupportedCodec, avx.CodecName(cp.CodecID()), a.stIdx)
	}
	if err := avx.DiscardOthers(a.fc, a.stIdx); err != nil {
		return fmt.Errorf("decode: open audio %s: %w", a.url, err)
	}
	tb := st.TimeBase()
	if tb.Num() <= 0 || tb.Den() <= 0 {
		return fmt.Errorf("decode: open audio %s: audio stream %d has no time base", a.url, a.stIdx)
	}
	a.tb = tb.Float64()
	if s := st.StartTime(); s != avx.NoPTS {
		a.start = float64(s)*a.tb - a.opts.Origin
	} else {
		a.start = -a.opts.Origin
	}

	if a.cc = astiav.AllocCodecContext(codec); a.cc == nil {
		return fmt.Errorf("decode: open audio %s: cannot allocate a %s decoder", a.url, codec.Name())
	}
	if err := cp.ToCodecContext(a.cc); err != nil {
		return fmt.Errorf("decode: open audio %s: codec parameters: %w", a.url, err)
	}
	if err := avx.SetPacketTimeBase(a.cc, tb); err != nil {
		return fmt.Errorf("decode: open audio %s: %w", a.url, err)
	}
	if err := a.cc.Open(codec, nil); err != nil {
		return fmt.Errorf("decode: open audio %s: open %s decoder: %w", a.url, codec.Name(), err)
	}
	rate, ch := a.cc.SampleRate(), a.cc.ChannelLayout().Channels()
	if rate <= 0 || ch <= 0 {
		return fmt.Errorf("decode: open audio %s: audio stream %d declares %d channels at %d Hz", a.url, a.stIdx, ch, rate)
	}
	outRate, outCh := a.opts.Rate, a.opts.Channels
	if outRate == 0 {
		outRate = rate
	}
	if outCh == 0 {
		outCh = min(ch, 2)
	}
	a.outLay = astiav.ChannelLayoutStereo
	if outCh == 1 {
		a.outLay = astiav.ChannelLayoutMono
	}
	a.pkt, a.recv, a.out = astiav.AllocPacket(), astiav.AllocFrame(), astiav.AllocFrame()
	if a.pkt == nil || a.recv == nil || a.out == nil {
		return fmt.Errorf("decode: open audio %s: cannot allocate a packet or frame", a.url)
	}
	a.info = AudioInfo{
		URL: a.url, StreamIndex: a.stIdx, Track: track, Codec: codec.Name(),
		Rate: rate, Channels: ch, Layout: a.cc.ChannelLayout().String(), SampleFormat: a.cc.SampleFormat().Name(),
		OutRate: outRate, OutChannels: outCh, Start: a.start,
	}
	if d := st.Duration(); d > 0 {
		a.info.Duration = float64(d) * a.tb
	} else if d := a.fc.Duration(); d > 0 {
		a.info.Duration = float64(d) / float64(astiav.TimeBase)
	}
	return nil
}

// Info returns the stream and output description gathered by OpenAudio.
func (a *AudioDecoder) Info() AudioInfo { return a.info }

// Next returns the next chunk of resampled audio (one decoded frame's worth, give or take the
// resampler's delay), or io.EOF once the stream is exhausted and the resampler drained. Chunks may
// be empty (the resampler buffering); callers skip those. Decode errors mid-stream are skipped.
func (a *AudioDecoder) Next() (*Chunk, error) {
	if a.closed {
		return nil, fmt.Errorf("decode: next audio %s: %w", a.url, ErrClosed)
	}
	for {
		c, err := a.next()
		if err != nil || !a.skipping {
			return c, err
		}
		// After a seek: cut the chunk at the target, sample-accurately.
		n := len(c.Samples) / a.info.OutChannels
		drop := int(math.Round((a.skipUntil - c.PTS) * float64(a.info.OutRate)))
		if drop <= 0 {
			a.skipping = false
			return c, nil
		}
		if drop < n {
			a.skipping = false
			c.Samples = c.Samples[drop*a.info.OutChannels:]
			c.PTS += float64(drop) / float64(a.info.OutRate)
			return c, nil
		}
	}
}

func (a *AudioDecoder) next() (*Chunk, error) {
	for {
		if a.drained {
			if a.flushed {
				return nil, io.EOF
			}
			a.flushed = true
			if a.swr == nil {
				return nil, io.EOF
			}
			// Drain swresample's buffered samples.
			return a.convert(nil)
		}
		err := a.cc.ReceiveFrame(a.recv)
		switch {
		case err == nil:
			a.errRun = 0
			c, err := a.convert(a.recv)
			a.recv.Unref()
			return c, err
		case isAgain(err):
			if a.inputDone {
				a.drained = true
				continue
			}
			if err := a.feed(); err != nil {
				return nil, err
			}
		case isEOF(err):
			a.drained = true
		default:
			if a.errRun++; a.errRun > maxErrRun {
				return nil, fmt.Errorf("decode: decode audio %s: giving up after %d consecutive errors: %w", a.url, a.errRun, err)
			}
		}
	}
}

// feed sends the next packet of the audio stream, or the flush packet at the end.
func (a *AudioDecoder) feed() error {
	readErrs := 0
	for {
		a.intr.Arm(a.opts.Timeout)
		err := a.fc.ReadFrame(a.pkt)
		if err != nil {
			if a.intr.Aborted() || a.intr.TimedOut() {
				return a.ioError("read audio", err)
			}
			if !isEOF(err) {
				if readErrs++; readErrs <= maxReadErrRun {
					continue
				}
			}
			a.inputDone = true
			if err := a.cc.SendPacket(nil); err != nil {
				a.drained = true
			}
			return nil
		}
		readErrs = 0
		if a.pkt.StreamIndex() != a.stIdx {
			a.pkt.Unref()
			continue
		}
		err = a.cc.SendPacket(a.pkt)
		a.pkt.Unref()
		// Audio decoders take a packet whenever they have handed out their frames, which the caller
		// has done before calling feed; an error is this packet's: skip it.
		if err != nil && !isAgain(err) && !isEOF(err) {
			if a.errRun++; a.errRun > maxErrRun {
				return fmt.Errorf("decode: decode audio %s: giving up after %d consecutive errors: %w", a.url, a.errRun, err)
			}
			continue
		}
		return nil
	}
}

// convert resamples src (nil: drain) into a Chunk. The chunk's time is src's timestamp less the
// resampler's delay (swr_get_delay: how much earlier the next output sample is than the next input
// sample), or the running position when src has no timestamp.
func (a *AudioDecoder) convert(src *astiav.Frame) (*Chunk, error) {
	if src != nil && a.swr == nil {
		if a.swr = astiav.AllocSoftwareResampleContext(); a.swr == nil {
			return nil, fmt.Errorf("decode: resample audio %s: cannot allocate a resampler", a.url)
		}
	}
	pts := a.nextPTS
	if src != nil {
		if ts := avx.ReadFields(src).BestEffortTimestamp; ts != avx.NoPTS {
			pts = float64(ts)*a.tb - a.opts.Origin
			if a.swrReady {
				pts -= float64(a.swr.Delay(int64(a.info.OutRate))) / float64(a.info.OutRate)
			}
			// Timestamps are rounded to the time base (Matroska's is 1 ms, so two of them can disagree by
			// 1 ms): keep the running position when they agree with it to within joinTolerance, so that
			// consecutive chunks join exactly.
			if a.hasNext && math.Abs(pts-a.nextPTS) < joinTolerance {
				pts = a.nextPTS
			}
		} else if !a.hasNext {
			pts = a.start
		}
	}
	a.out.Unref()
	a.out.SetChannelLayout(a.outLay)
	a.out.SetSampleRate(a.info.OutRate)
	a.out.SetSampleFormat(astiav.SampleFormatFlt)
	err := a.swr.ConvertFrame(src, a.out)
	if errors.Is(err, astiav.ErrInputChanged) || errors.Is(err, astiav.ErrOutputChanged) {
		// The stream changed its rate or layout: start a resampler for the new input. The old one's
		// few buffered samples are lost.
		a.swr.Free()
		a.swrReady = false
		if a.swr = astiav.AllocSoftwareResampleContext(); a.swr == nil {
			return nil, fmt.Errorf("decode: resample audio %s: cannot allocate a resampler", a.url)
		}
		a.out.Unref()
		a.out.SetChannelLayout(a.outLay)
		a.out.SetSampleRate(a.info.OutRate)
		a.out.SetSampleFormat(astiav.SampleFormatFlt)
		err = a.swr.ConvertFrame(src, a.out)
	}
	if err != nil {
		return nil, fmt.Errorf("decode: resample audio %s: %w", a.url, err)
	}
	a.swrReady = true
	n := a.out.NbSamples()
	c := &Chunk{PTS: pts, Samples: make([]float32, n*a.info.OutChannels)}
	if n > 0 {
		buf := unsafe.Slice((*byte)(unsafe.Pointer(&c.Samples[0])), len(c.Samples)*4)
		if _, err := a.out.SamplesCopyToBuffer(buf, 1); err != nil {
			return nil, fmt.Errorf("decode: resample audio %s: copy samples: %w", a.url, err)
		}
	}
	a.nextPTS, a.hasNext = pts+float64(n)/float64(a.info.OutRate), true
	return c, nil
}

// Seek moves to seconds (on the caller's clock, see AudioOptions.Origin): the demuxer goes back to a
// packet at or before the target, the decoder and resampler are flushed, and the next chunk Next
// returns starts at the first sample at or after the target. Seeking past the end is not an error:
// Next then returns io.EOF.
func (a *AudioDecoder) Seek(seconds float64) error {
	if a.closed {
		return fmt.Errorf("decode: seek audio %s: %w", a.url, ErrClosed)
	}
	if math.IsNaN(seconds) || math.IsInf(seconds, 0) {
		return fmt.Errorf("decode: seek audio %s: invalid target %v", a.url, seconds)
	}
	ts := int64(math.Floor((seconds + a.opts.Origin) / a.tb))
	a.intr.Arm(a.opts.Timeout)
	if err := a.fc.SeekFrame(a.stIdx, ts, astiav.NewSeekFlags(astiav.SeekFlagBackward)); err != nil {
		a.intr.Arm(a.opts.Timeout)
		if err2 := a.fc.SeekFrame(-1, 0, astiav.NewSeekFlags(astiav.SeekFlagByte)); err2 != nil {
			return a.ioError(fmt.Sprintf("seek to %.3fs in", seconds), err)
		}
	}
	if err := avx.FlushBuffers(a.cc); err != nil {
		return fmt.Errorf("decode: seek audio %s: %w", a.url, err)
	}
	if a.swr != nil {
		a.swr.Free()
		a.swr, a.swrReady = nil, false
	}
	a.inputDone, a.drained, a.flushed, a.hasNext, a.errRun = false, false, false, false, 0
	a.skipUntil, a.skipping = seconds, true
	return nil
}

// Interrupt makes a blocking demuxer call return ErrInterrupted, now and from then on. It may be
// called from any goroutine; it must not race with Close.
func (a *AudioDecoder) Interrupt() { a.input.interrupt() }

// Close frees the decoder.
func (a *AudioDecoder) Close() error {
	if a.closed {
		return nil
	}
	a.closed = true
	if a.swr != nil {
		a.swr.Free()
	}
	for _, f := range []*astiav.Frame{a.recv, a.out} {
		if f != nil {
			f.Free()
		}
	}
	if a.pkt != nil {
		a.pkt.Free()
	}
	if a.cc != nil {
		a.cc.Free()
	}
	a.input.close()
	a.log.close() // what FFmpeg said since the last summary
	return nil
}
