package formats

import "fmt"

// VkFormat is a Vulkan VkFormat value (numeric values from vulkan_core.h). The package defines the
// formats the toolkit uses: the single-plane formats planes and shader textures are viewed as, and
// every Y′CbCr format that requires a sampler Y′CbCr conversion (see MultiPlanarFormats).
type VkFormat uint32

// Constant names follow the Vulkan names: component groups of different planes keep their
// underscore (G8_B8R8 = plane 0 G, plane 1 B and R); an underscore also separates a component group
// from a following number (G8B8G8R8_422).
const (
	VkUndefined                               VkFormat = 0
	VkR8Unorm                                 VkFormat = 9
	VkR8G8Unorm                               VkFormat = 16
	VkR8G8B8A8Unorm                           VkFormat = 37
	VkR16Unorm                                VkFormat = 70
	VkR16G16Unorm                             VkFormat = 77
	VkR16G16B16A16Unorm                       VkFormat = 91
	VkG8B8G8R8_422Unorm                       VkFormat = 1000156000
	VkB8G8R8G8_422Unorm                       VkFormat = 1000156001
	VkG8_B8_R8_3Plane420Unorm                 VkFormat = 1000156002
	VkG8_B8R8_2Plane420Unorm                  VkFormat = 1000156003
	VkG8_B8_R8_3Plane422Unorm                 VkFormat = 1000156004
	VkG8_B8R8_2Plane422Unorm                  VkFormat = 1000156005
	VkG8_B8_R8_3Plane444Unorm                 VkFormat = 1000156006
	VkR10X6UnormPack16                        VkFormat = 1000156007
	VkR10X6G10X6Unorm2Pack16                  VkFormat = 1000156008
	VkR10X6G10X6B10X6A10X6Unorm4Pack16        VkFormat = 1000156009
	VkG10X6B10X6G10X6R10X6_422Unorm4Pack16    VkFormat = 1000156010
	VkB10X6G10X6R10X6G10X6_422Unorm4Pack16    VkFormat = 1000156011
	VkG10X6_B10X6_R10X6_3Plane420Unorm3Pack16 VkFormat = 1000156012
	VkG10X6_B10X6R10X6_2Plane420Unorm3Pack16  VkFormat = 1000156013
	VkG10X6_B10X6_R10X6_3Plane422Unorm3Pack16 VkFormat = 1000156014
	VkG10X6_B10X6R10X6_2Plane422Unorm3Pack16  VkFormat = 1000156015
	VkG10X6_B10X6_R10X6_3Plane444Unorm3Pack16 VkFormat = 1000156016
	VkR12X4UnormPack16                        VkFormat = 1000156017
	VkR12X4G12X4Unorm2Pack16                  VkFormat = 1000156018
	VkR12X4G12X4B12X4A12X4Unorm4Pack16        VkFormat = 1000156019
	VkG12X4B12X4G12X4R12X4_422Unorm4Pack16    VkFormat = 1000156020
	VkB12X4G12X4R12X4G12X4_422Unorm4Pack16    VkFormat = 1000156021
	VkG12X4_B12X4_R12X4_3Plane420Unorm3Pack16 VkFormat = 1000156022
	VkG12X4_B12X4R12X4_2Plane420Unorm3Pack16  VkFormat = 1000156023
	VkG12X4_B12X4_R12X4_3Plane422Unorm3Pack16 VkFormat = 1000156024
	VkG12X4_B12X4R12X4_2Plane422Unorm3Pack16  VkFormat = 1000156025
	VkG12X4_B12X4_R12X4_3Plane444Unorm3Pack16 VkFormat = 1000156026
	VkG16B16G16R16_422Unorm                   VkFormat = 1000156027
	VkB16G16R16G16_422Unorm                   VkFormat = 1000156028
	VkG16_B16_R16_3Plane420Unorm              VkFormat = 1000156029
	VkG16_B16R16_2Plane420Unorm               VkFormat = 1000156030
	VkG16_B16_R16_3Plane422Unorm              VkFormat = 1000156031
	VkG16_B16R16_2Plane422Unorm               VkFormat = 1000156032
	VkG16_B16_R16_3Plane444Unorm              VkFormat = 1000156033
	VkG8_B8R8_2Plane444Unorm                  VkFormat = 1000330000
	VkG10X6_B10X6R10X6_2Plane444Unorm3Pack16  VkFormat = 1000330001
	VkG12X4_B12X4R12X4_2Plane444Unorm3Pack16  VkFormat = 1000330002
	VkG16_B16R16_2Plane444Unorm               VkFormat = 1000330003
)

