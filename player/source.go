package player

import (
	"sync/atomic"

	"github.com/ycbcrkit/ycbcrkit/decode"
	"github.com/ycbcrkit/ycbcrkit/stream"
)

// Frame is a decoded picture as the player holds it: the decoder's frame (its picture, timing,
// colour metadata and buffers; a hardware-decoded frame's image in HW), shared by the picture on
// screen (redraws, the screenshot) and the frame slots that read it until the GPU is done.
type Frame struct {
	*decode.Frame
	// holds counts the holders besides the first owner; each holder calls release once.
	holds int32
}

// hold adds a holder.
func (f *Frame) hold() { atomic.AddInt32(&f.holds, 1) }

// release drops one holder; the last one returns the decoder's buffers.
func (f *Frame) release() {
	if f == nil || atomic.AddInt32(&f.holds, -1) >= 0 {
		return
	}
	f.Frame.Release()
}

// aspect is the picture's display aspect ratio (the sample aspect ratio included).
func (f *Frame) aspect() float64 {
	a := float64(f.Picture.Width) / float64(f.Picture.Height)
	if sar := f.SampleAspect.Float64(); sar > 0 {
		a *= sar
	}
	return a
}

// fieldDuration is how long a deinterlaced field lasts (bwdif makes one frame per field: half a
// coded frame), 0 for a frame, which lasts what the stream's frame rate says. The player's frame
// duration (the lateness that drops a frame, the gap that makes a discontinuity) follows it.
func (f *Frame) fieldDuration() float64 {
	if f.Field {
		return f.Duration
	}
	return 0
}

// foreign is the hardware-decoded picture in FFmpeg's image, sampled in place or copied on the GPU
// (Config.Convert.HWRoute); nil when the planes are on the CPU.
func (f *Frame) foreign() stream.Foreign {
	if f.HW == nil {
		return nil
	}
	return f.HW.Foreign()
}

// SourceInfo describes a stream for titles and -stats.
type SourceInfo struct {
	Name      string
	FrameRate float64 // frames per second, 0 when unknown
	Duration  float64 // seconds, 0 when unknown
	// Discontinuous: the format declares that its timestamps may jump (MPEG-TS); see discontinuity.
	Discontinuous bool
	// Chapters are the input's chapters in order, on the frames' clock.
	Chapters []Chapter
	// Threads is how many frames the decoder works on at once (its frame threads; 0 or 1: one).
	Threads int
}

// Chapter is one chapter of the input: its title ("" without one) and where it starts and ends.
type Chapter struct {
	Title      string  `json:"title"`
	Start, End float64 `json:"-"`
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
// never asked to; the player's seeks (keys, Config.Playback.Start) then give one notice and playback goes on.
type SeekingSource interface {
	Source
	CanSeek() bool
}

// LiveSource is a Source that may be a live feed (decode.IsLive): when Live, the player's pump
// reopens it (Reopen, every 500 ms: pump.DefaultRetry) when it fails or ends, instead of ending
// playback, for as long as Config.Playback.Timeout and the stall watch allow; Player.Signal reads
// its state.
type LiveSource interface {
	Source
	Live() bool
	Reopen() error
}
