package main

import (
	"github.com/ycbcrkit/ycbcrkit/decode"
	"github.com/ycbcrkit/ycbcrkit/gpu"
	"github.com/ycbcrkit/ycbcrkit/player"
)

// UseDevice reopens the decoder on the player's device with -hwdec's mode.
func (s *decoderSource) UseDevice(dev *gpu.Device) error { return s.d.UseVulkan(dev, s.hwdec) }

// Decoding reports the decoder, whether Vulkan Video decodes and why not, and what downloads copy.
func (s *decoderSource) Decoding() player.Decoding {
	h := s.d.HW()
	d := player.Decoding{Decoder: h.Decoder, HWDec: "no", Reason: h.Reason}
	if h.Active {
		d.HWDec = "vulkan"
		if n := s.hwFrames.Load(); n > 0 {
			d.CPUBytesPerFrame = int(s.hwBytes.Load() / n)
		}
	}
	return d
}

// hwNext turns a hardware frame into one the player uploads: downloaded (-hwdec-route download).
func (s *decoderSource) hwNext(f *decode.Frame) (*decode.Frame, error) {
	dl, err := f.HW.Download()
	if err != nil {
		f.Release()
		return nil, err
	}
	dl.PTS, dl.Duration, dl.Field, dl.Color, dl.Tagged = f.PTS, f.Duration, f.Field, f.Color, f.Tagged
	dl.SampleAspect, dl.Orient, dl.Damaged = f.SampleAspect, f.Orient, f.Damaged
	dl.Picture.Width, dl.Picture.Height = f.Picture.Width, f.Picture.Height
	f.Release()
	n := 0
	for _, p := range dl.Picture.Planes {
		n += len(p)
	}
	s.hwBytes.Add(int64(n))
	s.hwFrames.Add(1)
	return dl, nil
}
