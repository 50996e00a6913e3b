package videotex

import (
	"errors"
	"fmt"
	"unsafe"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/decode"
	"github.com/ycbcrkit/ycbcrkit/gpu"
	"github.com/ycbcrkit/ycbcrkit/internal/vkx"
	"github.com/ycbcrkit/ycbcrkit/stream"
)

// VideoFeatures are the device features of hardware decoding: what FFmpeg's Vulkan decoding asks
// of a device it did not create (libavutil/hwcontext_vulkan.h, AVVulkanDeviceContext.device_features).
type VideoFeatures struct {
	SamplerYcbcrConversion bool // Vulkan 1.1
	TimelineSemaphore      bool // Vulkan 1.2
	HostQueryReset         bool // Vulkan 1.2, where offered (FFmpeg resets its decode queries with it)
	Synchronization2       bool // Vulkan 1.3
	VideoMaintenance1      bool // VK_KHR_video_maintenance1, where offered and validated (Withheld)
}

// HWDecode is what an engine enables on its device so that the texture decodes with Vulkan Video
// (FFmpeg 7.1's Vulkan hwaccel) on that device, or why the device cannot (Missing). It is data:
// HWRequirements fills it from the physical device, the engine creates its device with it and
// hands it back in EngineDevice.HWDecode.
type HWDecode struct {
	// Available: the device decodes at least one of H.264, HEVC and AV1 with what is listed below.
	Available bool
	// Missing says why not (empty when Available): lavapipe "the device does not offer
	// VK_KHR_video_decode_queue (no Vulkan Video decoding)".
	Missing string
	// APIVersion is the Vulkan version the instance (VkApplicationInfo.apiVersion) and the device
	// must have: 1.3.
	APIVersion uint32
	// Extensions are the device extensions to enable: VK_KHR_video_queue,
	// VK_KHR_video_decode_queue, the codecs' (only those the decode family decodes) and
	// VK_KHR_video_maintenance1 where offered and not Withheld.
	Extensions []string
	// DecodeFamily is the queue family with VK_QUEUE_VIDEO_DECODE_BIT_KHR; create DecodeQueues
	// queues of it (all of them: FFmpeg spreads its submissions over them). The engine hands them to
	// the texture: it never submits to them itself (FFmpeg locks them with the toolkit's lock).
	DecodeFamily uint32
	DecodeQueues uint32
	// Codecs are FFmpeg's names of what the decode family decodes: h264, hevc, av1.
	Codecs []string
	// Features are the features to enable (FeatureChain builds them). Where the device has no
	// decoding but is Vulkan 1.3, they are what FFmpeg's Vulkan frames need without decoding
	// (samplerYcbcrConversion, timelineSemaphore, synchronization2).
	Features VideoFeatures
	// Withheld says what the device offers and is left off, and why: VK_KHR_video_maintenance1
	// under a validation layer older than 1.3.274, which does not know its feature struct.
	Withheld string

	codecOps uint32 // VkVideoCodecOperationFlagsKHR of Codecs
}

// HWQuery tunes HWRequirements. The zero value is an instance without the validation layer.
type HWQuery struct {
	// Validation says the engine enables the Khronos validation layer on its instance: the
	// installed layer's version then decides whether VK_KHR_video_maintenance1 is listed.
	Validation bool
}

// HWRequirements says what to enable on physical, a device of instance, for hardware decoding.
// The instance's entry points are loaded as Requirements does. It fails only on unusable
// arguments; a device that cannot decode comes back with Available false and the reason.
func HWRequirements(instance vk.Instance, physical vk.PhysicalDevice, q HWQuery) (HWDecode, error) {
	h := HWDecode{APIVersion: vkx.APIVersion13}
	if instance == nil || physical == nil {
		return h, fmt.Errorf("videotex: hardware decoding requirements: instance and physical device must be set")
	}
	if err := vkx.Load(); err != nil {
		return h, fmt.Errorf("videotex: hardware decoding requirements: %w", err)
	}
	if err := vkx.LoadInstance(instance); err != nil {
		return h, fmt.Errorf("videotex: hardware decoding requirements: %w", err)
	}
	var layer uint32
	if q.Validation {
		layer = gpu.ValidationLayerVersion()
	}
	v := gpu.PlanVideo(instance, physical, layer)
	if !v.Enabled {
		h.Missing = v.Reason
		if p := vkx.ProbeVideo(physical, false, false); p.APIVersion >= vkx.APIVersion13 {
			h.Features = VideoFeatures{SamplerYcbcrConversion: p.Features.Ycbcr, TimelineSemaphore: p.Features.Timeline,
				Synchronization2: p.Features.Sync2}
		}
		return h, nil
	}
	h.Available, h.Extensions, h.Withheld = true, v.Extensions, v.Withheld
	h.DecodeFamily, h.DecodeQueues, h.codecOps = v.DecodeFamily, v.DecodeQueues, v.CodecOps
	h.Features = VideoFeatures{SamplerYcbcrConversion: v.Features.Ycbcr, TimelineSemaphore: v.Features.Timeline,
		HostQueryReset: v.Features.HostQueryReset, Synchronization2: v.Features.Sync2,
		VideoMaintenance1: v.Features.VideoMaintenance1}
	for _, c := range codecOps {
		if v.CodecOps&c.op != 0 {
			h.Codecs = append(h.Codecs, c.name)
		}
	}
	return h, nil
}

var codecOps = []struct {
	name string
	op   uint32
}{{"h264", vkx.CodecOpDecodeH264}, {"hevc", vkx.CodecOpDecodeH265}, {"av1", vkx.CodecOpDecodeAV1}}

