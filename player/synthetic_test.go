package player

import (
	"math"

	"github.com/ycbcrkit/ycbcrkit/decode"
	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/testvectors/synth"
)

// Synthetic is a Source of generated frames (a moving pattern): the player's tests play it where
// a file would only add the decoder.
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
	f := &Frame{Frame: &decode.Frame{Picture: pic, PTS: float64(s.n) / s.FPS, Color: s.Color}}
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