var vkFormatNames = map[VkFormat]string{
	VkUndefined:                               "VK_FORMAT_UNDEFINED",
	VkR8Unorm:                                 "VK_FORMAT_R8_UNORM",
	VkR8G8Unorm:                               "VK_FORMAT_R8G8_UNORM",
	VkR8G8B8A8Unorm:                           "VK_FORMAT_R8G8B8A8_UNORM",
	VkR16Unorm:                                "VK_FORMAT_R16_UNORM",
	VkR16G16Unorm:                             "VK_FORMAT_R16G16_UNORM",
	VkR16G16B16A16Unorm:                       "VK_FORMAT_R16G16B16A16_UNORM",
	VkG8B8G8R8_422Unorm:                       "VK_FORMAT_G8B8G8R8_422_UNORM",
	VkB8G8R8G8_422Unorm:                       "VK_FORMAT_B8G8R8G8_422_UNORM",
	VkG8_B8_R8_3Plane420Unorm:                 "VK_FORMAT_G8_B8_R8_3PLANE_420_UNORM",
	VkG8_B8R8_2Plane420Unorm:                  "VK_FORMAT_G8_B8R8_2PLANE_420_UNORM",
	VkG8_B8_R8_3Plane422Unorm:                 "VK_FORMAT_G8_B8_R8_3PLANE_422_UNORM",
	VkG8_B8R8_2Plane422Unorm:                  "VK_FORMAT_G8_B8R8_2PLANE_422_UNORM",
	VkG8_B8_R8_3Plane444Unorm:                 "VK_FORMAT_G8_B8_R8_3PLANE_444_UNORM",
	VkR10X6UnormPack16:                        "VK_FORMAT_R10X6_UNORM_PACK16",
	VkR10X6G10X6Unorm2Pack16:                  "VK_FORMAT_R10X6G10X6_UNORM_2PACK16",
	VkR10X6G10X6B10X6A10X6Unorm4Pack16:        "VK_FORMAT_R10X6G10X6B10X6A10X6_UNORM_4PACK16",
	VkG10X6B10X6G10X6R10X6_422Unorm4Pack16:    "VK_FORMAT_G10X6B10X6G10X6R10X6_422_UNORM_4PACK16",
	VkB10X6G10X6R10X6G10X6_422Unorm4Pack16:    "VK_FORMAT_B10X6G10X6R10X6G10X6_422_UNORM_4PACK16",
	VkG10X6_B10X6_R10X6_3Plane420Unorm3Pack16: "VK_FORMAT_G10X6_B10X6_R10X6_3PLANE_420_UNORM_3PACK16",
	VkG10X6_B10X6R10X6_2Plane420Unorm3Pack16:  "VK_FORMAT_G10X6_B10X6R10X6_2PLANE_420_UNORM_3PACK16",
	VkG10X6_B10X6_R10X6_3Plane422Unorm3Pack16: "VK_FORMAT_G10X6_B10X6_R10X6_3PLANE_422_UNORM_3PACK16",
	VkG10X6_B10X6R10X6_2Plane422Unorm3Pack16:  "VK_FORMAT_G10X6_B10X6R10X6_2PLANE_422_UNORM_3PACK16",
	VkG10X6_B10X6_R10X6_3Plane444Unorm3Pack16: "VK_FORMAT_G10X6_B10X6_R10X6_3PLANE_444_UNORM_3PACK16",
	VkR12X4UnormPack16:                        "VK_FORMAT_R12X4_UNORM_PACK16",
	VkR12X4G12X4Unorm2Pack16:                  "VK_FORMAT_R12X4G12X4_UNORM_2PACK16",
	VkR12X4G12X4B12X4A12X4Unorm4Pack16:        "VK_FORMAT_R12X4G12X4B12X4A12X4_UNORM_4PACK16",
	VkG12X4B12X4G12X4R12X4_422Unorm4Pack16:    "VK_FORMAT_G12X4B12X4G12X4R12X4_422_UNORM_4PACK16",
	VkB12X4G12X4R12X4G12X4_422Unorm4Pack16:    "VK_FORMAT_B12X4G12X4R12X4G12X4_422_UNORM_4PACK16",
	VkG12X4_B12X4_R12X4_3Plane420Unorm3Pack16: "VK_FORMAT_G12X4_B12X4_R12X4_3PLANE_420_UNORM_3PACK16",
	VkG12X4_B12X4R12X4_2Plane420Unorm3Pack16:  "VK_FORMAT_G12X4_B12X4R12X4_2PLANE_420_UNORM_3PACK16",
	VkG12X4_B12X4_R12X4_3Plane422Unorm3Pack16: "VK_FORMAT_G12X4_B12X4_R12X4_3PLANE_422_UNORM_3PACK16",
	VkG12X4_B12X4R12X4_2Plane422Unorm3Pack16:  "VK_FORMAT_G12X4_B12X4R12X4_2PLANE_422_UNORM_3PACK16",
	VkG12X4_B12X4_R12X4_3Plane444Unorm3Pack16: "VK_FORMAT_G12X4_B12X4_R12X4_3PLANE_444_UNORM_3PACK16",
	VkG16B16G16R16_422Unorm:                   "VK_FORMAT_G16B16G16R16_422_UNORM",
	VkB16G16R16G16_422Unorm:                   "VK_FORMAT_B16G16R16G16_422_UNORM",
	VkG16_B16_R16_3Plane420Unorm:              "VK_FORMAT_G16_B16_R16_3PLANE_420_UNORM",
	VkG16_B16R16_2Plane420Unorm:               "VK_FORMAT_G16_B16R16_2PLANE_420_UNORM",
	VkG16_B16_R16_3Plane422Unorm:              "VK_FORMAT_G16_B16_R16_3PLANE_422_UNORM",
	VkG16_B16R16_2Plane422Unorm:               "VK_FORMAT_G16_B16R16_2PLANE_422_UNORM",
	VkG16_B16_R16_3Plane444Unorm:              "VK_FORMAT_G16_B16_R16_3PLANE_444_UNORM",
	VkG8_B8R8_2Plane444Unorm:                  "VK_FORMAT_G8_B8R8_2PLANE_444_UNORM",
	VkG10X6_B10X6R10X6_2Plane444Unorm3Pack16:  "VK_FORMAT_G10X6_B10X6R10X6_2PLANE_444_UNORM_3PACK16",
	VkG12X4_B12X4R12X4_2Plane444Unorm3Pack16:  "VK_FORMAT_G12X4_B12X4R12X4_2PLANE_444_UNORM_3PACK16",
	VkG16_B16R16_2Plane444Unorm:               "VK_FORMAT_G16_B16R16_2PLANE_444_UNORM",
}

