package player

import (
	"math"
	"sync/atomic"

	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/stream"
	"github.com/ycbcrkit/ycbcrkit/testvectors/synth"
)

// Frame is one decoded picture with what the player needs to show it.
type Frame struct {
	Picture *formats.Frame
	PTS     float64       // seconds
	Color   formats.Color // resolved: nothing unspecified
	Aspect  float64       // display aspect ratio (sample aspect ratio included)
	Damaged bool
	// Orient is how the stream's display matrix turns the picture (identity without one).
	Orient formats.Orientation
	// Duration, when not 0, is how long the frame lasts where the stream's frame rate says otherwise:
	// a deinterlaced field (bwdif, one frame per field) lasts half a coded frame. The player's frame
	// duration (the lateness that drops a frame, the gap that makes a discontinuity) follows it.
	Duration float64
	Release  func() // returns the decoder's buffers; nil when there is nothing to return
	// HW, if set, holds the picture: a hardware-decoded frame in FFmpeg's image (Picture has its
	// format and size, no planes), sampled in place or copied on the GPU (Config.HWRoute).
	HW stream.Foreign
	// holds counts the holders besides the first owner: the player keeps the frame on screen (for
	// redraws and the screenshot) while a frame slot keeps it until the GPU is done reading it.
	holds int32
}

// hold adds a holder; each holder calls release once.
func (f *Frame) hold() { atomic.AddInt32(&f.holds, 1) }

// release drops one holder; the last one returns the buffers.
func (f *Frame) release() {
	if f == nil || atomic.AddInt32(&f.holds, -1) >= 0 {
		return
	}
	if f.Release != nil {
		f.Release()
		f.Release = nil
	}
}

// SourceInfo describes a stream for titles and -stats.
type SourceInfo struct {
	Name      string
	FrameRate float64 // frames per second, 0 when unknown
	Duration  float64 // seconds, 0 when unknown
	// Discontinuous: the format declares that its timestamps may jump (MPEG-TS); see discontinuity.
	Discontinuous bool
}

// Source produces frames in presentation order. Next returns io.EOF at the end.
type Source interface {
	Info() SourceInfo
	Next() (*Frame, error)
	Seek(seconds float64) error
	Close() error
}

// ProgressSource is a Source that can tell, from any goroutine, that it is working (a count that
// grows while it reads or decodes). The player then waits as long as it grows: a seek that decodes
// far from a key frame is not a stall.
type ProgressSource interface {
	Source
	Progress() int64
}

// SeekingSource is a Source that can tell whether it can seek at all: one that cannot (a pipe) is
// never asked to; the player's seeks (keys, Config.Start) then give one notice and playback goes on.
type SeekingSource interface {
	Source
	CanSeek() bool
}

// Synthetic is a Source of generated frames (a moving pattern), for demos and GPU machines without
// FFmpeg.
type Synthetic struct {
	Format        *formats.PixelFormat
	Width, Height int
	Count         int // frames; 0 = endless
	FPS           float64
	Color         formats.Color
	n             int
}

// Info names the source.
func (s *Synthetic) Info() SourceInfo {
	return SourceInfo{Name: "synthetic " + s.Format.Name, FrameRate: s.FPS, Duration: float64(s.Count) / s.FPS}
}

// Next makes the next frame.
func (s *Synthetic) Next() (*Frame, error) {
	if s.Count > 0 && s.n >= s.Count {
		return nil, errEOF
	}
	pic, err := synth.Moving(s.Format, s.Width, s.Height, s.n)
	if err != nil {
		return nil, err
	}
	f := &Frame{Picture: pic, PTS: float64(s.n) / s.FPS, Color: s.Color, Aspect: float64(s.Width) / float64(s.Height)}
	s.n++
	return f, nil
}

// Seek moves to the first frame at or after seconds, as decode.Decoder.Seek does (a millionth of a
// frame absorbs float rounding).
func (s *Synthetic) Seek(seconds float64) error {
	s.n = max(0, int(math.Ceil(seconds*s.FPS-1e-6)))
	if s.Count > 0 {
		s.n = min(s.n, s.Count)
	}
	return nil
}

// Close does nothing.
func (s *Synthetic) Close() error { return nil }
