package subtitle

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/asticode/go-astiav"

	"github.com/ycbcrkit/ycbcrkit/internal/ass"
	"github.com/ycbcrkit/ycbcrkit/internal/avx"
)

// Extensions are the external subtitle files looked for beside an input (mpv's sub-auto=exact: the
// same base name, one of these extensions).
var Extensions = []string{".srt", ".ass", ".ssa", ".vtt"}

// Beside lists the subtitle files next to input with its base name: clip.mkv → clip.srt, clip.ass...
func Beside(input string) []string {
	base := strings.TrimSuffix(input, filepath.Ext(input))
	var out []string
	for _, ext := range Extensions {
		p := base + ext
		if p == input {
			continue
		}
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
			out = append(out, p)
		}
	}
	return out
}

// file is one input read for its subtitles: a demuxer of its own that reads only subtitle streams,
// and a decoder per stream.
type file struct {
	path    string
	fc      *astiav.FormatContext
	opened  bool
	intr    *avx.Interrupter // bounds (timeout) and ends (Abort) each blocking call
	timeout time.Duration
	fd      int // a named pipe's descriptor, read as pipe:fd; else -1
	pkt     *astiav.Packet
	decs    map[int]*streamDecoder // by stream index
	origin  float64                // seconds subtracted from the file's times
}

type streamDecoder struct {
	cc    *astiav.CodecContext
	track *track
	tb    astiav.Rational
}

// openFile opens path and makes a track (with a decoder when FFmpeg has one) per subtitle stream.
// timeout bounds each blocking call (≤ 0: none); stop ends the open's waits.
func openFile(path string, external bool, origin float64, lib *ass.Lib, timeout time.Duration, stop <-chan struct{}) (*file, []*track, error) {
	f := &file{path: path, decs: map[int]*streamDecoder{}, origin: origin, timeout: timeout, fd: -1}
	url := path
	if avx.IsFIFO(path) {
		// FFmpeg's file protocol would wait in open(2) for a writer, for ever and deaf to the
		// interrupt callback; the pipe protocol reads the descriptor OpenFIFO opened.
		u, fd, err := avx.OpenFIFO(path, stop, timeout)
		if errors.Is(err, avx.ErrNoWriter) {
			return nil, nil, fmt.Errorf("subtitle: open %s: timed out after %s waiting for the named pipe's writer", path, timeout)
		} else if err != nil {
			return nil, nil, fmt.Errorf("subtitle: open %s: %w", path, err)
		}
		url, f.fd = u, fd
	}
	var err error
	if f.intr, err = avx.NewInterrupter(); err != nil {
		f.close()
		return nil, nil, fmt.Errorf("subtitle: open %s: %w", path, err)
	}
	if f.fc = astiav.AllocFormatContext(); f.fc == nil {
		f.close()
		return nil, nil, errors.New("subtitle: cannot allocate a format context")
	}
	if err := f.intr.Install(f.fc); err != nil {
		f.close()
		return nil, nil, fmt.Errorf("subtitle: open %s: %w", path, err)
	}
	// A stop while the input opens aborts it; the watcher has ended before open returns, so that it
	// cannot touch the interrupter that a failed open frees (close) — with both channels ready,
	// select may pick either.
	opening, watched, intr := make(chan struct{}), make(chan struct{}), f.intr
	go func() {
		defer close(watched)
		select {
		case <-stop:
			intr.Abort()
		case <-opening:
		}
	}()
	f.intr.Arm(timeout)
	err = f.fc.OpenInput(url, nil, nil)
	close(opening)
	<-watched
	if err != nil {
		err = f.ioError(err)
		f.close()
		return nil, nil, fmt.Errorf("subtitle: open %s: %w", path, err)
	}
	f.opened = true
	// Text demuxers (SubRip, ASS, WebVTT...) read the whole file at open and take a read that the
	// interrupter ended for its end: a file cut short is an error, not a shorter track.
	if f.intr.TimedOut() || f.intr.Aborted() {
		err = f.ioError(nil)
		f.close()
		return nil, nil, fmt.Errorf("subtitle: open %s: %w", path, err)
	}
	// No avformat_find_stream_info: the containers that carry subtitles declare their streams and
	// codecs in their headers (Matroska, MP4, MPEG-TS's PMT), and probing would read into the file
	// before the first picture shows.
	var tracks []*track
	for _, st := range f.fc.Streams() {
		cp := st.CodecParameters()
		if cp.MediaType() != astiav.MediaTypeSubtitle {
			continue
		}
		t := &track{Track: Track{
			Codec: avx.CodecName(cp.CodecID()), Title: tag(st, "title"), Lang: tag(st, "language"),
			Default:  st.DispositionFlags().Has(astiav.DispositionFlagDefault),
			Forced:   st.DispositionFlags().Has(astiav.DispositionFlagForced),
			External: external,
		}}
		if external {
			t.Path = path
		}
		t.Image = bitmapCodec(cp.CodecID())
		tracks = append(tracks, t)
		dec, err := openDecoder(st)
		if err != nil {
			t.err = err
			continue
		}
		f.decs[st.Index()] = dec
		dec.track = t
		if !t.Image {
			t.startText(lib, avx.SubtitleHeader(dec.cc))
		}
	}
	if len(f.decs) == 0 {
		f.close()
		return nil, tracks, nil
	}
	if err := avx.KeepStreams(f.fc, func(i int) bool { return f.decs[i] != nil }); err != nil {
		f.close()
		return nil, nil, err
	}
	f.pkt = astiav.AllocPacket()
	return f, tracks, nil
}

