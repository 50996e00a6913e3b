package formats

import "fmt"

// The pixel-format table. Rows are built by the helpers below so that the repetitive parts (plane
// formats, shader textures, sources) follow one rule per layout family; the tests check every row
// against vk.xml, vulkan_core.h and `ffmpeg -pix_fmts`.
//
// Sampler path (docs/ycbcr-math.md §7.4):
//   - 8-bit and 16-bit data map to the G8/G16 format of the same plane layout.
//   - MSB-aligned 10/12-bit data (p010, p210, p410, y210) maps to the X6/X4 format as it is.
//   - LSB-aligned 10/12-bit data (yuv420p10le, nv20le, ...) maps to the X6/X4 format after each word is
//     shifted left by 16−Depth (SamplerShift). Reading it raw through a G16 format would make the
//     conversion normalise by 2^16−1 and the picture would come out 64 (or 16) times too dark.
//   - Memory orders Vulkan does not have (Cr before Cb) use the conversion's {r=B, b=R} swizzle, the
//     only legal non-identity chroma swizzle (VUIDs 02583–02585).
//   - Gray cannot use a conversion at all (VUID 01655).
//
// Shader path: plain UNORM textures that any device can sample. 10/12-bit data is read through
// R16/R16G16 (not X6/X4, which are optional for sampling and need the shift) and scaled by ShaderScale.
var table = []*PixelFormat{
	planar("yuv420p", 1, 1, 8, AlignNone, VkG8_B8_R8_3Plane420Unorm),
	full(planar("yuvj420p", 1, 1, 8, AlignNone, VkG8_B8_R8_3Plane420Unorm)),
	planar("yuv422p", 1, 0, 8, AlignNone, VkG8_B8_R8_3Plane422Unorm),
	full(planar("yuvj422p", 1, 0, 8, AlignNone, VkG8_B8_R8_3Plane422Unorm)),
	planar("yuv444p", 0, 0, 8, AlignNone, VkG8_B8_R8_3Plane444Unorm),
	full(planar("yuvj444p", 0, 0, 8, AlignNone, VkG8_B8_R8_3Plane444Unorm)),

	semiPlanar("nv12", 1, 1, 8, AlignNone, false, VkG8_B8R8_2Plane420Unorm),
	semiPlanar("nv21", 1, 1, 8, AlignNone, true, VkG8_B8R8_2Plane420Unorm),
	semiPlanar("nv16", 1, 0, 8, AlignNone, false, VkG8_B8R8_2Plane422Unorm),
	semiPlanar("nv24", 0, 0, 8, AlignNone, false, VkG8_B8R8_2Plane444Unorm),
	semiPlanar("nv42", 0, 0, 8, AlignNone, true, VkG8_B8R8_2Plane444Unorm),

	// Packed 4:2:2: Channels list the 2×1 block in memory order.
	packed422("yuyv422", [4]Channel{Y, Cb, Y, Cr}, 8, AlignNone, false, VkG8B8G8R8_422Unorm),
	packed422("uyvy422", [4]Channel{Cb, Y, Cr, Y}, 8, AlignNone, false, VkB8G8R8G8_422Unorm),
	// Y0 Cr Y1 Cb: G8B8G8R8 reads Cr as B and Cb as R, which the swizzle swaps back.
	packed422("yvyu422", [4]Channel{Y, Cr, Y, Cb}, 8, AlignNone, true, VkG8B8G8R8_422Unorm),
	// y210le: yuyv422 order in 16-bit words, 10 bits in the high bits.
	packed422("y210le", [4]Channel{Y, Cb, Y, Cr}, 10, AlignMSB, false, VkG10X6B10X6G10X6R10X6_422Unorm4Pack16),

	// MSB-aligned semi-planar ("data in the high bits, zeros in the low bits"): X6 formats as they are.
	semiPlanar("p010le", 1, 1, 10, AlignMSB, false, VkG10X6_B10X6R10X6_2Plane420Unorm3Pack16),
	semiPlanar("p210le", 1, 0, 10, AlignMSB, false, VkG10X6_B10X6R10X6_2Plane422Unorm3Pack16),
	semiPlanar("p410le", 0, 0, 10, AlignMSB, false, VkG10X6_B10X6R10X6_2Plane444Unorm3Pack16),
	semiPlanar("p016le", 1, 1, 16, AlignNone, false, VkG16_B16R16_2Plane420Unorm),
	semiPlanar("p216le", 1, 0, 16, AlignNone, false, VkG16_B16R16_2Plane422Unorm),
	semiPlanar("p416le", 0, 0, 16, AlignNone, false, VkG16_B16R16_2Plane444Unorm),

	// LSB-aligned: the value sits in the low bits, so the sampler path shifts it into an X6/X4 format.
	planar("yuv420p10le", 1, 1, 10, AlignLSB, VkG10X6_B10X6_R10X6_3Plane420Unorm3Pack16),
	planar("yuv422p10le", 1, 0, 10, AlignLSB, VkG10X6_B10X6_R10X6_3Plane422Unorm3Pack16),
	planar("yuv444p10le", 0, 0, 10, AlignLSB, VkG10X6_B10X6_R10X6_3Plane444Unorm3Pack16),
	planar("yuv420p12le", 1, 1, 12, AlignLSB, VkG12X4_B12X4_R12X4_3Plane420Unorm3Pack16),
	planar("yuv422p12le", 1, 0, 12, AlignLSB, VkG12X4_B12X4_R12X4_3Plane422Unorm3Pack16),
	planar("yuv444p12le", 0, 0, 12, AlignLSB, VkG12X4_B12X4_R12X4_3Plane444Unorm3Pack16),
	semiPlanar("nv20le", 1, 0, 10, AlignLSB, false, VkG10X6_B10X6R10X6_2Plane422Unorm3Pack16),

	planar("yuv420p16le", 1, 1, 16, AlignNone, VkG16_B16_R16_3Plane420Unorm),
	planar("yuv422p16le", 1, 0, 16, AlignNone, VkG16_B16_R16_3Plane422Unorm),
	planar("yuv444p16le", 0, 0, 16, AlignNone, VkG16_B16_R16_3Plane444Unorm),

	gray("gray", 8, AlignNone),
	gray("gray10le", 10, AlignLSB),
	gray("gray12le", 12, AlignLSB),
	gray("gray16le", 16, AlignNone),
}