// String returns the Vulkan name ("VK_FORMAT_G8_B8_R8_3PLANE_420_UNORM"), or "VkFormat(N)" for a value
// this package does not know.
func (f VkFormat) String() string {
	if s, ok := vkFormatNames[f]; ok {
		return s
	}
	return fmt.Sprintf("VkFormat(%d)", uint32(f))
}

// FormatFacts describes one format that requires a sampler Y′CbCr conversion, as vk.xml and
// formats.adoc define it. A device conformance checker enumerates these.
type FormatFacts struct {
	Format VkFormat
	// Planes is the number of format planes (1 for the single-plane packed formats).
	Planes int
	// Log2ChromaW, Log2ChromaH: chroma subsampling (1,1 = 4:2:0; 1,0 = 4:2:2; 0,0 = 4:4:4).
	Log2ChromaW, Log2ChromaH int
	// Bits is n, the bit depth of each component, used for UNORM normalisation and range expansion
	// (10 for X6 formats: the padding bits do not count).
	Bits int
	// PlaneFormats has one entry per plane: the compatible single-plane format (vk.xml
	// <plane compatible=...>), which copies and per-plane views use. Single-plane 4:2:2 formats have
	// no such entry in vk.xml; theirs is the format of the same texel size whose texel is the whole
	// 2×1 block read as RGBA (R8G8B8A8, R10X6G10X6B10X6A10X6, ...), so that a shader can read the block.
	// The two RGBA 4PACK16 formats list themselves.
	PlaneFormats []VkFormat
	// Components lists, per plane, the Vulkan component letters in memory order ("G", "BR", "GBGR").
	// For the Y′CbCr models G is Y′, B is Cb and R is Cr.
	Components []string
}