func tag(st *astiav.Stream, key string) string {
	md := st.Metadata() // nil for a stream without tags
	if md == nil {
		return ""
	}
	if e := md.Get(key, nil, 0); e != nil {
		return e.Value()
	}
	return ""
}

// bitmapCodec reports whether id is a bitmap subtitle format.
func bitmapCodec(id astiav.CodecID) bool {
	switch id {
	case astiav.CodecIDHdmvPgsSubtitle, astiav.CodecIDDvbSubtitle, astiav.CodecIDDvdSubtitle, astiav.CodecIDXsub:
		return true
	}
	return false
}

func openDecoder(st *astiav.Stream) (*streamDecoder, error) {
	cp := st.CodecParameters()
	codec := astiav.FindDecoder(cp.CodecID())
	if codec == nil {
		return nil, fmt.Errorf("subtitle: no decoder for %s", avx.CodecName(cp.CodecID()))
	}
	cc := astiav.AllocCodecContext(codec)
	if cc == nil {
		return nil, errors.New("subtitle: cannot allocate a codec context")
	}
	err := cp.ToCodecContext(cc)
	if err == nil {
		err = avx.SetPacketTimeBase(cc, st.TimeBase())
	}
	if err == nil {
		err = cc.Open(codec, nil)
	}
	if err != nil {
		cc.Free()
		return nil, fmt.Errorf("subtitle: open the %s decoder: %w", avx.CodecName(cp.CodecID()), err)
	}
	return &streamDecoder{cc: cc, tb: st.TimeBase()}, nil
}

// read reads every packet of the file's subtitle streams into their tracks, until the end, an error
// or stop; lock guards the tracks.
func (f *file) read(stop <-chan struct{}, lock func() func(), log func(string, ...any)) {
	for {
		select {
		case <-stop:
			return
		default:
		}
		f.intr.Arm(f.timeout)
		if err := f.fc.ReadFrame(f.pkt); err != nil {
			if !errors.Is(err, astiav.ErrEof) && !f.intr.Aborted() { // aborted: Close
				log("subtitles: reading %s: %v", f.path, f.ioError(err))
			}
			return
		}
		if d := f.decs[f.pkt.StreamIndex()]; d != nil {
			sub, err := avx.DecodeSubtitle(d.cc, f.pkt)
			if err != nil {
				log("subtitles: %s: %v", f.path, err)
			} else if sub != nil {
				pts := float64(sub.PTS) / 1e6
				if sub.PTS == avx.NoPTS {
					pts = float64(f.pkt.Pts()) * d.tb.Float64()
				}
				dur := sub.End - sub.Start
				if sub.End == 0 && f.pkt.Duration() > 0 {
					dur = time.Duration(float64(f.pkt.Duration()) * d.tb.Float64() * float64(time.Second))
				}
				if sub.End == 0 && !d.track.Image && dur <= 0 {
					dur = 5 * time.Second // a text event must end: libass needs a duration
				}
				start := pts - f.origin + sub.Start.Seconds()
				unlock := lock()
				d.track.add(sub, start, dur, d.cc.Width(), d.cc.Height())
				unlock()
			}
		}
		f.pkt.Unref()
	}
}

func (f *file) close() {
	for _, d := range f.decs {
		d.cc.Free()
	}
	f.decs = nil
	if f.pkt != nil {
		f.pkt.Free()
		f.pkt = nil
	}
	if f.fc != nil {
		if f.opened {
			f.fc.CloseInput()
		}
		f.fc.Free()
		f.fc = nil
	}
	if f.intr != nil {
		f.intr.Free()
		f.intr = nil
	}
	if f.fd >= 0 {
		syscall.Close(f.fd) // the pipe protocol leaves it open
		f.fd = -1
	}
}

// ioError says why a blocking call ended when the interrupter ended it, rather than FFmpeg's
// "Immediate exit requested".
func (f *file) ioError(err error) error {
	switch {
	case f.intr.TimedOut():
		return fmt.Errorf("timed out after %s", f.timeout)
	case f.intr.Aborted():
		return errors.New("stopped")
	}
	return err
}

// seconds as a Duration, rounded.
func seconds(s float64) time.Duration { return time.Duration(math.Round(s * float64(time.Second))) }