var byName = func() map[string]*PixelFormat {
	m := make(map[string]*PixelFormat, len(table))
	for _, pf := range table {
		m[pf.Name] = pf
	}
	return m
}()

// Lookup returns the layout with FFmpeg's name (av_get_pix_fmt_name), e.g. "yuv420p", "p010le".
func Lookup(name string) (*PixelFormat, bool) {
	pf, ok := byName[name]
	return pf, ok
}

// All returns every supported layout in the table's (stable) order. The slice is a copy; the
// PixelFormats are shared and must not be modified.
func All() []*PixelFormat {
	return append([]*PixelFormat(nil), table...)
}

// Names returns the FFmpeg names of all supported layouts, in table order.
func Names() []string {
	out := make([]string, len(table))
	for i, pf := range table {
		out[i] = pf.Name
	}
	return out
}

func containerBits(depth int) int {
	if depth <= 8 {
		return 8
	}
	return 16
}

// planeFormat is the plane-compatible single-plane format for n channels at a depth: the X6/X4
// formats for 10/12 bits, because that is what the planes of the X6/X4 multi-planar formats are.
func planeFormat(n, depth int) VkFormat {
	f := map[int][2]VkFormat{
		8:  {VkR8Unorm, VkR8G8Unorm},
		10: {VkR10X6UnormPack16, VkR10X6G10X6Unorm2Pack16},
		12: {VkR12X4UnormPack16, VkR12X4G12X4Unorm2Pack16},
		16: {VkR16Unorm, VkR16G16Unorm},
	}[depth]
	return f[n-1]
}

// shaderFormat is what the shader path samples: 8-bit or 16-bit UNORM with n components. Deeper
// data always goes through the 16-bit formats (every device samples them; X6/X4 are optional).
func shaderFormat(n, container int) VkFormat {
	if container == 8 {
		return [...]VkFormat{VkR8Unorm, VkR8G8Unorm, 0, VkR8G8B8A8Unorm}[n-1]
	}
	return [...]VkFormat{VkR16Unorm, VkR16G16Unorm, 0, VkR16G16B16A16Unorm}[n-1]
}

func samplerShift(depth int, a Alignment) int {
	if a == AlignLSB {
		return 16 - depth
	}
	return 0
}

func base(name string, lw, lh, depth int, a Alignment, vk VkFormat) *PixelFormat {
	return &PixelFormat{
		Name:          name,
		Log2ChromaW:   lw,
		Log2ChromaH:   lh,
		Depth:         depth,
		ContainerBits: containerBits(depth),
		Align:         a,
		VkFormat:      vk,
		SamplerShift:  samplerShift(depth, a),
	}
}

