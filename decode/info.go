package decode

import (
	"fmt"

	"github.com/asticode/go-astiav"

	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/internal/avx"
)

// Rational is a fraction such as a time base, a frame rate or a sample aspect ratio.
type Rational struct{ Num, Den int }

// Float64 is Num/Den, or 0 when Den is 0.
func (r Rational) Float64() float64 {
	if r.Den == 0 {
		return 0
	}
	return float64(r.Num) / float64(r.Den)
}

func (r Rational) String() string { return fmt.Sprintf("%d/%d", r.Num, r.Den) }

func rational(r astiav.Rational) Rational { return Rational{r.Num(), r.Den()} }

// Info describes the chosen video stream as the container and the codec parameters declare it.
// Frames carry their own size, format and colour, which may differ (mid-stream changes).
type Info struct {
	URL         string
	Container   string // demuxer name, e.g. "matroska,webm"
	StreamIndex int
	Codec       string // decoder name, e.g. "h264"
	Width       int
	Height      int
	// PixelFormat is the stream's declared pixel format (FFmpeg's name); "" when not known before
	// decoding. It may be one the toolkit does not support: see Decoder.Notices.
	PixelFormat string
	// Color is the stream-level metadata (codec parameters), unresolved: unspecified fields stay
	// unspecified. Frame.Color is the resolved per-frame value.
	Color formats.Color
	// SampleAspect is the pixel aspect ratio (1:1 when unknown).
	SampleAspect Rational
	// DisplayMatrix is the stream's display matrix (nil without one) and Orient how it turns the
	// picture for display (FFmpeg's autorotation); OrientNote says why a matrix was not applied.
	DisplayMatrix *[9]int32
	Orient        formats.Orientation
	OrientNote    string
	// FrameRate is FFmpeg's best guess (av_guess_frame_rate); 0/1 when unknown.
	FrameRate Rational
	TimeBase  Rational
	// Start is the stream's start time in seconds: the origin of Frame.PTS (0 when unknown). Other
	// streams of the input (AudioOptions.Origin) are put on the video's clock with it.
	Start float64
	// Duration in seconds; 0 when unknown.
	Duration float64
	// Frames is the container's frame count; 0 when unknown.
	Frames int64
	// Threads is the decoder's thread count.
	Threads int
	// Deinterlaced: frames go through bwdif (decode.Options.Deinterlace); the frame rate is doubled.
	Deinterlaced bool
	// Discontinuous: the container format declares that timestamps may jump (AVFMT_TS_DISCONT,
	// e.g. MPEG-TS), so a player treats a jump as a new timeline rather than a pause.
	Discontinuous bool
	// Chapters are the container's chapters, on Frame.PTS's clock (from the video stream's start).
	Chapters []Chapter
}

// Chapter is one chapter of the input: where it starts and ends (seconds, on Frame.PTS's clock)
// and its title ("" when the container gives none).
type Chapter struct {
	Title      string
	Start, End float64
}

// Info returns the stream description gathered by Open.
func (d *Decoder) Info() Info {
	d.infoMu.Lock()
	defer d.infoMu.Unlock()
	return d.info
}

func (d *Decoder) fillInfo(codec *astiav.Codec) {
	st, cp := d.st, d.st.CodecParameters()
	info := Info{
		URL:         d.url,
		Container:   avx.FormatName(d.fc),
		StreamIndex: d.stIdx,
		Codec:       codec.Name(),
		Width:       cp.Width(),
		Height:      cp.Height(),
		Color: formats.Color{
			Matrix:         formats.Matrix(cp.ColorSpace()),
			Range:          formats.Range(cp.ColorRange()),
			ChromaLocation: formats.ChromaLocation(cp.ChromaLocation()),
			Primaries:      formats.Primaries(cp.ColorPrimaries()),
			Transfer:       formats.Transfer(cp.ColorTransferCharacteristic()),
		},
		SampleAspect: sampleAspect(rational(d.fc.GuessSampleAspectRatio(st, nil))),
		FrameRate:    rational(d.fc.GuessFrameRate(st, nil)),
		TimeBase:     rational(st.TimeBase()),
		Frames:       st.NbFrames(),
		Threads:      d.opts.Threads,
		Start:        float64(d.start) * d.tb,
	}
	if pf := cp.PixelFormat(); pf != astiav.PixelFormatNone {
		info.PixelFormat = pf.Name()
	}
	info.DisplayMatrix, info.Orient, info.OrientNote = displayMatrix(cp)
	for _, ch := range avx.Chapters(d.fc) {
		info.Chapters = append(info.Chapters, Chapter{Title: ch.Title, Start: ch.Start - info.Start, End: ch.End - info.Start})
	}
	if info.FrameRate.Den == 0 {
		info.FrameRate = Rational{0, 1}
	}
	if dur := st.Duration(); dur > 0 && info.TimeBase.Den != 0 {
		info.Duration = float64(dur) * info.TimeBase.Float64()
	} else if dur := d.fc.Duration(); dur > 0 {
		info.Duration = float64(dur) / float64(astiav.TimeBase)
	}
	d.infoMu.Lock()
	d.info = info
	d.infoMu.Unlock()
}

// sampleAspect maps FFmpeg's "unknown" (0/x) to square pixels.
func sampleAspect(r Rational) Rational {
	if r.Num <= 0 || r.Den <= 0 {
		return Rational{1, 1}
	}
	return r
}
