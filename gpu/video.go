package gpu

import (
	"fmt"
	"strings"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/internal/vkx"
)

// Device extensions of Vulkan Video decoding (Vulkan spec, "Video Coding"; FFmpeg's
// hwcontext_vulkan.c enables the same on the devices it creates).
const (
	ExtVideoQueue        = "VK_KHR_video_queue"
	ExtVideoDecodeQueue  = "VK_KHR_video_decode_queue"
	ExtVideoDecodeH264   = "VK_KHR_video_decode_h264"
	ExtVideoDecodeH265   = "VK_KHR_video_decode_h265"
	ExtVideoDecodeAV1    = "VK_KHR_video_decode_av1"
	ExtVideoMaintenance1 = "VK_KHR_video_maintenance1"
)

// Video is what a Device offers for Vulkan Video decoding by FFmpeg on the same device: the decode
// queue family, the video extensions and the features enabled, or why it offers none.
type Video struct {
	// Enabled is true when the device was created with a decode queue family, VK_KHR_video_queue,
	// VK_KHR_video_decode_queue, at least one codec extension, Vulkan 1.3, timelineSemaphore,
	// synchronization2 and samplerYcbcrConversion.
	Enabled bool
	// Reason says why decoding is not offered (empty when Enabled).
	Reason string
	// DecodeFamily is the queue family with VK_QUEUE_VIDEO_DECODE_BIT_KHR; DecodeQueues queues of it
	// were created (FFmpeg spreads decode submissions over them).
	DecodeFamily uint32
	DecodeQueues uint32
	// CodecOps is the family's VkVideoCodecOperationFlagsKHR, limited to the codec extensions enabled.
	CodecOps uint32
	// Features is the feature chain the device was created with.
	Features vkx.VideoFeatures
	// Extensions are the device extensions enabled for decoding.
	Extensions []string
	// Withheld says what the device offers but was left off, and why (empty when nothing was).
	Withheld string
}

// layerKnowsVideoMaintenance1 is the first Vulkan header version whose validation layer knows
// VK_KHR_video_maintenance1's feature struct (VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VIDEO_MAINTENANCE_1_-
// FEATURES_KHR = 1000515000): the extension was published with the 1.3.274 specification update
// (December 2023). An older layer (Debian 12's is 1.3.239) reports the struct in vkCreateDevice's
// chain as unknown (VUID-VkDeviceCreateInfo-pNext-pNext), which a validated run treats as a failure.
var layerKnowsVideoMaintenance1 = vk.MakeVersion(1, 3, 274)

// Codec reports whether the device decodes codec (FFmpeg's name: h264, hevc, av1), and if not why.
func (v Video) Codec(codec string) (bool, string) {
	if !v.Enabled {
		return false, v.Reason
	}
	op, ext := uint32(0), ""
	switch codec {
	case "h264":
		op, ext = vkx.CodecOpDecodeH264, ExtVideoDecodeH264
	case "hevc":
		op, ext = vkx.CodecOpDecodeH265, ExtVideoDecodeH265
	case "av1":
		op, ext = vkx.CodecOpDecodeAV1, ExtVideoDecodeAV1
	default:
		return false, fmt.Sprintf("FFmpeg 7.1 has no Vulkan hwaccel for %s", codec)
	}
	if v.CodecOps&op == 0 {
		return false, fmt.Sprintf("the device's decode queue family does not decode %s (no %s)", codec, ext)
	}
	return true, ""
}

// videoMaintenance1 decides whether to enable VK_KHR_video_maintenance1 where the device offers it,
// under the validation layer of specVersion layerSpec (0: none); when not, it says why.
func videoMaintenance1(offered bool, layerSpec uint32) (bool, string) {
	if offered && layerSpec != 0 && layerSpec < layerKnowsVideoMaintenance1 {
		return false, fmt.Sprintf("%s (the validation layer is %s; it validates that extension from 1.3.274 on)",
			ExtVideoMaintenance1, apiString(layerSpec))
	}
	return offered, ""
}