// planar: three planes Y, Cb, Cr; the shader samples one single-component texture per plane.
func planar(name string, lw, lh, depth int, a Alignment, vk VkFormat) *PixelFormat {
	pf := base(name, lw, lh, depth, a, vk)
	bpt := pf.ContainerBits / 8
	for i, c := range []Channel{Y, Cb, Cr} {
		pf.Planes = append(pf.Planes, Plane{
			Channels: []Channel{c}, Chroma: c != Y, BytesPerTexel: bpt, VkFormat: planeFormat(1, depth),
		})
		pf.Textures = append(pf.Textures, Texture{Plane: i, VkFormat: shaderFormat(1, pf.ContainerBits), Chroma: c != Y})
		pf.Sources[c] = Source{Texture: i, Component: 0}
	}
	return pf
}

// semiPlanar: a Y plane and one interleaved chroma plane, Cb first unless swap (nv21, nv42).
func semiPlanar(name string, lw, lh, depth int, a Alignment, swap bool, vk VkFormat) *PixelFormat {
	pf := base(name, lw, lh, depth, a, vk)
	pf.SwapCbCr = swap
	bpt := pf.ContainerBits / 8
	uv := []Channel{Cb, Cr}
	if swap {
		uv = []Channel{Cr, Cb}
	}
	pf.Planes = []Plane{
		{Channels: []Channel{Y}, BytesPerTexel: bpt, VkFormat: planeFormat(1, depth)},
		{Channels: uv, Chroma: true, BytesPerTexel: 2 * bpt, VkFormat: planeFormat(2, depth)},
	}
	pf.Textures = []Texture{
		{Plane: 0, VkFormat: shaderFormat(1, pf.ContainerBits)},
		{Plane: 1, VkFormat: shaderFormat(2, pf.ContainerBits), Chroma: true},
	}
	pf.Sources[Y] = Source{0, 0}
	for i, c := range uv {
		pf.Sources[c] = Source{1, i}
	}
	return pf
}

// packed422: one plane of 2×1 blocks holding four samples (two Y, one Cb, one Cr). The plane's texel
// is the block, so the plane is chroma-sized (⌈W/2⌉×H blocks) and Plane.Chroma is true.
//
// The shader reads two views of the same bytes, so that hardware bilinear filtering works on each:
// a luma view with 2 components per texel (W×H: texel x holds sample 2x and 2x+1 of the row, i.e.
// one Y and one chroma) and a chroma view with 4 components per texel (⌈W/2⌉×H: the whole block).
func packed422(name string, order [4]Channel, depth int, a Alignment, swap bool, vk VkFormat) *PixelFormat {
	pf := base(name, 1, 0, depth, a, vk)
	pf.SwapCbCr = swap
	bpt := 4 * pf.ContainerBits / 8
	block := map[int]VkFormat{
		8: VkR8G8B8A8Unorm, 10: VkR10X6G10X6B10X6A10X6Unorm4Pack16,
		12: VkR12X4G12X4B12X4A12X4Unorm4Pack16, 16: VkR16G16B16A16Unorm,
	}[depth]
	pf.Planes = []Plane{{Channels: order[:], Chroma: true, BytesPerTexel: bpt, VkFormat: block}}
	pf.Textures = []Texture{
		{Plane: 0, VkFormat: shaderFormat(2, pf.ContainerBits), Chroma: false},
		{Plane: 0, VkFormat: shaderFormat(4, pf.ContainerBits), Chroma: true},
	}
	for i, c := range order {
		if c == Y {
			// Y sits at the same component of every luma-view texel (positions i and i+2 of the block).
			pf.Sources[Y] = Source{0, i % 2}
		} else {
			pf.Sources[c] = Source{1, i}
		}
	}
	return pf
}

// gray: luma only. No Y′CbCr model can read a single-component format: the R and B components the
// model needs would be substituted zeros (VUID-VkSamplerYcbcrConversionCreateInfo-components-01655).
func gray(name string, depth int, a Alignment) *PixelFormat {
	pf := base(name, 0, 0, depth, a, VkUndefined)
	pf.Gray = true
	pf.SamplerShift = 0
	pf.NoSamplerReason = "single-channel format: a Y′CbCr model needs the R, G and B components " +
		"to exist (VUID-VkSamplerYcbcrConversionCreateInfo-components-01655), so gray takes the shader path"
	// No multi-planar format exists for gray; the plane is uploaded as the plain format of its container.
	f := shaderFormat(1, pf.ContainerBits)
	pf.Planes = []Plane{{Channels: []Channel{Y}, BytesPerTexel: pf.ContainerBits / 8, VkFormat: f}}
	pf.Textures = []Texture{{Plane: 0, VkFormat: f}}
	pf.Sources[Y] = Source{0, 0}
	return pf
}

