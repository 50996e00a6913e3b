package main

import (
	"errors"
	"fmt"
	"math"
	"sync/atomic"

	"github.com/ycbcrkit/ycbcrkit/decode"
	"github.com/ycbcrkit/ycbcrkit/player"
)

// decoderSource adapts a decode.Decoder to the player's Source.
type decoderSource struct {
	d     *decode.Decoder
	name  string
	hwdec decode.HWDec
	// download: hardware frames are copied to the CPU (-hwdec-route download), not handed to the
	// player in FFmpeg's image.
	download bool
	// upload: software pictures are put into FFmpeg's Vulkan frames (-hwdec upload) by up, made on
	// the player's device (UseDevice).
	upload bool
	up     *decode.Uploader
	// pipe: the input is a pipe (standard input), which cannot seek (CanSeek) unless cached: read
	// through the read-ahead cache (-cache-size), inside which it can. notify writes a notice.
	pipe, cached bool
	// live: the input is a live feed (decode.IsLive), reopened when it fails or ends.
	live   bool
	notify func(string)
	// Frames downloaded or uploaded and their bytes (hwdec.go), read by Decoding from the main thread.
	hwFrames, hwBytes atomic.Int64
	// pts is the latest decoded frame's PTS (math.Float64bits), for the -headless status line.
	pts atomic.Uint64
}

// position is the latest decoded frame's PTS in seconds: the status line's position (the player
// presents it a few frames later).
func (s *decoderSource) position() float64 { return math.Float64frombits(s.pts.Load()) }

func (s *decoderSource) Info() player.SourceInfo {
	i := s.d.Info()
	info := player.SourceInfo{Name: s.name, FrameRate: i.FrameRate.Float64(), Duration: i.Duration,
		Discontinuous: i.Discontinuous, Threads: s.d.Threads()}
	for _, c := range i.Chapters {
		info.Chapters = append(info.Chapters, player.Chapter{Title: c.Title, Start: c.Start, End: c.End})
	}
	return info
}

func (s *decoderSource) Next() (*player.Frame, error) {
	f, err := s.d.Next()
	if err != nil {
		return nil, err
	}
	copied := s.upload
	if s.upload {
		if f, err = s.uploadNext(f); err != nil {
			return nil, err
		}
	}
	if f.HW != nil && s.download {
		if f, err = s.hwNext(f); err != nil {
			return nil, err
		}
		copied = true
	}
	if copied {
		s.hwFrames.Add(1)
	}
	s.pts.Store(math.Float64bits(f.PTS))
	return &player.Frame{Frame: f}, nil
}

func (s *decoderSource) Seek(seconds float64) error {
	if s.pipe && !s.cached {
		return errors.New("a pipe cannot seek")
	}
	if !s.d.CanSeekTo(seconds) {
		// Outside what the read-ahead cache holds. Ahead, decoding gets there (a pipe can go
		// forward); behind, the input cannot go back: playback goes on from the next frame.
		if seconds > s.position() {
			return s.d.SkipTo(seconds)
		}
		s.notify(fmt.Sprintf("notice: %s cannot seek back to %.3f s: outside the read-ahead cache (-cache-size), and the input cannot go back; playing on", s.name, seconds))
		return nil
	}
	return s.d.Seek(seconds)
}

// CanSeek is false for a pipe read without the cache: the player then does not seek
// (player.SeekingSource).
func (s *decoderSource) CanSeek() bool   { return !s.pipe || s.cached }
func (s *decoderSource) Progress() int64 { return s.d.Progress() }

// Close closes the decoder, then the uploader (frames still out hold their own references).
func (s *decoderSource) Close() error {
	err := s.d.Close()
	if s.up != nil {
		s.up.Close()
		s.up = nil
	}
	return err
}

// Interrupt ends a read the decode goroutine is blocked in (a stalled pipe) when the player quits,
// so that q ends playback at once and the decoder can be closed (player's decoding.stop).
func (s *decoderSource) Interrupt() { s.d.Interrupt() }

// Live and Reopen make a live feed a player.LiveSource: the player reopens it when it fails or ends.
func (s *decoderSource) Live() bool    { return s.live }
func (s *decoderSource) Reopen() error { return s.d.Reopen() }
