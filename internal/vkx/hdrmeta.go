package vkx

/*
#include "vkx.h"
*/
import "C"

import (
	"unsafe"

	vk "github.com/vulkan-go/vulkan"
)

// XY is a CIE 1931 chromaticity (VkXYColorEXT).
type XY struct{ X, Y float32 }

// HDRMetadata is VkHdrMetadataEXT's content (VK_EXT_hdr_metadata): the mastering display's primaries
// and white point as xy, its luminance range, and the content light levels, all luminances in
// cd/m² (the spec's "nits").
type HDRMetadata struct {
	Red, Green, Blue, White    XY
	MaxLuminance, MinLuminance float32
	MaxCLL, MaxFALL            float32 // maxContentLightLevel, maxFrameAverageLightLevel
}

// SetHDRMetadata calls vkSetHdrMetadataEXT for one swapchain: the display gets m at the swapchain's
// next present, until it is set again (Vulkan spec, VK_EXT_hdr_metadata, "Hdr Metadata"). The
// device must have enabled VK_EXT_hdr_metadata: without it the entry point is not there and the
// result is VK_ERROR_EXTENSION_NOT_PRESENT.
func SetHDRMetadata(dev vk.Device, sc vk.Swapchain, m HDRMetadata) error {
	v := [12]C.float{C.float(m.Red.X), C.float(m.Red.Y), C.float(m.Green.X), C.float(m.Green.Y),
		C.float(m.Blue.X), C.float(m.Blue.Y), C.float(m.White.X), C.float(m.White.Y),
		C.float(m.MaxLuminance), C.float(m.MinLuminance), C.float(m.MaxCLL), C.float(m.MaxFALL)}
	h := *(*C.VkSwapchainKHR)(unsafe.Pointer(&sc))
	return Check(vk.Result(C.vkx_set_hdr_metadata(cDevice(dev), h, &v[0])), "vkSetHdrMetadataEXT")
}