// full marks a yuvj* layout: full range is part of the format (deprecated in FFmpeg in favour of
// color_range, but decoders still emit it).
func full(pf *PixelFormat) *PixelFormat {
	pf.FullRange = true
	return pf
}

// HasChroma reports whether the layout carries Cb and Cr (false for gray).
func (pf *PixelFormat) HasChroma() bool { return !pf.Gray }

// Subsampling names the chroma subsampling: "4:2:0", "4:2:2", "4:4:4", "4:0:0" for gray.
func (pf *PixelFormat) Subsampling() string {
	if pf.Gray {
		return "4:0:0"
	}
	switch [2]int{pf.Log2ChromaW, pf.Log2ChromaH} {
	case [2]int{0, 0}:
		return "4:4:4"
	case [2]int{1, 0}:
		return "4:2:2"
	case [2]int{1, 1}:
		return "4:2:0"
	case [2]int{0, 1}:
		return "4:4:0"
	case [2]int{2, 0}:
		return "4:1:1"
	case [2]int{2, 2}:
		return "4:1:0"
	}
	return fmt.Sprintf("log2 %d×%d", pf.Log2ChromaW, pf.Log2ChromaH)
}

// ceilShift is FFmpeg's AV_CEIL_RSHIFT: a w-wide picture has ⌈w/2^s⌉ chroma samples per row.
func ceilShift(v, s int) int { return -((-v) >> s) }

// ChromaSize is the size of the chroma planes of a width×height picture, rounded up as FFmpeg does
// (odd sizes keep their last half-covered chroma sample). Gray has no chroma: (0, 0).
func (pf *PixelFormat) ChromaSize(width, height int) (int, int) {
	if pf.Gray || width <= 0 || height <= 0 {
		return 0, 0
	}
	return ceilShift(width, pf.Log2ChromaW), ceilShift(height, pf.Log2ChromaH)
}

// PlaneSize is the size of plane i in texels of that plane: the picture size for a luma plane, the
// chroma size for a chroma plane, and ⌈width/2⌉×height blocks for packed 4:2:2. (0, 0) for a plane
// that does not exist.
func (pf *PixelFormat) PlaneSize(i, width, height int) (int, int) {
	if i < 0 || i >= len(pf.Planes) || width <= 0 || height <= 0 {
		return 0, 0
	}
	if pf.Planes[i].Chroma {
		return pf.ChromaSize(width, height)
	}
	return width, height
}

// FrameBytes is the size of a width×height picture's planes without row padding: each plane's
// texels times its bytes per texel.
func (pf *PixelFormat) FrameBytes(width, height int) int {
	n := 0
	for i, p := range pf.Planes {
		w, h := pf.PlaneSize(i, width, height)
		n += w * h * p.BytesPerTexel
	}
	return n
}

// TextureSize is the size of shader-path texture i: the picture size for luma textures (for packed
// 4:2:2 the luma view is width×height two-component texels), the chroma size otherwise. (0, 0) for a
// texture that does not exist.
func (pf *PixelFormat) TextureSize(i, width, height int) (int, int) {
	if i < 0 || i >= len(pf.Textures) || width <= 0 || height <= 0 {
		return 0, 0
	}
	if pf.Textures[i].Chroma {
		return pf.ChromaSize(width, height)
	}
	return width, height
}

// ShaderScale is the factor the shader path multiplies a sampled UNORM value by to get
// code/(2^Depth−1), the value a Depth-bit UNORM format would have given.
//
// 8-bit data sampled as R8 and 16-bit data sampled as R16 already are code/(2^Depth−1): 1.
// 10/12-bit data is sampled as R16, which gives word/65535. LSB-aligned data has word = code, so the
// factor is 65535/(2^Depth−1) (64.06 for 10 bits). MSB-aligned data has word = code·2^(16−Depth) (low
// bits zero), so the factor is 65535/(2^(16−Depth)·(2^Depth−1)) (1.0009 for p010: close to 1, but not 1).
func (pf *PixelFormat) ShaderScale() float64 { return pf.ShaderScaleAligned(pf.Align) }

// ShaderScaleAligned is ShaderScale for the layout's samples aligned as a says: the sampler path's
// multi-planar image holds LSB layouts shifted to the MSB (SamplerShift), and the shader path reads
// them there when its textures alias that image's planes.
func (pf *PixelFormat) ShaderScaleAligned(a Alignment) float64 {
	if pf.ContainerBits == 8 || pf.Depth >= 16 {
		return 1
	}
	s := 0
	if a == AlignMSB {
		s = 16 - pf.Depth
	}
	return 65535 / (float64(int(1)<<s) * float64(int(1)<<pf.Depth-1))
}
