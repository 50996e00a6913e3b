package player

import (
	"github.com/ycbcrkit/ycbcrkit/gpu"
	"github.com/ycbcrkit/ycbcrkit/stream"
)

// DeviceSource is a Source that can decode on the player's Vulkan device (Vulkan Video through
// FFmpeg's hwaccel), or put its pictures into FFmpeg's Vulkan frames there (decode.Uploader: its
// Decoding says Upload). With Config.GPU.Video or Frames the player opens its device first (with
// gpu.Options.Video or Frames) and calls UseDevice before the first Next; decoding then starts.
type DeviceSource interface {
	Source
	UseDevice(dev *gpu.Device) error
	// Decoding says how frames are decoded (for -stats and the info display).
	Decoding() Decoding
}

// Decoding is how a DeviceSource decodes: the stream's plan takes it as it is (stream.Plan.Decode).
type Decoding struct {
	stream.Decode
	// CPUBytesPerFrame is what the source copies on the CPU per frame on its way to the GPU: the
	// download of hardware frames (the stream's plan says which route: Config.Convert.HWRoute), or
	// the upload into Vulkan frames (Decode.Upload).
	CPUBytesPerFrame int
}

// hwdecName is -stats' hwdec: vulkan, upload or no (-hwdec's values).
func hwdecName(d stream.Decode) string {
	switch {
	case d.HW:
		return "vulkan"
	case d.Upload:
		return "upload"
	}
	return "no"
}

// applyDecoding puts the source's decoding into the stats.
func (p *Player) applyDecoding() {
	ds, ok := p.src.(DeviceSource)
	if !ok {
		return
	}
	d := ds.Decoding()
	p.stats.Decoder, p.stats.HWDec, p.stats.HWDecReason, p.stats.HWDecRoute = d.Decoder, hwdecName(d.Decode), d.Reason, p.hwRoute(d.Decode)
	p.stats.CPUBytesCopiedPerFrame += d.CPUBytesPerFrame
}

// hwRoute is the route pictures in Vulkan frames take, from the stream's plan (empty for other
// software pictures).
func (p *Player) hwRoute(d stream.Decode) string {
	if p.rend == nil || !d.Frames() {
		return ""
	}
	return p.rend.Stream.Plan().Route.String()
}

// decoding is how the source decodes, for the stream's plan (software when it cannot say).
func (p *Player) decoding() stream.Decode {
	ds, ok := p.src.(DeviceSource)
	if !ok {
		return stream.Decode{}
	}
	return ds.Decoding().Decode
}