// ycbcrFacts is the one table of formats requiring a sampler Y′CbCr conversion (formats.adoc
// §formats-requiring-sampler-ycbcr-conversion: every vk.xml format with a chroma attribute), in
// VkFormat order. The R10X6G10X6B10X6A10X6 and R12X4G12X4B12X4A12X4 formats are in that table too,
// although they are not subsampled (VK_EXT_rgba10x6_formats lifts the requirement for the first).
var ycbcrFacts = []FormatFacts{
	{VkG8B8G8R8_422Unorm, 1, 1, 0, 8, []VkFormat{VkR8G8B8A8Unorm}, []string{"GBGR"}},
	{VkB8G8R8G8_422Unorm, 1, 1, 0, 8, []VkFormat{VkR8G8B8A8Unorm}, []string{"BGRG"}},
	{VkG8_B8_R8_3Plane420Unorm, 3, 1, 1, 8, []VkFormat{VkR8Unorm, VkR8Unorm, VkR8Unorm}, []string{"G", "B", "R"}},
	{VkG8_B8R8_2Plane420Unorm, 2, 1, 1, 8, []VkFormat{VkR8Unorm, VkR8G8Unorm}, []string{"G", "BR"}},
	{VkG8_B8_R8_3Plane422Unorm, 3, 1, 0, 8, []VkFormat{VkR8Unorm, VkR8Unorm, VkR8Unorm}, []string{"G", "B", "R"}},
	{VkG8_B8R8_2Plane422Unorm, 2, 1, 0, 8, []VkFormat{VkR8Unorm, VkR8G8Unorm}, []string{"G", "BR"}},
	{VkG8_B8_R8_3Plane444Unorm, 3, 0, 0, 8, []VkFormat{VkR8Unorm, VkR8Unorm, VkR8Unorm}, []string{"G", "B", "R"}},
	{VkR10X6G10X6B10X6A10X6Unorm4Pack16, 1, 0, 0, 10, []VkFormat{VkR10X6G10X6B10X6A10X6Unorm4Pack16}, []string{"RGBA"}},
	{VkG10X6B10X6G10X6R10X6_422Unorm4Pack16, 1, 1, 0, 10, []VkFormat{VkR10X6G10X6B10X6A10X6Unorm4Pack16}, []string{"GBGR"}},
	{VkB10X6G10X6R10X6G10X6_422Unorm4Pack16, 1, 1, 0, 10, []VkFormat{VkR10X6G10X6B10X6A10X6Unorm4Pack16}, []string{"BGRG"}},
	{VkG10X6_B10X6_R10X6_3Plane420Unorm3Pack16, 3, 1, 1, 10, []VkFormat{VkR10X6UnormPack16, VkR10X6UnormPack16, VkR10X6UnormPack16}, []string{"G", "B", "R"}},
	{VkG10X6_B10X6R10X6_2Plane420Unorm3Pack16, 2, 1, 1, 10, []VkFormat{VkR10X6UnormPack16, VkR10X6G10X6Unorm2Pack16}, []string{"G", "BR"}},
	{VkG10X6_B10X6_R10X6_3Plane422Unorm3Pack16, 3, 1, 0, 10, []VkFormat{VkR10X6UnormPack16, VkR10X6UnormPack16, VkR10X6UnormPack16}, []string{"G", "B", "R"}},
	{VkG10X6_B10X6R10X6_2Plane422Unorm3Pack16, 2, 1, 0, 10, []VkFormat{VkR10X6UnormPack16, VkR10X6G10X6Unorm2Pack16}, []string{"G", "BR"}},
	{VkG10X6_B10X6_R10X6_3Plane444Unorm3Pack16, 3, 0, 0, 10, []VkFormat{VkR10X6UnormPack16, VkR10X6UnormPack16, VkR10X6UnormPack16}, []string{"G", "B", "R"}},
	{VkR12X4G12X4B12X4A12X4Unorm4Pack16, 1, 0, 0, 12, []VkFormat{VkR12X4G12X4B12X4A12X4Unorm4Pack16}, []string{"RGBA"}},
	{VkG12X4B12X4G12X4R12X4_422Unorm4Pack16, 1, 1, 0, 12, []VkFormat{VkR12X4G12X4B12X4A12X4Unorm4Pack16}, []string{"GBGR"}},
	{VkB12X4G12X4R12X4G12X4_422Unorm4Pack16, 1, 1, 0, 12, []VkFormat{VkR12X4G12X4B12X4A12X4Unorm4Pack16}, []string{"BGRG"}},
	{VkG12X4_B12X4_R12X4_3Plane420Unorm3Pack16, 3, 1, 1, 12, []VkFormat{VkR12X4UnormPack16, VkR12X4UnormPack16, VkR12X4UnormPack16}, []string{"G", "B", "R"}},
	{VkG12X4_B12X4R12X4_2Plane420Unorm3Pack16, 2, 1, 1, 12, []VkFormat{VkR12X4UnormPack16, VkR12X4G12X4Unorm2Pack16}, []string{"G", "BR"}},
	{VkG12X4_B12X4_R12X4_3Plane422Unorm3Pack16, 3, 1, 0, 12, []VkFormat{VkR12X4UnormPack16, VkR12X4UnormPack16, VkR12X4UnormPack16}, []string{"G", "B", "R"}},
	{VkG12X4_B12X4R12X4_2Plane422Unorm3Pack16, 2, 1, 0, 12, []VkFormat{VkR12X4UnormPack16, VkR12X4G12X4Unorm2Pack16}, []string{"G", "BR"}},
	{VkG12X4_B12X4_R12X4_3Plane444Unorm3Pack16, 3, 0, 0, 12, []VkFormat{VkR12X4UnormPack16, VkR12X4UnormPack16, VkR12X4UnormPack16}, []string{"G", "B", "R"}},
	{VkG16B16G16R16_422Unorm, 1, 1, 0, 16, []VkFormat{VkR16G16B16A16Unorm}, []string{"GBGR"}},
	{VkB16G16R16G16_422Unorm, 1, 1, 0, 16, []VkFormat{VkR16G16B16A16Unorm}, []string{"BGRG"}},
	{VkG16_B16_R16_3Plane420Unorm, 3, 1, 1, 16, []VkFormat{VkR16Unorm, VkR16Unorm, VkR16Unorm}, []string{"G", "B", "R"}},
	{VkG16_B16R16_2Plane420Unorm, 2, 1, 1, 16, []VkFormat{VkR16Unorm, VkR16G16Unorm}, []string{"G", "BR"}},
	{VkG16_B16_R16_3Plane422Unorm, 3, 1, 0, 16, []VkFormat{VkR16Unorm, VkR16Unorm, VkR16Unorm}, []string{"G", "B", "R"}},
	{VkG16_B16R16_2Plane422Unorm, 2, 1, 0, 16, []VkFormat{VkR16Unorm, VkR16G16Unorm}, []string{"G", "BR"}},
	{VkG16_B16_R16_3Plane444Unorm, 3, 0, 0, 16, []VkFormat{VkR16Unorm, VkR16Unorm, VkR16Unorm}, []string{"G", "B", "R"}},
	{VkG8_B8R8_2Plane444Unorm, 2, 0, 0, 8, []VkFormat{VkR8Unorm, VkR8G8Unorm}, []string{"G", "BR"}},
	{VkG10X6_B10X6R10X6_2Plane444Unorm3Pack16, 2, 0, 0, 10, []VkFormat{VkR10X6UnormPack16, VkR10X6G10X6Unorm2Pack16}, []string{"G", "BR"}},
	{VkG12X4_B12X4R12X4_2Plane444Unorm3Pack16, 2, 0, 0, 12, []VkFormat{VkR12X4UnormPack16, VkR12X4G12X4Unorm2Pack16}, []string{"G", "BR"}},
	{VkG16_B16R16_2Plane444Unorm, 2, 0, 0, 16, []VkFormat{VkR16Unorm, VkR16G16Unorm}, []string{"G", "BR"}},
}

