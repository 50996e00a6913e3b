package player

import "github.com/ycbcrkit/ycbcrkit/gpu"

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
	// Route is how hardware frames reach the conversion; CPUBytesPerFrame what that copies on the
	// CPU per frame.
	Route            string
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

// hwRoute is the route hardware frames took: the source's own (a download), or the renderer's (in
// place, GPU copy) with its reason.
func (p *Player) hwRoute(d Decoding) string {
	if d.Route != "" || p.rend == nil || p.rend.HWRouteTaken == "" {
		return d.Route
	}
	return p.rend.HWRouteTaken + " (" + p.rend.HWRouteReason + ")"
}
