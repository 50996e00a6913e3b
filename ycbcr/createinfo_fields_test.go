package ycbcr

import (
	"encoding/binary"
	"testing"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/internal/vkx"
)

// sentConversion is a VkSamplerYcbcrConversionCreateInfo as the driver reads it: its members at
// the offsets vk.xml's member order gives on a 64-bit platform (sType, pNext, format, ycbcrModel,
// ycbcrRange, components r g b a, xChromaOffset, yChromaOffset, chromaFilter,
// forceExplicitReconstruction; every enum and VkBool32 4 bytes, pNext 8 at offset 8).
type sentConversion struct {
	sType, format, model, rng uint32
	components                [4]uint32
	x, y, filter, explicit    uint32
}

func readSentConversion(t *testing.T, b []byte) sentConversion {
	t.Helper()
	if len(b) != 64 {
		t.Fatalf("VkSamplerYcbcrConversionCreateInfo is %d bytes, want 64", len(b))
	}
	u := func(off int) uint32 { return binary.NativeEndian.Uint32(b[off:]) }
	if binary.NativeEndian.Uint64(b[8:]) != 0 {
		t.Fatalf("pNext is set")
	}
	return sentConversion{sType: u(0), format: u(16), model: u(20), rng: u(24),
		components: [4]uint32{u(28), u(32), u(36), u(40)}, x: u(44), y: u(48), filter: u(52), explicit: u(56)}
}

// The values of the Vulkan enums the test expects, written from the specification's enum tables
// (not from formats' constants): VkSamplerYcbcrModelConversion, VkSamplerYcbcrRange,
// VkChromaLocation, VkFilter, VkComponentSwizzle.
const (
	vkModelRGBIdentity   = 0
	vkModelYCbCrIdentity = 1
	vkModel709           = 2
	vkModel601           = 3
	vkModel2020          = 4
	vkRangeFull          = 0
	vkRangeNarrow        = 1
	vkCositedEven        = 0
	vkMidpoint           = 1
	vkNearest            = 0
	vkLinear             = 1
	vkSwizzleIdentity    = 0
	vkSwizzleR           = 3
	vkSwizzleB           = 5
	vkStructureConvInfo  = 1000156000 // VK_STRUCTURE_TYPE_SAMPLER_YCBCR_CONVERSION_CREATE_INFO
)

// crFirst says whether the layout stores Cr before Cb in the plane that holds both (nv21, nv42,
// yvyu422, …): the only layouts whose Vulkan format reads chroma swapped, so their conversion must
// swizzle R and B back (VUIDs 02583–02585 allow that one swizzle).
func crFirst(pf *formats.PixelFormat) bool {
	for _, p := range pf.Planes {
		cb, cr := -1, -1
		for i, c := range p.Channels {
			if c == formats.Cb && cb < 0 {
				cb = i
			}
			if c == formats.Cr && cr < 0 {
				cr = i
			}
		}
		if cb >= 0 && cr >= 0 {
			return cr < cb
		}
	}
	return false
}