// MultiPlanarFormats lists every format that requires a sampler Y′CbCr conversion (the multi-planar
// formats, the single-plane 4:2:2 formats and the two RGBA 4PACK16 formats), in VkFormat order, so
// that a conformance checker can query each one a device offers. Facts gives each one's layout.
var MultiPlanarFormats = func() []VkFormat {
	out := make([]VkFormat, len(ycbcrFacts))
	for i, f := range ycbcrFacts {
		out[i] = f.Format
	}
	return out
}()

var factsByFormat = func() map[VkFormat]*FormatFacts {
	m := make(map[VkFormat]*FormatFacts, len(ycbcrFacts))
	for i := range ycbcrFacts {
		m[ycbcrFacts[i].Format] = &ycbcrFacts[i]
	}
	return m
}()

// Facts returns the layout of a format that requires a sampler Y′CbCr conversion; ok is false for
// any other format. The slices in the result are copies.
func (f VkFormat) Facts() (facts FormatFacts, ok bool) {
	p, ok := factsByFormat[f]
	if !ok {
		return FormatFacts{}, false
	}
	facts = *p
	facts.PlaneFormats = append([]VkFormat(nil), p.PlaneFormats...)
	facts.Components = append([]string(nil), p.Components...)
	return facts, true
}

// RequiresConversion reports whether image views of f with the COLOR aspect need a sampler Y′CbCr
// conversion (f is in MultiPlanarFormats).
func (f VkFormat) RequiresConversion() bool {
	_, ok := factsByFormat[f]
	return ok
}

