package formats

import (
	"math"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// rowWant is what a table row must say, typed from docs/ycbcr-math.md §7.4 (sampler format,
// swizzle, shift) and from FFmpeg's pixdesc (planes, subsampling, depth, alignment): not from the
// table code.
type rowWant struct {
	planes, lw, lh, depth int
	align                 Alignment
	vk                    string // Vulkan name; "" = no sampler path
	swap                  bool
	shift                 int
}

var wantRows = map[string]rowWant{
	"yuv420p":     {3, 1, 1, 8, AlignNone, "VK_FORMAT_G8_B8_R8_3PLANE_420_UNORM", false, 0},
	"yuvj420p":    {3, 1, 1, 8, AlignNone, "VK_FORMAT_G8_B8_R8_3PLANE_420_UNORM", false, 0},
	"yuv422p":     {3, 1, 0, 8, AlignNone, "VK_FORMAT_G8_B8_R8_3PLANE_422_UNORM", false, 0},
	"yuvj422p":    {3, 1, 0, 8, AlignNone, "VK_FORMAT_G8_B8_R8_3PLANE_422_UNORM", false, 0},
	"yuv444p":     {3, 0, 0, 8, AlignNone, "VK_FORMAT_G8_B8_R8_3PLANE_444_UNORM", false, 0},
	"yuvj444p":    {3, 0, 0, 8, AlignNone, "VK_FORMAT_G8_B8_R8_3PLANE_444_UNORM", false, 0},
	"nv12":        {2, 1, 1, 8, AlignNone, "VK_FORMAT_G8_B8R8_2PLANE_420_UNORM", false, 0},
	"nv21":        {2, 1, 1, 8, AlignNone, "VK_FORMAT_G8_B8R8_2PLANE_420_UNORM", true, 0},
	"nv16":        {2, 1, 0, 8, AlignNone, "VK_FORMAT_G8_B8R8_2PLANE_422_UNORM", false, 0},
	"nv24":        {2, 0, 0, 8, AlignNone, "VK_FORMAT_G8_B8R8_2PLANE_444_UNORM", false, 0},
	"nv42":        {2, 0, 0, 8, AlignNone, "VK_FORMAT_G8_B8R8_2PLANE_444_UNORM", true, 0},
	"yuyv422":     {1, 1, 0, 8, AlignNone, "VK_FORMAT_G8B8G8R8_422_UNORM", false, 0},
	"uyvy422":     {1, 1, 0, 8, AlignNone, "VK_FORMAT_B8G8R8G8_422_UNORM", false, 0},
	"yvyu422":     {1, 1, 0, 8, AlignNone, "VK_FORMAT_G8B8G8R8_422_UNORM", true, 0},
	"y210le":      {1, 1, 0, 10, AlignMSB, "VK_FORMAT_G10X6B10X6G10X6R10X6_422_UNORM_4PACK16", false, 0},
	"p010le":      {2, 1, 1, 10, AlignMSB, "VK_FORMAT_G10X6_B10X6R10X6_2PLANE_420_UNORM_3PACK16", false, 0},
	"p210le":      {2, 1, 0, 10, AlignMSB, "VK_FORMAT_G10X6_B10X6R10X6_2PLANE_422_UNORM_3PACK16", false, 0},
	"p410le":      {2, 0, 0, 10, AlignMSB, "VK_FORMAT_G10X6_B10X6R10X6_2PLANE_444_UNORM_3PACK16", false, 0},
	"p016le":      {2, 1, 1, 16, AlignNone, "VK_FORMAT_G16_B16R16_2PLANE_420_UNORM", false, 0},
	"p216le":      {2, 1, 0, 16, AlignNone, "VK_FORMAT_G16_B16R16_2PLANE_422_UNORM", false, 0},
	"p416le":      {2, 0, 0, 16, AlignNone, "VK_FORMAT_G16_B16R16_2PLANE_444_UNORM", false, 0},
	"yuv420p10le": {3, 1, 1, 10, AlignLSB, "VK_FORMAT_G10X6_B10X6_R10X6_3PLANE_420_UNORM_3PACK16", false, 6},
	"yuv422p10le": {3, 1, 0, 10, AlignLSB, "VK_FORMAT_G10X6_B10X6_R10X6_3PLANE_422_UNORM_3PACK16", false, 6},
	"yuv444p10le": {3, 0, 0, 10, AlignLSB, "VK_FORMAT_G10X6_B10X6_R10X6_3PLANE_444_UNORM_3PACK16", false, 6},
	"yuv420p12le": {3, 1, 1, 12, AlignLSB, "VK_FORMAT_G12X4_B12X4_R12X4_3PLANE_420_UNORM_3PACK16", false, 4},
	"yuv422p12le": {3, 1, 0, 12, AlignLSB, "VK_FORMAT_G12X4_B12X4_R12X4_3PLANE_422_UNORM_3PACK16", false, 4},
	"yuv444p12le": {3, 0, 0, 12, AlignLSB, "VK_FORMAT_G12X4_B12X4_R12X4_3PLANE_444_UNORM_3PACK16", false, 4},
	"nv20le":      {2, 1, 0, 10, AlignLSB, "VK_FORMAT_G10X6_B10X6R10X6_2PLANE_422_UNORM_3PACK16", false, 6},
	"yuv420p16le": {3, 1, 1, 16, AlignNone, "VK_FORMAT_G16_B16_R16_3PLANE_420_UNORM", false, 0},
	"yuv422p16le": {3, 1, 0, 16, AlignNone, "VK_FORMAT_G16_B16_R16_3PLANE_422_UNORM", false, 0},
	"yuv444p16le": {3, 0, 0, 16, AlignNone, "VK_FORMAT_G16_B16_R16_3PLANE_444_UNORM", false, 0},
	"gray":        {1, 0, 0, 8, AlignNone, "", false, 0},
	"gray10le":    {1, 0, 0, 10, AlignLSB, "", false, 0},
	"gray12le":    {1, 0, 0, 12, AlignLSB, "", false, 0},
	"gray16le":    {1, 0, 0, 16, AlignNone, "", false, 0},
}

// The rows the table must hold at least.
var requiredRows = []string{
	"yuv420p", "yuvj420p", "yuv422p", "yuvj422p", "yuv444p", "yuvj444p", "nv12", "nv21", "nv16", "nv24",
	"nv42", "yuyv422", "uyvy422", "yvyu422", "p010le", "p016le", "p210le", "p410le", "yuv420p10le",
	"yuv422p10le", "yuv444p10le", "yuv420p12le", "yuv420p16le", "gray", "gray10le",
}

func TestTableRowsAsDocumented(t *testing.T) {
	for _, name := range requiredRows {
		if _, ok := Lookup(name); !ok {
			t.Errorf("required row %s missing", name)
		}
	}
	seen := map[string]bool{}
	for _, pf := range All() {
		if seen[pf.Name] {
			t.Errorf("%s: duplicate row", pf.Name)
		}
		seen[pf.Name] = true
		w, ok := wantRows[pf.Name]
		if !ok {
			t.Errorf("%s: no expectation typed in wantRows", pf.Name)
			continue
		}
		got := rowWant{len(pf.Planes), pf.Log2ChromaW, pf.Log2ChromaH, pf.Depth, pf.Align, "", pf.SwapCbCr, pf.SamplerShift}
		if pf.VkFormat != VkUndefined {
			got.vk = pf.VkFormat.String()
		}
		if got != w {
			t.Errorf("%s:\n got %+v\nwant %+v", pf.Name, got, w)
		}
	}
	for name := range wantRows {
		if !seen[name] {
			t.Errorf("%s: expected but not in the table", name)
		}
	}
}

// texelChannel is the channel that component c of texel k of a view with n components per texel reads
// from a plane whose texels hold chans (samples of equal size, in memory order).
func texelChannel(chans []Channel, n, k, c int) Channel {
	return chans[(k*n+c)%len(chans)]
}

func TestTableInvariants(t *testing.T) {
	swaps := map[string]bool{}
	for _, pf := range All() {
		pf := pf
		t.Run(pf.Name, func(t *testing.T) {
			packed := len(pf.Planes) == 1 && len(pf.Planes[0].Channels) == 4
			sampleBytes := pf.ContainerBits / 8

			// Depth, container and alignment agree.
			switch pf.Align {
			case AlignNone:
				if pf.Depth != pf.ContainerBits || (pf.Depth != 8 && pf.Depth != 16) {
					t.Errorf("AlignNone with depth %d in %d bits", pf.Depth, pf.ContainerBits)
				}
			case AlignLSB, AlignMSB:
				if pf.ContainerBits != 16 || pf.Depth <= 8 || pf.Depth >= 16 {
					t.Errorf("aligned depth %d in %d bits", pf.Depth, pf.ContainerBits)
				}
			}
			if pf.FullRange != strings.HasPrefix(pf.Name, "yuvj") {
				t.Errorf("FullRange = %v", pf.FullRange)
			}
			if pf.Gray != strings.HasPrefix(pf.Name, "gray") || pf.HasChroma() == pf.Gray {
				t.Errorf("Gray = %v, HasChroma = %v", pf.Gray, pf.HasChroma())
			}

			// Channels: Y once (twice in a packed block), Cb and Cr once each unless gray.
			count := map[Channel]int{}
			for i, p := range pf.Planes {
				for _, c := range p.Channels {
					count[c]++
				}
				if p.BytesPerTexel != len(p.Channels)*sampleBytes {
					t.Errorf("plane %d: %d bytes per texel for %d samples of %d bytes", i, p.BytesPerTexel, len(p.Channels), sampleBytes)
				}
				hasY := false
				for _, c := range p.Channels {
					hasY = hasY || c == Y
				}
				// A plane is chroma-sized when it holds no luma, or when its texel is a 2×1 block.
				if p.Chroma != (!hasY || packed) {
					t.Errorf("plane %d: Chroma = %v", i, p.Chroma)
				}
			}
			wantY, wantC := 1, 1
			if packed {
				wantY = 2
			}
			if pf.Gray {
				wantC = 0
			}
			if count[Y] != wantY || count[Cb] != wantC || count[Cr] != wantC {
				t.Errorf("channel counts Y=%d Cb=%d Cr=%d, want %d/%d/%d", count[Y], count[Cb], count[Cr], wantY, wantC, wantC)
			}

			// Textures: shader-readable 8/16-bit formats of the container size (never X6/X4), whose
			// texel grid covers exactly the plane's bytes.
			for i, tx := range pf.Textures {
				if tx.Plane < 0 || tx.Plane >= len(pf.Planes) {
					t.Errorf("texture %d: plane %d does not exist", i, tx.Plane)
					continue
				}
				info, ok := singlePlaneInfo[tx.VkFormat]
				if !ok || info.bits != pf.ContainerBits {
					t.Errorf("texture %d: %s is not a %d-bit UNORM format", i, tx.VkFormat, pf.ContainerBits)
					continue
				}
				p := pf.Planes[tx.Plane]
				for _, sz := range [][2]int{{8, 4}, {7, 5}, {1920, 1080}} {
					tw, th := pf.TextureSize(i, sz[0], sz[1])
					pw, ph := pf.PlaneSize(tx.Plane, sz[0], sz[1])
					if th != ph {
						t.Errorf("texture %d at %v: %d rows, plane has %d", i, sz, th, ph)
					}
					// Odd widths of packed layouts leave the luma view one sample short of the last
					// block, which is padding.
					tb, pb := tw*info.components*sampleBytes, pw*p.BytesPerTexel
					if tb != pb && !(packed && !tx.Chroma && sz[0]%2 == 1 && pb-tb == sampleBytes*info.components) {
						t.Errorf("texture %d at %v: %d bytes per row, plane has %d", i, sz, tb, pb)
					}
				}
			}
			if len(pf.Textures) == 0 {
				t.Error("no textures")
			}

			// Sources point at an existing texture component that holds the channel in every texel.
			chans := []Channel{Y, Cb, Cr}
			if pf.Gray {
				chans = chans[:1]
			}
			for _, c := range chans {
				s := pf.Sources[c]
				if s.Texture < 0 || s.Texture >= len(pf.Textures) {
					t.Errorf("%s: texture %d does not exist", c, s.Texture)
					continue
				}
				tx := pf.Textures[s.Texture]
				n := singlePlaneInfo[tx.VkFormat].components
				if s.Component < 0 || s.Component >= n {
					t.Errorf("%s: component %d of %s", c, s.Component, tx.VkFormat)
					continue
				}
				if tx.Chroma != (c != Y) {
					t.Errorf("%s: read from texture %d with Chroma = %v", c, s.Texture, tx.Chroma)
				}
				plane := pf.Planes[tx.Plane].Channels
				for k := 0; k < len(plane); k++ {
					if got := texelChannel(plane, n, k, s.Component); got != c {
						t.Errorf("%s: texel %d component %d of texture %d reads %s", c, k, s.Component, s.Texture, got)
					}
				}
			}

			// Sampler path.
			if pf.SwapCbCr {
				swaps[pf.Name] = true
			}
			if pf.Gray {
				if pf.VkFormat != VkUndefined || pf.SamplerShift != 0 || pf.SwapCbCr || !strings.Contains(pf.NoSamplerReason, "01655") {
					t.Errorf("gray: VkFormat %s, shift %d, swap %v, reason %q", pf.VkFormat, pf.SamplerShift, pf.SwapCbCr, pf.NoSamplerReason)
				}
				return
			}
			if pf.NoSamplerReason != "" {
				t.Errorf("NoSamplerReason %q on a row with a sampler format", pf.NoSamplerReason)
			}
			facts, ok := pf.VkFormat.Facts()
			if !ok {
				t.Fatalf("%s is not in the facts table", pf.VkFormat)
			}
			if facts.Planes != len(pf.Planes) || facts.Log2ChromaW != pf.Log2ChromaW || facts.Log2ChromaH != pf.Log2ChromaH {
				t.Errorf("%s: %d planes %d,%d; row %d planes %d,%d", pf.VkFormat, facts.Planes, facts.Log2ChromaW,
					facts.Log2ChromaH, len(pf.Planes), pf.Log2ChromaW, pf.Log2ChromaH)
			}
			if facts.Bits != pf.Depth {
				t.Errorf("%s has %d bits, row depth %d", pf.VkFormat, facts.Bits, pf.Depth)
			}
			xname := strings.Contains(pf.VkFormat.String(), "X6") || strings.Contains(pf.VkFormat.String(), "X4")
			if pf.Align == AlignLSB {
				if pf.SamplerShift != 16-pf.Depth || !xname {
					t.Errorf("LSB row: shift %d into %s", pf.SamplerShift, pf.VkFormat)
				}
			} else if pf.SamplerShift != 0 {
				t.Errorf("shift %d on a %v row", pf.SamplerShift, pf.Align)
			}
			if pf.Align == AlignMSB && !xname {
				t.Errorf("MSB row with %s", pf.VkFormat)
			}
			// Plane formats and component order: Y→G, Cb→B, Cr→R, then the swizzle swaps B and R.
			letter := map[Channel]byte{Y: 'G', Cb: 'B', Cr: 'R'}
			if pf.SwapCbCr {
				letter[Cb], letter[Cr] = 'R', 'B'
			}
			for i, p := range pf.Planes {
				if i >= len(facts.PlaneFormats) {
					break
				}
				if p.VkFormat != facts.PlaneFormats[i] {
					t.Errorf("plane %d: %s, %s's plane format is %s", i, p.VkFormat, pf.VkFormat, facts.PlaneFormats[i])
				}
				var b []byte
				for _, c := range p.Channels {
					b = append(b, letter[c])
				}
				if string(b) != facts.Components[i] {
					t.Errorf("plane %d: holds %s as Vulkan sees it (swap %v), %s has %s", i, b, pf.SwapCbCr, pf.VkFormat, facts.Components[i])
				}
			}
		})
	}
	if len(swaps) != 3 || !swaps["nv21"] || !swaps["nv42"] || !swaps["yvyu422"] {
		t.Errorf("swizzled rows %v, want exactly nv21, nv42, yvyu422", swaps)
	}
}

// TestShaderSources checks the (texture, component) pairs of each layout, typed by hand.
func TestShaderSources(t *testing.T) {
	r, g, b, a := 0, 1, 2, 3
	for name, want := range map[string][3]Source{
		"yuyv422":     {{0, r}, {1, g}, {1, a}}, // Y0 Cb Y1 Cr
		"uyvy422":     {{0, g}, {1, r}, {1, b}}, // Cb Y0 Cr Y1
		"yvyu422":     {{0, r}, {1, a}, {1, g}}, // Y0 Cr Y1 Cb
		"nv12":        {{0, r}, {1, r}, {1, g}},
		"nv21":        {{0, r}, {1, g}, {1, r}},
		"yuv420p":     {{0, r}, {1, r}, {2, r}},
		"yuv420p10le": {{0, r}, {1, r}, {2, r}},
		"p010le":      {{0, r}, {1, r}, {1, g}},
	} {
		pf, _ := Lookup(name)
		if pf == nil || pf.Sources != want {
			t.Errorf("%s: Sources %v, want %v", name, pf.Sources, want)
		}
	}
	// Texture formats, typed.
	for name, want := range map[string][]Texture{
		"yuyv422":     {{0, VkR8G8Unorm, false}, {0, VkR8G8B8A8Unorm, true}},
		"y210le":      {{0, VkR16G16Unorm, false}, {0, VkR16G16B16A16Unorm, true}},
		"nv12":        {{0, VkR8Unorm, false}, {1, VkR8G8Unorm, true}},
		"p010le":      {{0, VkR16Unorm, false}, {1, VkR16G16Unorm, true}},
		"yuv420p10le": {{0, VkR16Unorm, false}, {1, VkR16Unorm, true}, {2, VkR16Unorm, true}},
		"gray10le":    {{0, VkR16Unorm, false}},
	} {
		pf, _ := Lookup(name)
		if len(pf.Textures) != len(want) {
			t.Errorf("%s: textures %v, want %v", name, pf.Textures, want)
			continue
		}
		for i := range want {
			if pf.Textures[i] != want[i] {
				t.Errorf("%s texture %d: %v, want %v", name, i, pf.Textures[i], want[i])
			}
		}
	}
	// Plane formats, typed.
	for name, want := range map[string][]VkFormat{
		"nv12":        {VkR8Unorm, VkR8G8Unorm},
		"p010le":      {VkR10X6UnormPack16, VkR10X6G10X6Unorm2Pack16},
		"yuv420p10le": {VkR10X6UnormPack16, VkR10X6UnormPack16, VkR10X6UnormPack16},
		"yuv420p12le": {VkR12X4UnormPack16, VkR12X4UnormPack16, VkR12X4UnormPack16},
		"p016le":      {VkR16Unorm, VkR16G16Unorm},
		"yuyv422":     {VkR8G8B8A8Unorm},
		"gray":        {VkR8Unorm},
		"gray10le":    {VkR16Unorm},
	} {
		pf, _ := Lookup(name)
		for i, p := range pf.Planes {
			if i >= len(want) || p.VkFormat != want[i] {
				t.Errorf("%s plane %d: %s, want %v", name, i, p.VkFormat, want)
			}
		}
	}
}

func TestLookupAndAll(t *testing.T) {
	a, b := All(), All()
	if len(a) != len(b) || len(a) < len(requiredRows) {
		t.Fatalf("All: %d then %d rows", len(a), len(b))
	}
	names := Names()
	for i := range a {
		if a[i] != b[i] || names[i] != a[i].Name {
			t.Errorf("row %d: order not stable", i)
		}
		if pf, ok := Lookup(a[i].Name); !ok || pf != a[i] {
			t.Errorf("Lookup(%s) does not return the row", a[i].Name)
		}
	}
	a[0] = nil
	if All()[0] == nil {
		t.Error("All returns the table itself")
	}
	for _, bad := range []string{"", "YUV420P", "yuv420", "nv61"} {
		if pf, ok := Lookup(bad); ok || pf != nil {
			t.Errorf("Lookup(%q) = %v, %v", bad, pf, ok)
		}
	}
}

func TestSizes(t *testing.T) {
	type size struct{ w, h int }
	for _, tc := range []struct {
		name     string
		w, h     int
		sub      string
		chroma   size
		planes   []size
		textures []size
	}{
		{"yuv420p", 1920, 1080, "4:2:0", size{960, 540}, []size{{1920, 1080}, {960, 540}, {960, 540}}, []size{{1920, 1080}, {960, 540}, {960, 540}}},
		{"yuv420p", 5, 3, "4:2:0", size{3, 2}, []size{{5, 3}, {3, 2}, {3, 2}}, []size{{5, 3}, {3, 2}, {3, 2}}},
		{"nv12", 7, 7, "4:2:0", size{4, 4}, []size{{7, 7}, {4, 4}}, []size{{7, 7}, {4, 4}}},
		{"yuv422p", 5, 3, "4:2:2", size{3, 3}, []size{{5, 3}, {3, 3}, {3, 3}}, []size{{5, 3}, {3, 3}, {3, 3}}},
		{"nv24", 5, 3, "4:4:4", size{5, 3}, []size{{5, 3}, {5, 3}}, []size{{5, 3}, {5, 3}}},
		{"yuyv422", 5, 3, "4:2:2", size{3, 3}, []size{{3, 3}}, []size{{5, 3}, {3, 3}}},
		{"yuyv422", 1280, 720, "4:2:2", size{640, 720}, []size{{640, 720}}, []size{{1280, 720}, {640, 720}}},
		{"gray", 5, 3, "4:0:0", size{0, 0}, []size{{5, 3}}, []size{{5, 3}}},
	} {
		pf, _ := Lookup(tc.name)
		if s := pf.Subsampling(); s != tc.sub {
			t.Errorf("%s: Subsampling %q, want %q", tc.name, s, tc.sub)
		}
		if w, h := pf.ChromaSize(tc.w, tc.h); (size{w, h}) != tc.chroma {
			t.Errorf("%s %dx%d: ChromaSize %dx%d, want %v", tc.name, tc.w, tc.h, w, h, tc.chroma)
		}
		for i, want := range tc.planes {
			if w, h := pf.PlaneSize(i, tc.w, tc.h); (size{w, h}) != want {
				t.Errorf("%s %dx%d: PlaneSize(%d) %dx%d, want %v", tc.name, tc.w, tc.h, i, w, h, want)
			}
		}
		for i, want := range tc.textures {
			if w, h := pf.TextureSize(i, tc.w, tc.h); (size{w, h}) != want {
				t.Errorf("%s %dx%d: TextureSize(%d) %dx%d, want %v", tc.name, tc.w, tc.h, i, w, h, want)
			}
		}
		// Out of range and bad sizes: zero, no panic.
		for _, args := range [][3]int{{-1, 4, 4}, {len(pf.Planes), 4, 4}, {0, 0, 4}, {0, -3, 4}} {
			if w, h := pf.PlaneSize(args[0], args[1], args[2]); w != 0 || h != 0 {
				t.Errorf("%s: PlaneSize%v = %d,%d", tc.name, args, w, h)
			}
		}
		for _, args := range [][3]int{{-1, 4, 4}, {len(pf.Textures), 4, 4}, {0, 4, 0}} {
			if w, h := pf.TextureSize(args[0], args[1], args[2]); w != 0 || h != 0 {
				t.Errorf("%s: TextureSize%v = %d,%d", tc.name, args, w, h)
			}
		}
	}
	for _, pf := range All() {
		want := map[[2]int]string{{1, 1}: "4:2:0", {1, 0}: "4:2:2", {0, 0}: "4:4:4"}[[2]int{pf.Log2ChromaW, pf.Log2ChromaH}]
		if pf.Gray {
			want = "4:0:0"
		}
		if pf.Subsampling() != want {
			t.Errorf("%s: Subsampling %q, want %q", pf.Name, pf.Subsampling(), want)
		}
	}
}

func TestShaderScale(t *testing.T) {
	for name, want := range map[string]float64{
		"yuv420p":     1,
		"yuyv422":     1,
		"yuv420p16le": 1,
		"p016le":      1,
		"gray16le":    1,
		"yuv420p10le": 65535.0 / 1023,
		"gray10le":    65535.0 / 1023,
		"yuv420p12le": 65535.0 / 4095,
		"p010le":      65535.0 / (64 * 1023),
		"y210le":      65535.0 / (64 * 1023),
	} {
		pf, _ := Lookup(name)
		if got := pf.ShaderScale(); math.Abs(got-want) > 1e-12 {
			t.Errorf("%s: ShaderScale %v, want %v", name, got, want)
		}
	}
	// The property itself, for every row: store a code as the layout does, sample the container as
	// UNORM, scale, and get code/(2^Depth−1).
	for _, pf := range All() {
		maxCode := 1<<pf.Depth - 1
		for _, code := range []int{0, 1, 64, maxCode / 2, maxCode - 1, maxCode} {
			word := code
			if pf.Align == AlignMSB {
				word <<= 16 - pf.Depth
			}
			sampled := float64(word) / float64(int(1)<<pf.ContainerBits-1)
			got, want := sampled*pf.ShaderScale(), float64(code)/float64(maxCode)
			if math.Abs(got-want) > 1e-12 {
				t.Errorf("%s code %d: %v, want %v", pf.Name, code, got, want)
			}
		}
	}
}

// TestNamesMatchFFmpeg checks every table row against `ffmpeg -pix_fmts`: the name exists, with the
// component count (3, or 1 for gray), per-component bit depths and bits per pixel the row implies.
// ffmpeg is installed by scripts/install-deps.sh: a missing ffmpeg fails the test.
func TestNamesMatchFFmpeg(t *testing.T) {
	path, err := exec.LookPath("ffmpeg")
	if err != nil {
		t.Fatalf("ffmpeg not on PATH (installed by scripts/install-deps.sh): %v", err)
	}
	out, err := exec.Command(path, "-hide_banner", "-pix_fmts").Output()
	if err != nil {
		t.Fatalf("ffmpeg -pix_fmts: %v", err)
	}
	type fmtInfo struct {
		comps, bpp int
		depths     string
	}
	re := regexp.MustCompile(`(?m)^[I.][O.][H.][P.][B.]\s+(\S+)\s+(\d+)\s+(\d+)\s*(\S*)\s*$`)
	known := map[string]fmtInfo{}
	for _, m := range re.FindAllStringSubmatch(string(out), -1) {
		c, _ := strconv.Atoi(m[2])
		b, _ := strconv.Atoi(m[3])
		known[m[1]] = fmtInfo{c, b, m[4]}
	}
	if len(known) < 100 {
		t.Fatalf("parsed only %d formats from ffmpeg -pix_fmts", len(known))
	}
	for _, pf := range All() {
		got, ok := known[pf.Name]
		if !ok {
			t.Errorf("%s: not an FFmpeg pixel format", pf.Name)
			continue
		}
		comps, bpp := 3, pf.Depth+2*pf.Depth/(1<<(pf.Log2ChromaW+pf.Log2ChromaH))
		if pf.Gray {
			comps, bpp = 1, pf.Depth
		}
		depths := strings.TrimSuffix(strings.Repeat(strconv.Itoa(pf.Depth)+"-", comps), "-")
		if want := (fmtInfo{comps, bpp, depths}); got != want {
			t.Errorf("%s: ffmpeg says %+v, the row implies %+v", pf.Name, got, want)
		}
	}
}

// TestFrameBytes: the plane bytes of known layouts, counted by hand: whole texels, no row padding
// (an odd-width packed 4:2:2 row ends with a whole 2×1 block; chroma sizes round up).
func TestFrameBytes(t *testing.T) {
	for _, tc := range []struct {
		name string
		w, h int
		want int
	}{
		{"yuv420p", 1920, 1080, 3110400},
		{"yuv420p", 5, 3, 15 + 2*6},
		{"nv12", 7, 7, 49 + 4*4*2},
		{"yuyv422", 5, 3, 3 * 3 * 4},
		{"p010le", 1920, 1080, 6220800},
		{"yuv444p16le", 4, 2, 3 * 4 * 2 * 2},
		{"gray", 5, 3, 15},
	} {
		pf, _ := Lookup(tc.name)
		if got := pf.FrameBytes(tc.w, tc.h); got != tc.want {
			t.Errorf("%s %dx%d: FrameBytes %d, want %d", tc.name, tc.w, tc.h, got, tc.want)
		}
	}
}
