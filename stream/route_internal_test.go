package stream

import (
	"testing"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/planes"
)

// TestAutoRoute: RouteAuto's rule on the images FFmpeg's decoders make. On the H100 (docs/hwdec.md,
// "The routes") HEVC's and H.264's images are decode destinations and references at once (usage
// DST|DPB|SAMPLED|TRANSFER_SRC); FFmpeg's own uploads and a decoder with a separate DPB give images
// without DPB usage.
func TestAutoRoute(t *testing.T) {
	const (
		sampled = vk.ImageUsageFlags(vk.ImageUsageSampledBit | vk.ImageUsageTransferSrcBit)
		dst     = 0x00000400 // VK_IMAGE_USAGE_VIDEO_DECODE_DST_BIT_KHR
		ref     = sampled | dst | usageDecodeDPB
	)
	for _, tc := range []struct {
		name          string
		usage         vk.ImageUsageFlags
		w, h, pw, ph  int
		padded, early bool
		want          Route
	}{
		{"reference picture, picture's size, compute conversion (HEVC 2160p on the H100)", ref, 3840, 2160, 3840, 2160, false, true, RouteInPlace},
		{"reference picture, picture's size, drawn conversion or a comparison", ref, 3840, 2160, 3840, 2160, false, false, RouteCopy},
		{"reference picture, padded (1080p)", ref, 1920, 1088, 1920, 1080, true, true, RouteCopy},
		{"output only, picture's size, drawn (a separate DPB)", sampled | dst, 3840, 2160, 3840, 2160, false, false, RouteInPlace},
		{"output only, padded", sampled | dst, 1920, 1088, 1920, 1080, true, false, RouteCopy},
		{"an upload's frame (decode.Uploader)", sampled, 48, 32, 48, 32, false, false, RouteInPlace},
	} {
		got, why := autoRoute(planes.Foreign{Width: tc.w, Height: tc.h, Usage: tc.usage}, tc.pw, tc.ph, tc.padded, tc.early)
		if got != tc.want || why == "" {
			t.Errorf("%s: %v (%q), want %v", tc.name, got, why, tc.want)
		}
	}
}