// TestCreateInfoFields: every member of the conversion create info the driver receives (the C
// struct vkx.CreateConversion passes, read back by the specification's layout) and of the
// immutable sampler's create info is the one the stream asks for, over every layout of the table
// with a Vulkan format, every siting FFmpeg defines, every matrix with a Vulkan model, both ranges,
// a device offering both chroma offsets and one offering COSITED only (as lavapipe), and the
// checker's NEAREST and forced-explicit variants. The expected values come from the standards, not
// from the code under test: the model from the matrix (H.273's MatrixCoefficients against the
// VkSamplerYcbcrModelConversion the specification names), the range, the offsets of the siting on
// each subsampled axis (Vulkan §16.1.3 "Chroma Reconstruction" against H.273's ChromaSampleLocType
// figure: left and topleft on the even luma column, center and top half-way; topleft and top on
// the even row, left and center half-way), COSITED_EVEN on an axis not subsampled, the R/B swizzle
// of layouts that store Cr first. Lavapipe offers COSITED only, so x = y for every key a CI device
// makes; this test is where a swapped x/y (or any member in the wrong place) fails without NVIDIA.
func TestCreateInfoFields(t *testing.T) {
	type pos struct{ x, y uint32 }
	sited := map[formats.ChromaLocation]pos{
		formats.ChromaLeft: {vkCositedEven, vkMidpoint}, formats.ChromaCenter: {vkMidpoint, vkMidpoint},
		formats.ChromaTopLeft: {vkCositedEven, vkCositedEven}, formats.ChromaTop: {vkMidpoint, vkCositedEven},
		formats.ChromaBottomLeft: {vkCositedEven, 2}, formats.ChromaBottom: {vkMidpoint, 2}, // 2: no VkChromaLocation
	}
	models := map[formats.Matrix]uint32{formats.MatrixRGB: vkModelRGBIdentity, formats.MatrixBT709: vkModel709,
		formats.MatrixBT470BG: vkModel601, formats.MatrixSMPTE170M: vkModel601, formats.MatrixBT2020NCL: vkModel2020}
	ranges := map[formats.Range]uint32{formats.RangeLimited: vkRangeNarrow, formats.RangeFull: vkRangeFull}
	base := vk.FormatFeatureFlags(vk.FormatFeatureSampledImageBit | vk.FormatFeatureSampledImageYcbcrConversionLinearFilterBit)
	devices := map[string]vk.FormatFeatureFlags{
		"both offsets": base | vk.FormatFeatureFlags(vk.FormatFeatureCositedChromaSamplesBit|vk.FormatFeatureMidpointChromaSamplesBit),
		"cosited only": base | vk.FormatFeatureFlags(vk.FormatFeatureCositedChromaSamplesBit),
	}
	checked, asymmetric, swapped := 0, 0, 0
	for _, pf := range formats.All() {
		if pf.VkFormat == 0 {
			continue
		}
		swap := crFirst(pf)
		for dname, feats := range devices {
			for loc, at := range sited {
				for mat, model := range models {
					for rng, vrng := range ranges {
						for _, identity := range []bool{false, true} {
							p := Params{Matrix: mat, Range: rng, ChromaLocation: loc, YCbCrIdentity: identity}
							k, err := samplerKey(feats, pf, p)
							want := sentConversion{sType: vkStructureConvInfo, format: uint32(pf.VkFormat), model: model, rng: vrng,
								x: vkCositedEven, y: vkCositedEven, filter: vkLinear}
							if identity {
								want.model = vkModelYCbCrIdentity
							}
							if pf.Log2ChromaW == 1 {
								want.x = at.x
							}
							if pf.Log2ChromaH == 1 {
								want.y = at.y
							}
							if swap {
								want.components = [4]uint32{vkSwizzleB, vkSwizzleIdentity, vkSwizzleR, vkSwizzleIdentity}
							}
							refuse := want.y == 2 || want.model == vkModelRGBIdentity && vrng != vkRangeFull ||
								feats&vk.FormatFeatureFlags(vk.FormatFeatureMidpointChromaSamplesBit) == 0 && (want.x == vkMidpoint || want.y == vkMidpoint)
							if refuse != (err != nil) {
								t.Errorf("%s, %s, %s: key %s, error %v: want refused %v", pf.Name, dname, p, k, err, refuse)
							}
							if err != nil {
								continue
							}
							for _, v := range []struct {
								filter   vk.Filter
								explicit bool
							}{{vk.FilterLinear, false}, {vk.FilterNearest, true}} {
								kv := k
								if v.filter != k.ChromaFilter || v.explicit {
									kv.ChromaFilter, kv.ForceExplicit = v.filter, v.explicit // as the conformance checker binds
									want.filter, want.explicit = vkNearest, 1
								}
								ci, err := kv.createInfo()
								if err != nil {
									t.Fatalf("%s, %s, %s: key %s: %v", pf.Name, dname, p, kv, err)
								}
								if got := readSentConversion(t, vkx.ConversionCreateInfoBytes(ci)); got != want {
									t.Errorf("%s, %s, %s, key %s: the driver gets %+v, want %+v", pf.Name, dname, p, kv, got, want)
								}
								si := kv.samplerCreateInfo(nil)
								if si.MinFilter != kv.ChromaFilter || si.MagFilter != kv.ChromaFilter || si.AnisotropyEnable != vk.False ||
									si.UnnormalizedCoordinates != vk.False || si.AddressModeU != vk.SamplerAddressModeClampToEdge ||
									si.AddressModeV != vk.SamplerAddressModeClampToEdge || si.AddressModeW != vk.SamplerAddressModeClampToEdge {
									t.Errorf("%s, key %s: sampler create info %+v", pf.Name, kv, si)
								}
								checked++
							}
							if want.x != want.y {
								asymmetric++
							}
							if swap {
								swapped++
							}
						}
					}
				}
			}
		}
	}
	// The loops must reach what the test is for: keys whose x and y offsets differ, and swizzled ones.
	if checked == 0 || asymmetric == 0 || swapped == 0 {
		t.Fatalf("%d create infos checked, %d keys with x ≠ y, %d swizzled: the loops reached too little", checked, asymmetric, swapped)
	}
	t.Logf("%d create infos checked field by field (%d keys with x ≠ y, %d swizzled)", checked, asymmetric, swapped)
}