// FeatureChain returns VkPhysicalDeviceVulkan11Features, VkPhysicalDeviceVulkan12Features and
// VkPhysicalDeviceVulkan13Features (and VkPhysicalDeviceVideoMaintenance1FeaturesKHR when it is
// enabled) with h.Features on, in C memory, for VkDeviceCreateInfo.pNext; next is chained after
// them (nil or C memory). It replaces DeviceRequirements.FeatureChain: samplerYcbcrConversion is in
// the Vulkan 1.1 struct, and the two must not both be in one chain. Call free once vkCreateDevice
// has returned.
func (h HWDecode) FeatureChain(next unsafe.Pointer) (pNext unsafe.Pointer, free func()) {
	f := h.Features
	return vkx.VideoFeatureChain(vkx.VideoFeatures{Timeline: f.TimelineSemaphore, Sync2: f.Synchronization2,
		Ycbcr: f.SamplerYcbcrConversion, VideoMaintenance1: f.VideoMaintenance1, HostQueryReset: f.HostQueryReset}, next)
}

// video is h as the toolkit's device description for FFmpeg.
func (h HWDecode) video() gpu.Video {
	f := h.Features
	v := gpu.Video{Enabled: h.Available, Reason: h.Missing, DecodeFamily: h.DecodeFamily, DecodeQueues: h.DecodeQueues,
		Features: vkx.VideoFeatures{Timeline: f.TimelineSemaphore, Sync2: f.Synchronization2, Ycbcr: f.SamplerYcbcrConversion,
			VideoMaintenance1: f.VideoMaintenance1, HostQueryReset: f.HostQueryReset},
		Extensions: h.Extensions, Withheld: h.Withheld}
	for _, c := range codecOps {
		for _, n := range h.Codecs {
			if n == c.name {
				v.CodecOps |= c.op
			}
		}
	}
	return v
}

// Decoding is how a texture's pictures are decoded and how they reach its images: read from the
// frame plan of the stream under the texture (stream.Plan), as its latest configuration decided
// it and its latest picture completed it; videotex keeps no account of its own. An open texture
// has decoded a picture, so its Decoding is never the zero value.
type Decoding struct {
	// Decode is FFmpeg's decoder ("hevc (vulkan)" while Vulkan Video decodes), whether Vulkan
	// Video decodes (HW) and, when not, why: the engine's device (EngineDevice.HWDecode,
	// QueueLock or InternallySynchronizedQueues, Options.HWDec) or the decoder (codec, profile).
	Decode stream.Decode
	// Route is how the latest picture that came as one of FFmpeg's Vulkan frames reached the
	// texture's image, and why: always stream.RouteCopy, one GPU copy per plane (the package
	// documentation says why not in place); stream.RouteNone while every picture was decoded in
	// software.
	Route stream.RouteStep
}

// String is d in one line, for logs and overlays: "hevc (vulkan), GPU copy (why)", or
// "h264 (software: why)".
func (d Decoding) String() string {
	if r := d.Route.String(); r != "" {
		return d.Decode.String() + ", " + r
	}
	return d.Decode.String()
}

// routeCopy is why the texture asks for the GPU copy, which the plan records.
const routeCopy = "the engine samples in its own later submission: sampling FFmpeg's image in place " +
	"would keep it, a reference picture of later decoding, from FFmpeg until the engine's fence"

// Decoding reports how the stream is decoded, from its plan.
func (t *Texture) Decoding() Decoding {
	t.mu.Lock()
	defer t.mu.Unlock()
	p := t.st.Plan()
	return Decoding{Decode: p.Decode, Route: p.Route}
}

// decoding is how the decoder decodes, for the stream's plan: the decoder's own account
// (decode.Decoder.HW), where the decision is made (decode/hw.go), the engine's device included.
func (t *Texture) decoding() stream.Decode {
	h := t.dec.HW()
	return stream.Decode{Decoder: h.Decoder, HW: h.Active, Reason: h.Reason}
}

// hwDevice describes the engine's device to the decoder, which decides hardware decoding on it
// (decode/hw.go): the Vulkan Video it was created with (EngineDevice.HWDecode), off where the
// engine did not create it for that, or lends no queue lock, and why.
func (t *Texture) hwDevice() (decode.Options, error) {
	ed := t.ed
	o := t.opts.Decode
	o.Vulkan, o.HWDec, o.HWDecName = t.dev, t.opts.HWDec, "Options.HWDec"
	if ed.HWDecode != nil {
		t.dev.Video = ed.HWDecode.video()
		for _, e := range ed.HWDecode.Extensions {
			t.dev.Extensions[e] = true
		}
	}
	locks := queueLocksOf(ed)
	// FFmpeg's lock_queue (decode.vulkanDevice) and the wrap's one-time submissions take these.
	t.dev.QueueLock, t.dev.InternallySynchronized = locks.FFmpeg, locks.FFmpegNone
	reason := ""
	switch {
	case ed.HWDecode == nil:
		reason = "the engine's device was not created for it (EngineDevice.HWDecode is nil)"
		if t.opts.HWDec != decode.HWDecNo {
			if h, err := HWRequirements(ed.Instance, ed.Physical, HWQuery{}); err == nil && !h.Available {
				reason += "; and the device cannot: " + h.Missing
			}
		}
	case !ed.HWDecode.Available:
		reason = ed.HWDecode.Missing
	case locks.HWReason != "":
		reason = locks.HWReason
	}
	if reason != "" {
		t.dev.Video.Enabled, t.dev.Video.Reason = false, reason
	}
	return o, nil
}

// errNoHW is the error of a hardware frame the texture cannot take.
var errNoHW = errors.New("videotex: hardware frame")

// dropHW releases p's hardware frame, if any (FFmpeg may reuse its image from then on).
func (p *picture) dropHW() {
	if p.hw != nil {
		p.hw.Release()
		p.hw = nil
	}
}