// texelInfo describes the single-plane formats planes and shader textures use: the number of
// components and the bits of each (n for UNORM normalisation).
type texelInfo struct{ components, bits int }

var singlePlaneInfo = map[VkFormat]texelInfo{
	VkR8Unorm:                          {1, 8},
	VkR8G8Unorm:                        {2, 8},
	VkR8G8B8A8Unorm:                    {4, 8},
	VkR16Unorm:                         {1, 16},
	VkR16G16Unorm:                      {2, 16},
	VkR16G16B16A16Unorm:                {4, 16},
	VkR10X6UnormPack16:                 {1, 10},
	VkR10X6G10X6Unorm2Pack16:           {2, 10},
	VkR10X6G10X6B10X6A10X6Unorm4Pack16: {4, 10},
	VkR12X4UnormPack16:                 {1, 12},
	VkR12X4G12X4Unorm2Pack16:           {2, 12},
	VkR12X4G12X4B12X4A12X4Unorm4Pack16: {4, 12},
}

// Model is VkSamplerYcbcrModelConversion.
type Model uint32

const (
	ModelRGBIdentity   Model = 0
	ModelYCbCrIdentity Model = 1
	ModelYCbCr709      Model = 2
	ModelYCbCr601      Model = 3
	ModelYCbCr2020     Model = 4
)

func (m Model) String() string {
	switch m {
	case ModelRGBIdentity:
		return "VK_SAMPLER_YCBCR_MODEL_CONVERSION_RGB_IDENTITY"
	case ModelYCbCrIdentity:
		return "VK_SAMPLER_YCBCR_MODEL_CONVERSION_YCBCR_IDENTITY"
	case ModelYCbCr709:
		return "VK_SAMPLER_YCBCR_MODEL_CONVERSION_YCBCR_709"
	case ModelYCbCr601:
		return "VK_SAMPLER_YCBCR_MODEL_CONVERSION_YCBCR_601"
	case ModelYCbCr2020:
		return "VK_SAMPLER_YCBCR_MODEL_CONVERSION_YCBCR_2020"
	}
	return fmt.Sprintf("Model(%d)", uint32(m))
}

// YcbcrRange is VkSamplerYcbcrRange.
type YcbcrRange uint32

const (
	RangeITUFull   YcbcrRange = 0
	RangeITUNarrow YcbcrRange = 1
)

func (r YcbcrRange) String() string {
	switch r {
	case RangeITUFull:
		return "VK_SAMPLER_YCBCR_RANGE_ITU_FULL"
	case RangeITUNarrow:
		return "VK_SAMPLER_YCBCR_RANGE_ITU_NARROW"
	}
	return fmt.Sprintf("YcbcrRange(%d)", uint32(r))
}

// ChromaOffset is VkChromaLocation (named so to keep it apart from FFmpeg's ChromaLocation).
type ChromaOffset uint32

const (
	CositedEven ChromaOffset = 0
	Midpoint    ChromaOffset = 1
)

func (o ChromaOffset) String() string {
	switch o {
	case CositedEven:
		return "VK_CHROMA_LOCATION_COSITED_EVEN"
	case Midpoint:
		return "VK_CHROMA_LOCATION_MIDPOINT"
	}
	return fmt.Sprintf("ChromaOffset(%d)", uint32(o))
}
