package formats

import (
	"encoding/xml"
	"math/bits"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// The project's install script installs libvulkan-dev, which provides both files. A missing file is a
// broken setup, not a reason to skip.
const (
	vulkanHeader = "/usr/include/vulkan/vulkan_core.h"
	vkXMLPath    = "/usr/share/vulkan/registry/vk.xml"
)

// headerEnums reads every `NAME = decimal,` enumerant of vulkan_core.h.
func headerEnums(t *testing.T) map[string]uint64 {
	t.Helper()
	b, err := os.ReadFile(vulkanHeader)
	if err != nil {
		t.Fatalf("reading the Vulkan header (installed by scripts/install-deps.sh): %v", err)
	}
	re := regexp.MustCompile(`(?m)^\s+(VK_[A-Z0-9_]+) = (\d+),?\s*$`)
	out := map[string]uint64{}
	for _, m := range re.FindAllStringSubmatch(string(b), -1) {
		v, err := strconv.ParseUint(m[2], 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		out[m[1]] = v
	}
	if len(out) < 1000 {
		t.Fatalf("only %d enumerants parsed from %s", len(out), vulkanHeader)
	}
	return out
}

func TestVkFormatValuesMatchHeader(t *testing.T) {
	enums := headerEnums(t)
	if len(vkFormatNames) < 45 {
		t.Fatalf("only %d VkFormat names", len(vkFormatNames))
	}
	for f, name := range vkFormatNames {
		v, ok := enums[name]
		if !ok {
			t.Errorf("%s: not in %s", name, vulkanHeader)
			continue
		}
		if uint64(f) != v {
			t.Errorf("%s = %d here, %d in the header", name, uint32(f), v)
		}
		if f.String() != name {
			t.Errorf("VkFormat(%d).String() = %q, want %q", uint32(f), f.String(), name)
		}
	}
	// Spot checks typed from the header, so that a wrong name table cannot pass on its own.
	for f, want := range map[VkFormat]uint32{
		VkR8Unorm: 9, VkR8G8Unorm: 16, VkR8G8B8A8Unorm: 37, VkR16Unorm: 70, VkR16G16Unorm: 77,
		VkR16G16B16A16Unorm: 91, VkG8_B8_R8_3Plane420Unorm: 1000156002, VkG8_B8R8_2Plane420Unorm: 1000156003,
		VkG8_B8R8_2Plane444Unorm: 1000330000, VkG16_B16R16_2Plane444Unorm: 1000330003,
	} {
		if uint32(f) != want {
			t.Errorf("%s = %d, want %d", f, uint32(f), want)
		}
	}
	if s := VkFormat(12345).String(); s != "VkFormat(12345)" {
		t.Errorf("unknown format String() = %q", s)
	}
}

func TestVulkanEnumsMatchHeader(t *testing.T) {
	enums := headerEnums(t)
	check := func(name string, got uint32) {
		t.Helper()
		v, ok := enums[name]
		if !ok {
			t.Errorf("%s: not in the header", name)
		} else if uint64(got) != v {
			t.Errorf("%s = %d here, %d in the header", name, got, v)
		}
	}
	for _, m := range []Model{ModelRGBIdentity, ModelYCbCrIdentity, ModelYCbCr709, ModelYCbCr601, ModelYCbCr2020} {
		check(m.String(), uint32(m))
	}
	for _, r := range []YcbcrRange{RangeITUFull, RangeITUNarrow} {
		check(r.String(), uint32(r))
	}
	for _, o := range []ChromaOffset{CositedEven, Midpoint} {
		check(o.String(), uint32(o))
	}
	// The names themselves, typed from the header.
	want := map[string]uint32{
		"VK_SAMPLER_YCBCR_MODEL_CONVERSION_RGB_IDENTITY":   uint32(ModelRGBIdentity),
		"VK_SAMPLER_YCBCR_MODEL_CONVERSION_YCBCR_IDENTITY": uint32(ModelYCbCrIdentity),
		"VK_SAMPLER_YCBCR_MODEL_CONVERSION_YCBCR_709":      uint32(ModelYCbCr709),
		"VK_SAMPLER_YCBCR_MODEL_CONVERSION_YCBCR_601":      uint32(ModelYCbCr601),
		"VK_SAMPLER_YCBCR_MODEL_CONVERSION_YCBCR_2020":     uint32(ModelYCbCr2020),
		"VK_SAMPLER_YCBCR_RANGE_ITU_FULL":                  uint32(RangeITUFull),
		"VK_SAMPLER_YCBCR_RANGE_ITU_NARROW":                uint32(RangeITUNarrow),
		"VK_CHROMA_LOCATION_COSITED_EVEN":                  uint32(CositedEven),
		"VK_CHROMA_LOCATION_MIDPOINT":                      uint32(Midpoint),
	}
	for name, v := range want {
		check(name, v)
	}
	if Model(9).String() != "Model(9)" || YcbcrRange(5).String() != "YcbcrRange(5)" || ChromaOffset(7).String() != "ChromaOffset(7)" {
		t.Error("String() of unknown Vulkan enum values")
	}
}

// vk.xml's <formats> section, as far as the facts table needs it.
type vkXMLComponent struct {
	Name       string `xml:"name,attr"`
	Bits       string `xml:"bits,attr"`
	PlaneIndex string `xml:"planeIndex,attr"`
}

type vkXMLPlane struct {
	Index         int    `xml:"index,attr"`
	WidthDivisor  int    `xml:"widthDivisor,attr"`
	HeightDivisor int    `xml:"heightDivisor,attr"`
	Compatible    string `xml:"compatible,attr"`
}

type vkXMLFormat struct {
	Name       string           `xml:"name,attr"`
	BlockSize  int              `xml:"blockSize,attr"`
	Chroma     string           `xml:"chroma,attr"`
	Components []vkXMLComponent `xml:"component"`
	Planes     []vkXMLPlane     `xml:"plane"`
}

func readVkXMLFormats(t *testing.T) map[string]vkXMLFormat {
	t.Helper()
	f, err := os.Open(vkXMLPath)
	if err != nil {
		t.Fatalf("opening vk.xml (libvulkan-dev, installed by scripts/install-deps.sh): %v", err)
	}
	defer f.Close()
	var reg struct {
		Formats []vkXMLFormat `xml:"formats>format"`
	}
	if err := xml.NewDecoder(f).Decode(&reg); err != nil {
		t.Fatalf("parsing vk.xml: %v", err)
	}
	out := map[string]vkXMLFormat{}
	for _, x := range reg.Formats {
		out[x.Name] = x
	}
	if len(out) < 100 {
		t.Fatalf("only %d formats in vk.xml", len(out))
	}
	return out
}

func log2Divisor(t *testing.T, d int) int {
	t.Helper()
	if d <= 0 || d&(d-1) != 0 {
		t.Fatalf("divisor %d is not a power of two", d)
	}
	return bits.TrailingZeros(uint(d))
}

// TestFactsMatchVkXML checks the one facts table against vk.xml: which formats require a conversion
// (those with a chroma attribute: the generator of the validation layers' FormatRequiresYcbcrConversion
// uses the same rule), plane counts, subsampling, bits, plane-compatible formats and component order.
func TestFactsMatchVkXML(t *testing.T) {
	x := readVkXMLFormats(t)
	var want []string
	for name, f := range x {
		if f.Chroma != "" {
			want = append(want, name)
		}
	}
	var got []string
	for _, f := range MultiPlanarFormats {
		got = append(got, f.String())
	}
	sort.Strings(want)
	sort.Strings(got)
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("MultiPlanarFormats differs from vk.xml's formats with a chroma attribute:\n got %v\nwant %v", got, want)
	}
	if !sort.SliceIsSorted(MultiPlanarFormats, func(i, j int) bool { return MultiPlanarFormats[i] < MultiPlanarFormats[j] }) {
		t.Error("MultiPlanarFormats is not in VkFormat order")
	}

	for _, f := range MultiPlanarFormats {
		facts, ok := f.Facts()
		if !ok || facts.Format != f || !f.RequiresConversion() {
			t.Fatalf("%s: no facts", f)
		}
		xf, ok := x[f.String()]
		if !ok {
			continue // reported above
		}
		planes := len(xf.Planes)
		if planes == 0 {
			planes = 1
		}
		if facts.Planes != planes || len(facts.PlaneFormats) != planes || len(facts.Components) != planes {
			t.Errorf("%s: %d planes (%d plane formats, %d component lists), vk.xml has %d",
				f, facts.Planes, len(facts.PlaneFormats), len(facts.Components), planes)
			continue
		}
		// Subsampling: the divisors of the chroma plane, or the chroma attribute for one plane.
		var lw, lh int
		if len(xf.Planes) > 1 {
			lw, lh = log2Divisor(t, xf.Planes[1].WidthDivisor), log2Divisor(t, xf.Planes[1].HeightDivisor)
			if xf.Planes[0].WidthDivisor != 1 || xf.Planes[0].HeightDivisor != 1 {
				t.Errorf("%s: plane 0 is subsampled in vk.xml", f)
			}
		} else {
			s, ok := map[string][2]int{"420": {1, 1}, "422": {1, 0}, "444": {0, 0}}[xf.Chroma]
			if !ok {
				t.Errorf("%s: chroma %q", f, xf.Chroma)
			}
			lw, lh = s[0], s[1]
		}
		if facts.Log2ChromaW != lw || facts.Log2ChromaH != lh {
			t.Errorf("%s: log2 chroma %d,%d; vk.xml %d,%d", f, facts.Log2ChromaW, facts.Log2ChromaH, lw, lh)
		}
		comps := make([]string, planes)
		for _, c := range xf.Components {
			if c.Bits != strconv.Itoa(facts.Bits) {
				t.Errorf("%s: component %s has %s bits, facts say %d", f, c.Name, c.Bits, facts.Bits)
			}
			p := 0
			if c.PlaneIndex != "" {
				p, _ = strconv.Atoi(c.PlaneIndex)
			}
			if p < planes {
				comps[p] += c.Name
			}
		}
		for i := range comps {
			if comps[i] != facts.Components[i] {
				t.Errorf("%s plane %d: components %q, vk.xml %q", f, i, facts.Components[i], comps[i])
			}
		}
		if len(xf.Planes) > 0 {
			for _, p := range xf.Planes {
				if p.Index >= planes || facts.PlaneFormats[p.Index].String() != p.Compatible {
					t.Errorf("%s plane %d: compatible %s, facts say %v", f, p.Index, p.Compatible, facts.PlaneFormats)
				}
			}
		} else {
			// A single-plane format's plane format has the same texel size and bits.
			pf := facts.PlaneFormats[0]
			xp, ok := x[pf.String()]
			if !ok {
				t.Errorf("%s: plane format %s not in vk.xml", f, pf)
				continue
			}
			if xp.BlockSize != xf.BlockSize {
				t.Errorf("%s (%d bytes): plane format %s has %d bytes", f, xf.BlockSize, pf, xp.BlockSize)
			}
			if info := singlePlaneInfo[pf]; info.bits != facts.Bits || info.components != 4 {
				t.Errorf("%s: plane format %s is not a 4-component %d-bit format", f, pf, facts.Bits)
			}
		}
	}
	if _, ok := VkR8Unorm.Facts(); ok || VkR8Unorm.RequiresConversion() {
		t.Error("R8 has facts")
	}
}

// TestSinglePlaneInfoMatchesVkXML checks the component counts and bits of the plane/texture formats.
func TestSinglePlaneInfoMatchesVkXML(t *testing.T) {
	x := readVkXMLFormats(t)
	for f, info := range singlePlaneInfo {
		xf, ok := x[f.String()]
		if !ok {
			t.Errorf("%s: not in vk.xml", f)
			continue
		}
		if len(xf.Components) != info.components || len(xf.Planes) != 0 {
			t.Errorf("%s: %d components and %d planes in vk.xml, want %d and 0", f, len(xf.Components), len(xf.Planes), info.components)
		}
		for _, c := range xf.Components {
			if c.Bits != strconv.Itoa(info.bits) {
				t.Errorf("%s: component %s bits %s, want %d", f, c.Name, c.Bits, info.bits)
			}
		}
	}
}

func TestFactsReturnsCopies(t *testing.T) {
	a, _ := VkG8_B8R8_2Plane420Unorm.Facts()
	a.PlaneFormats[0] = VkR16Unorm
	a.Components[0] = "X"
	b, _ := VkG8_B8R8_2Plane420Unorm.Facts()
	if b.PlaneFormats[0] != VkR8Unorm || b.Components[0] != "G" {
		t.Error("Facts exposes the table's slices")
	}
}
