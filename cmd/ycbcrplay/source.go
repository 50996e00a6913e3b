package main

import (
	"sync/atomic"

	"github.com/ycbcrkit/ycbcrkit/decode"
	"github.com/ycbcrkit/ycbcrkit/player"
)

// decoderSource adapts a decode.Decoder to the player's Source.
type decoderSource struct {
	d     *decode.Decoder
	name  string
	hwdec decode.HWDec
	// Hardware frames downloaded and their bytes (hwdec.go), read by Decoding from the main thread.
	hwFrames, hwBytes atomic.Int64
}

func (s *decoderSource) Info() player.SourceInfo {
	i := s.d.Info()
	return player.SourceInfo{Name: s.name, FrameRate: i.FrameRate.Float64(), Duration: i.Duration,
		Discontinuous: i.Discontinuous}
}

func (s *decoderSource) Next() (*player.Frame, error) {
	f, err := s.d.Next()
	if err != nil {
		return nil, err
	}
	if f.HW != nil {
		if f, err = s.hwNext(f); err != nil {
			return nil, err
		}
	}
	pic := f.Picture
	aspect := float64(pic.Width) / float64(pic.Height)
	if sar := f.SampleAspect.Float64(); sar > 0 {
		aspect *= sar
	}
	return &player.Frame{Picture: pic, PTS: f.PTS, Color: f.Color, Aspect: aspect, Damaged: f.Damaged, Orient: f.Orient,
		Release: f.Release}, nil
}

func (s *decoderSource) Seek(seconds float64) error { return s.d.Seek(seconds) }
func (s *decoderSource) Progress() int64            { return s.d.Progress() }
func (s *decoderSource) Close() error               { return s.d.Close() }
