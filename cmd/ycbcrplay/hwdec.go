package main

import (
	"github.com/ycbcrkit/ycbcrkit/decode"
	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/gpu"
	"github.com/ycbcrkit/ycbcrkit/player"
	"github.com/ycbcrkit/ycbcrkit/stream"
)

// UseDevice reopens the decoder on the player's device with -hwdec's mode; with -hwdec upload
// the decoder stays in software and the uploader is made on the device.
func (s *decoderSource) UseDevice(dev *gpu.Device) error {
	if !s.upload {
		return s.d.UseVulkan(dev, s.hwdec)
	}
	up, err := decode.NewUploader(dev)
	if err != nil {
		return err
	}
	up.Pad = s.d.CodedSize // padded as Vulkan Video's frames would be: the routes choose alike
	s.up = up
	return nil
}

// Decoding reports the decoder, whether Vulkan Video decodes and why not, or that pictures are
// uploaded into Vulkan frames, and what downloads or uploads copy on the CPU.
func (s *decoderSource) Decoding() player.Decoding {
	h := s.d.HW()
	d := player.Decoding{Decode: stream.Decode{Decoder: h.Decoder, HW: h.Active, Upload: s.upload, Reason: h.Reason}}
	if s.upload {
		d.Reason = "-hwdec upload"
	}
	if n := s.hwFrames.Load(); n > 0 && d.Frames() {
		d.CPUBytesPerFrame = int(s.hwBytes.Load() / n)
	}
	return d
}

// uploadNext puts a software frame into one of FFmpeg's Vulkan frames (-hwdec upload). The copy
// counted is the uploader's own into a frame of FFmpeg's layout; FFmpeg's transfer to the GPU
// (av_hwframe_transfer_data, through a staging buffer) comes on top.
func (s *decoderSource) uploadNext(f *decode.Frame) (*decode.Frame, error) {
	defer f.Release()
	hf, err := s.up.UploadFrame(f)
	if err != nil {
		return nil, err
	}
	s.count(f.Picture)
	return hf, nil
}

// count adds a picture's bytes copied on the CPU (a download or an upload) to what Decoding
// reports; Next counts the frame.
func (s *decoderSource) count(pic *formats.Frame) {
	n := 0
	for i, p := range pic.Format.Planes {
		w, h := pic.Format.PlaneSize(i, pic.Width, pic.Height)
		n += w * h * p.BytesPerTexel
	}
	s.hwBytes.Add(int64(n))
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
	s.count(dl.Picture)
	return dl, nil
}
