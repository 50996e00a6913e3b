package player

import (
	"github.com/ycbcrkit/ycbcrkit/gpu"
	"github.com/ycbcrkit/ycbcrkit/stream"
)

// DeviceSource is a Source that can decode on the player's Vulkan device (Vulkan Video through
// FFmpeg's hwaccel). With Config.GPU.Video the player opens its device first (with gpu.Options.Video)
// and calls UseDevice before the first Next; decoding then starts.
type DeviceSource interface {
	Source
	UseDevice(dev *gpu.Device) error
	// Decoding says how frames are decoded (for -stats and the info display).
	Decoding() Decoding
}

// FramesSource is a DeviceSource that puts its pictures into FFmpeg's Vulkan frames without
// decoding on the device (decode.Uploader): the player then opens its device with what those frames
// need (gpu.Options.Frames), so that the hardware routes run on devices without Vulkan Video
// (lavapipe, in tests).
type FramesSource interface {
	DeviceSource
	VulkanFrames() bool
}

// Decoding is how a DeviceSource decodes.
type Decoding struct {
	Decoder string // FFmpeg's decoder, "hevc (vulkan)" under Vulkan Video
	HWDec   string // "vulkan" or "no"
	Reason  string // why software, when HWDec is "no"
	// CPUBytesPerFrame is what the route of hardware frames copies on the CPU per frame (the
	// stream's plan says which route: Config.HWRoute).
	CPUBytesPerFrame int
}

// applyDecoding puts the source's decoding into the stats.
func (p *Player) applyDecoding() {
	ds, ok := p.src.(DeviceSource)
	if !ok {
		return
	}
	d := ds.Decoding()
	p.stats.Decoder, p.stats.HWDec, p.stats.HWDecReason, p.stats.HWDecRoute = d.Decoder, d.HWDec, d.Reason, p.hwRoute(d)
	p.stats.CPUBytesCopiedPerFrame += d.CPUBytesPerFrame
}

// hwRoute is the route hardware frames take, from the stream's plan (empty in software).
func (p *Player) hwRoute(d Decoding) string {
	if p.rend == nil || d.HWDec != "vulkan" {
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
	d := ds.Decoding()
	return stream.Decode{Decoder: d.Decoder, HW: d.HWDec == "vulkan", Reason: d.Reason}
}