// planVideo decides what decoding needs on pd and whether pd offers it. The extensions come back
// to be enabled with the features; a device without decoding gets a reason and nothing to enable.
//
// layerSpec is the validation layer's specVersion (0 without validation): VK_KHR_video_maintenance1
// is optional for FFmpeg 7.1 (it uses it only when enabled, hwcontext_vulkan.c), so it is left off
// under a layer too old to validate it rather than hiding the layer's message: validation stays
// complete for everything enabled.
func planVideo(inst vk.Instance, instVersion uint32, pd vk.PhysicalDevice, have map[string]bool, layerSpec uint32) Video {
	if instVersion < vkx.APIVersion13 {
		return Video{Reason: fmt.Sprintf("the Vulkan loader is %s; Vulkan Video decoding through FFmpeg needs 1.3", apiString(instVersion))}
	}
	if !have[ExtVideoQueue] || !have[ExtVideoDecodeQueue] {
		return Video{Reason: fmt.Sprintf("the device does not offer %s (no Vulkan Video decoding)", ExtVideoDecodeQueue)}
	}
	vm1, withheld := videoMaintenance1(have[ExtVideoMaintenance1], layerSpec)
	p := vkx.ProbeVideo(pd, true, vm1)
	if p.APIVersion < vkx.APIVersion13 {
		return Video{Reason: fmt.Sprintf("the device is Vulkan %s; FFmpeg's Vulkan decoding needs 1.3", apiString(p.APIVersion))}
	}
	if p.DecodeFamily < 0 {
		return Video{Reason: "the device has no queue family with VK_QUEUE_VIDEO_DECODE_BIT_KHR"}
	}
	var missing []string
	if !p.Features.Timeline {
		missing = append(missing, "timelineSemaphore")
	}
	if !p.Features.Sync2 {
		missing = append(missing, "synchronization2")
	}
	if !p.Features.Ycbcr {
		missing = append(missing, "samplerYcbcrConversion")
	}
	if len(missing) > 0 {
		return Video{Reason: "the device lacks " + strings.Join(missing, ", ") + " (FFmpeg's Vulkan decoding needs them)"}
	}
	v := Video{Enabled: true, DecodeFamily: uint32(p.DecodeFamily), DecodeQueues: p.DecodeQueues,
		Features: vkx.VideoFeatures{Timeline: true, Sync2: true, Ycbcr: true,
			VideoMaintenance1: vm1 && p.Features.VideoMaintenance1,
			HostQueryReset:    p.Features.HostQueryReset},
		Extensions: []string{ExtVideoQueue, ExtVideoDecodeQueue}, Withheld: withheld}
	for _, c := range []struct {
		ext string
		op  uint32
	}{{ExtVideoDecodeH264, vkx.CodecOpDecodeH264}, {ExtVideoDecodeH265, vkx.CodecOpDecodeH265},
		{ExtVideoDecodeAV1, vkx.CodecOpDecodeAV1}} {
		if have[c.ext] && p.CodecOps&c.op != 0 {
			v.Extensions = append(v.Extensions, c.ext)
			v.CodecOps |= c.op
		}
	}
	if v.CodecOps == 0 {
		return Video{Reason: "the device's decode queue family offers none of H.264, HEVC, AV1 with its extension"}
	}
	if v.Features.VideoMaintenance1 {
		v.Extensions = append(v.Extensions, ExtVideoMaintenance1)
	}
	return v
}

// PlanVideo is what Options.Video would enable on pd for decoding, or why it cannot, for an engine
// that creates its device itself (package videotex): the same decision as the toolkit's own device,
// with the loader's instance version and, where layerSpec is not 0, VK_KHR_video_maintenance1
// withheld under a validation layer too old to validate it (layerSpec is the specVersion of the
// layer the engine enables; ValidationLayerVersion reads the installed one). The instance's
// entry points must be loaded (vkx.LoadInstance).
func PlanVideo(inst vk.Instance, pd vk.PhysicalDevice, layerSpec uint32) Video {
	return planVideo(inst, vkx.InstanceVersion(), pd, DeviceExtensions(pd), layerSpec)
}

// ValidationLayerVersion is the installed Khronos validation layer's specVersion, 0 when it is not
// installed.
func ValidationLayerVersion() uint32 { return instanceLayers()[ValidationLayer] }
