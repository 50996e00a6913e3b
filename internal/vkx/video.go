package vkx

/*
#cgo pkg-config: ycbcrkit-vulkan-headers
#include <stdlib.h>
#include "video.h"
*/
import "C"

import (
	"unsafe"

	vk "github.com/vulkan-go/vulkan"
)

// Video decode codec operations (VkVideoCodecOperationFlagBitsKHR).
const (
	CodecOpDecodeH264 = uint32(C.VK_VIDEO_CODEC_OPERATION_DECODE_H264_BIT_KHR)
	CodecOpDecodeH265 = uint32(C.VK_VIDEO_CODEC_OPERATION_DECODE_H265_BIT_KHR)
	CodecOpDecodeAV1  = uint32(C.VK_VIDEO_CODEC_OPERATION_DECODE_AV1_BIT_KHR)
)

// APIVersion13 is VK_API_VERSION_1_3.
const APIVersion13 = uint32(C.VK_API_VERSION_1_3)

// VideoProbe is what a physical device offers for Vulkan Video decoding.
type VideoProbe struct {
	APIVersion   uint32
	DecodeFamily int // -1: none
	DecodeQueues uint32
	CodecOps     uint32 // VkVideoCodecOperationFlagsKHR of the decode family
	Features     VideoFeatures
}

// VideoFeatures is the feature chain of a decoding device: samplerYcbcrConversion (1.1),
// timelineSemaphore and hostQueryReset (1.2), synchronization2 (1.3), videoMaintenance1.
type VideoFeatures struct {
	Timeline, Sync2, Ycbcr, VideoMaintenance1, HostQueryReset bool
}

func b32(b bool) C.VkBool32 {
	if b {
		return 1
	}
	return 0
}

// ProbeVideo reads what pd offers for decoding; videoQueue and maintenance1 say whether pd offers
// VK_KHR_video_queue and VK_KHR_video_maintenance1.
func ProbeVideo(pd vk.PhysicalDevice, videoQueue, maintenance1 bool) VideoProbe {
	var p C.VkxVideoProbe
	C.vkx_video_probe(cPhysical(pd), b32(videoQueue), b32(maintenance1), &p)
	return VideoProbe{
		APIVersion: uint32(p.api_version), DecodeFamily: int(p.decode_family),
		DecodeQueues: uint32(p.decode_queues), CodecOps: uint32(p.codec_ops),
		Features: VideoFeatures{Timeline: p.timeline != 0, Sync2: p.sync2 != 0, Ycbcr: p.ycbcr != 0,
			VideoMaintenance1: p.video_maintenance1 != 0, HostQueryReset: p.host_query_reset != 0},
	}
}

// CreateVideoDevice creates a device with queues queues of family (at least one) and decodeQueues
// queues of decodeFamily (none when decodeFamily < 0), the extensions exts and the features f
// (Vulkan 1.1–1.3 feature structs: the device must be Vulkan 1.3).
func CreateVideoDevice(pd vk.PhysicalDevice, family, queues uint32, decodeFamily int, decodeQueues uint32,
	exts []string, f VideoFeatures) (vk.Device, error) {
	cexts := make([]*C.char, len(exts))
	for i, e := range exts {
		cexts[i] = C.CString(e)
	}
	defer func() {
		for _, c := range cexts {
			C.free(unsafe.Pointer(c))
		}
	}()
	arr := (**C.char)(C.malloc(C.size_t(len(exts)+1) * C.size_t(unsafe.Sizeof(uintptr(0)))))
	defer C.free(unsafe.Pointer(arr))
	s := unsafe.Slice(arr, len(exts)+1)
	copy(s, cexts)
	cf := C.VkxVideoFeatures{timeline: b32(f.Timeline), sync2: b32(f.Sync2), ycbcr: b32(f.Ycbcr),
		video_maintenance1: b32(f.VideoMaintenance1), host_query_reset: b32(f.HostQueryReset)}
	var d C.VkDevice
	r := C.vkx_create_device_video(cPhysical(pd), C.uint32_t(family), C.uint32_t(queues), C.int32_t(decodeFamily),
		C.uint32_t(decodeQueues), arr, C.uint32_t(len(exts)), &cf, &d)
	if err := Check(vk.Result(r), "vkCreateDevice"); err != nil {
		return nil, err
	}
	return *(*vk.Device)(unsafe.Pointer(&d)), nil
}

// VideoFeatureChain returns, in C memory, the feature structs CreateVideoDevice chains
// (VkPhysicalDeviceVulkan11/12/13Features, VkPhysicalDeviceVideoMaintenance1FeaturesKHR when f
// enables it) with f's bits, followed by next (nil or C memory): for VkDeviceCreateInfo.pNext of a
// device an engine creates itself. Call free once vkCreateDevice has returned.
func VideoFeatureChain(f VideoFeatures, next unsafe.Pointer) (pNext unsafe.Pointer, free func()) {
	cf := C.VkxVideoFeatures{timeline: b32(f.Timeline), sync2: b32(f.Sync2), ycbcr: b32(f.Ycbcr),
		video_maintenance1: b32(f.VideoMaintenance1), host_query_reset: b32(f.HostQueryReset)}
	p := C.vkx_video_feature_chain(&cf, next)
	return p, func() { C.free(p) }
}
