package check

import (
	"fmt"
	"sort"
	"strings"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/ycbcr"
	"github.com/ycbcrkit/ycbcrkit/ycbcr/oracle"
)

// Combination is one conversion setting the checker runs on one format.
type Combination struct {
	Format           formats.VkFormat
	Layout           *formats.PixelFormat // the table row frames are made in
	Model            formats.Model
	Range            formats.YcbcrRange
	XOffset, YOffset formats.ChromaOffset
	// Location is the FFmpeg siting with these offsets on the subsampled axes, for the shader path
	// (center for 4:4:4, where siting has no effect).
	Location formats.ChromaLocation
	Filter   vk.Filter // chromaFilter, and the sampler's min/magFilter (as ycbcr.Conversion makes it)
	Explicit bool      // chroma reconstruction is explicit (forced, or by the format)
	Force    bool      // forceExplicitReconstruction is set
}

// Key is the sampler path's conversion for c. The components swizzle is identity except for table
// rows that store Cr before Cb, which get the Cb/Cr swap.
func (c Combination) Key() ycbcr.Key {
	return ycbcr.Key{Format: c.Format, Model: c.Model, Range: c.Range, XOffset: c.XOffset, YOffset: c.YOffset,
		ChromaFilter: c.Filter, SwapCbCr: c.Layout.SwapCbCr, ForceExplicit: c.Force}
}

// ShaderComparable reports whether the shader path implements c: it reconstructs chroma by
// bilinear interpolation at the sited coordinate, which is LINEAR implicit reconstruction only.
func (c Combination) ShaderComparable() bool { return c.Filter == vk.FilterLinear && !c.Explicit }

// Params is c in the shader path's terms.
func (c Combination) Params() ycbcr.Params {
	p := ycbcr.Params{Range: formats.RangeFull, ChromaLocation: c.Location}
	if c.Range == formats.RangeITUNarrow {
		p.Range = formats.RangeLimited
	}
	switch c.Model {
	case formats.ModelRGBIdentity:
		p.Matrix = formats.MatrixRGB
	case formats.ModelYCbCrIdentity:
		p.Matrix, p.YCbCrIdentity = formats.MatrixBT709, true // the matrix is not used
	case formats.ModelYCbCr709:
		p.Matrix = formats.MatrixBT709
	case formats.ModelYCbCr601:
		p.Matrix = formats.MatrixSMPTE170M
	case formats.ModelYCbCr2020:
		p.Matrix = formats.MatrixBT2020NCL
	}
	return p
}

// Oracle is c in the oracle's terms for the sampler path. The frames' codes are already in Cb/Cr
// order (OraclePicture reads channels, not memory), so SwapCbCr stays false even for the rows
// the conversion swizzles.
func (c Combination) Oracle() oracle.Params {
	f := oracle.Nearest
	if c.Filter == vk.FilterLinear {
		f = oracle.Linear
	}
	o := oracle.Params{
		// Both enums are in Vulkan's order.
		Model: oracle.Model(c.Model), Range: oracle.Range(c.Range),
		LumaFilter: f, ChromaFilter: f, Explicit: c.Explicit, X6: c.Layout.Depth == 10,
	}
	pos := func(off formats.ChromaOffset) float64 {
		if off == formats.Midpoint {
			return oracle.PosMidpoint
		}
		return oracle.PosCositedEven
	}
	if c.Layout.Log2ChromaW > 0 {
		o.XChromaPos = pos(c.XOffset)
	}
	if c.Layout.Log2ChromaH > 0 {
		o.YChromaPos = pos(c.YOffset)
	}
	return o
}

// cositedNearest reports whether the spec lets the device behave as MIDPOINT here (implicit NEAREST
// with a COSITED_EVEN subsampled axis, textures.adoc §Implicit Reconstruction).
func (c Combination) cositedNearest() bool {
	if c.Filter != vk.FilterNearest || c.Explicit {
		return false
	}
	return (c.Layout.Log2ChromaW > 0 && c.XOffset == formats.CositedEven) ||
		(c.Layout.Log2ChromaH > 0 && c.YOffset == formats.CositedEven)
}

// Name is a short file-name-safe slug: model-range-siting-filter-reconstruction.
func (c Combination) Name() string {
	rec := "implicit"
	if c.Explicit {
		rec = "explicit"
		if c.Force {
			rec = "forced-explicit"
		}
	}
	return strings.Join([]string{shortModel(c.Model), shortRange(c.Range), c.Siting(),
		strings.ToLower(filterName(c.Filter)), rec}, "-")
}

// Siting names the offsets of the subsampled axes: the FFmpeg location, or "nosub" for 4:4:4.
func (c Combination) Siting() string {
	if c.Layout.Log2ChromaW == 0 && c.Layout.Log2ChromaH == 0 {
		return "nosub"
	}
	return c.Location.String()
}

func (c Combination) String() string { return shortFormat(c.Format) + " " + c.Name() }

func shortFormat(f formats.VkFormat) string { return strings.TrimPrefix(f.String(), "VK_FORMAT_") }

func shortModel(m formats.Model) string {
	switch m {
	case formats.ModelRGBIdentity:
		return "rgb_identity"
	case formats.ModelYCbCrIdentity:
		return "ycbcr_identity"
	case formats.ModelYCbCr709:
		return "709"
	case formats.ModelYCbCr601:
		return "601"
	case formats.ModelYCbCr2020:
		return "2020"
	}
	return fmt.Sprintf("model%d", uint32(m))
}

func shortRange(r formats.YcbcrRange) string {
	if r == formats.RangeITUNarrow {
		return "narrow"
	}
	return "full"
}

func offsetName(o formats.ChromaOffset) string {
	return strings.TrimPrefix(o.String(), "VK_CHROMA_LOCATION_")
}

func filterName(f vk.Filter) string {
	if f == vk.FilterLinear {
		return "LINEAR"
	}
	return "NEAREST"
}

// location maps offsets on the subsampled axes to FFmpeg's chroma location (docs/ycbcr-math.md
// §7.3): (cos,mid) = left, (mid,mid) = center, (cos,cos) = topleft, (mid,cos) = top. An axis that
// is not subsampled counts as MIDPOINT, so 4:2:2 gets left or center and 4:4:4 center.
func location(x, y formats.ChromaOffset, lw, lh int) formats.ChromaLocation {
	xc := lw > 0 && x == formats.CositedEven
	yc := lh > 0 && y == formats.CositedEven
	switch {
	case xc && yc:
		return formats.ChromaTopLeft
	case xc:
		return formats.ChromaLeft
	case yc:
		return formats.ChromaTop
	}
	return formats.ChromaCenter
}

// NotOffered is a group of combinations the device does not offer (or the checker cannot run), with
// the reason: the missing feature bit and the VUID that makes it required.
type NotOffered struct {
	Format string `json:"format"`
	Layout string `json:"layout,omitempty"`
	// What describes the group ("MIDPOINT x offset", "LINEAR chroma filter", "whole format").
	What string `json:"what"`
	// Combinations counts the settings in the group; 0 for a whole format (the setting space of a
	// format the device cannot sample is not defined).
	Combinations int    `json:"combinations"`
	Reason       string `json:"reason"`
}

// plan is what the checker does with one format.
type plan struct {
	format     formats.VkFormat
	facts      formats.FormatFacts
	layout     *formats.PixelFormat // nil: no table row
	features   vk.FormatFeatureFlags
	combos     []Combination
	notOffered []NotOffered
	skip       string // why the whole format is not exercised; "" when it is
}

func has(f vk.FormatFeatureFlags, b vk.FormatFeatureFlagBits) bool {
	return f&vk.FormatFeatureFlags(b) != 0
}

var quickModels = []formats.Model{formats.ModelRGBIdentity, formats.ModelYCbCr709}

var allModels = []formats.Model{formats.ModelRGBIdentity, formats.ModelYCbCrIdentity, formats.ModelYCbCr709,
	formats.ModelYCbCr601, formats.ModelYCbCr2020}

// makePlan enumerates the setting space of one format against its optimal-tiling features: the
// combinations to run, and the rest grouped by the first rule that excludes them. It does not
// touch a device, so tests can feed it any feature set.
func makePlan(f formats.VkFormat, feats vk.FormatFeatureFlags, layout *formats.PixelFormat, quick bool) plan {
	facts, _ := f.Facts()
	p := plan{format: f, facts: facts, layout: layout, features: feats}
	lname := ""
	if layout != nil {
		lname = layout.Name
	}
	whole := func(reason string) plan {
		p.skip = reason
		p.notOffered = []NotOffered{{Format: f.String(), Layout: lname, What: "whole format", Reason: reason}}
		return p
	}
	cos, mid := has(feats, vk.FormatFeatureCositedChromaSamplesBit), has(feats, vk.FormatFeatureMidpointChromaSamplesBit)
	switch {
	case !has(feats, vk.FormatFeatureSampledImageBit):
		return whole("no SAMPLED_IMAGE_BIT in optimal tiling features: the device cannot sample it")
	case !cos && !mid:
		return whole("neither COSITED_CHROMA_SAMPLES_BIT nor MIDPOINT_CHROMA_SAMPLES_BIT: no conversion may use it " +
			"(VUID-VkSamplerYcbcrConversionCreateInfo-format-01650)")
	case layout == nil:
		return whole("not exercised (no layout in formats): the pixel-format table has no row to make frames in")
	}
	// The space: offsets both ways on subsampled axes, one (supported) value on the others.
	axis := func(subsampled bool) []formats.ChromaOffset {
		if subsampled {
			return []formats.ChromaOffset{formats.CositedEven, formats.Midpoint}
		}
		if cos {
			return []formats.ChromaOffset{formats.CositedEven}
		}
		return []formats.ChromaOffset{formats.Midpoint}
	}
	models := allModels
	if quick {
		models = quickModels
	}
	explicitFormat := has(feats, vk.FormatFeatureSampledImageYcbcrConversionChromaReconstructionExplicitBit)
	groups := map[[2]string]int{}
	var order [][2]string
	exclude := func(what, reason string) {
		k := [2]string{what, reason}
		if groups[k] == 0 {
			order = append(order, k)
		}
		groups[k]++
	}
	for _, m := range models {
		ranges := []formats.YcbcrRange{formats.RangeITUFull, formats.RangeITUNarrow}
		if m == formats.ModelRGBIdentity {
			// RGB_IDENTITY applies no range expansion: narrow would repeat full exactly.
			ranges = ranges[:1]
		}
		for _, r := range ranges {
			for _, x := range axis(facts.Log2ChromaW > 0) {
				for _, y := range axis(facts.Log2ChromaH > 0) {
					for _, filter := range []vk.Filter{vk.FilterNearest, vk.FilterLinear} {
						for _, explicit := range []bool{false, true} {
							c := Combination{Format: f, Layout: layout, Model: m, Range: r, XOffset: x, YOffset: y,
								Location: location(x, y, facts.Log2ChromaW, facts.Log2ChromaH), Filter: filter,
								Explicit: explicit, Force: explicit && !explicitFormat}
							if what, reason := excluded(c, facts, feats); reason != "" {
								exclude(what, reason)
								continue
							}
							p.combos = append(p.combos, c)
						}
					}
				}
			}
		}
	}
	for _, k := range order {
		p.notOffered = append(p.notOffered, NotOffered{Format: f.String(), Layout: lname, What: k[0], Combinations: groups[k], Reason: k[1]})
	}
	return p
}

// excluded returns why the device does not offer c (the first rule that fails), or "".
func excluded(c Combination, facts formats.FormatFacts, feats vk.FormatFeatureFlags) (what, reason string) {
	if c.Range == formats.RangeITUNarrow && facts.Bits < 8 {
		return "ITU_NARROW range", "fewer than 8 bits per component (VUID-VkSamplerYcbcrConversionCreateInfo-ycbcrRange-02748)"
	}
	for _, a := range []struct {
		name string
		sub  bool
		off  formats.ChromaOffset
	}{{"x", facts.Log2ChromaW > 0, c.XOffset}, {"y", facts.Log2ChromaH > 0, c.YOffset}} {
		if !a.sub {
			continue
		}
		if a.off == formats.CositedEven && !has(feats, vk.FormatFeatureCositedChromaSamplesBit) {
			return "COSITED_EVEN " + a.name + " offset", "no COSITED_CHROMA_SAMPLES_BIT (VUID-VkSamplerYcbcrConversionCreateInfo-xChromaOffset-01651)"
		}
		if a.off == formats.Midpoint && !has(feats, vk.FormatFeatureMidpointChromaSamplesBit) {
			return "MIDPOINT " + a.name + " offset", "no MIDPOINT_CHROMA_SAMPLES_BIT (VUID-VkSamplerYcbcrConversionCreateInfo-xChromaOffset-01652)"
		}
	}
	if c.Filter == vk.FilterLinear && !has(feats, vk.FormatFeatureSampledImageYcbcrConversionLinearFilterBit) {
		return "LINEAR chroma filter", "no SAMPLED_IMAGE_YCBCR_CONVERSION_LINEAR_FILTER_BIT (VUID-VkSamplerYcbcrConversionCreateInfo-chromaFilter-01657)"
	}
	explicitFormat := has(feats, vk.FormatFeatureSampledImageYcbcrConversionChromaReconstructionExplicitBit)
	if !c.Explicit && explicitFormat {
		return "implicit reconstruction", "the format has CHROMA_RECONSTRUCTION_EXPLICIT_BIT: reconstruction is always explicit"
	}
	if c.Explicit && !explicitFormat && !has(feats, vk.FormatFeatureSampledImageYcbcrConversionChromaReconstructionExplicitForceableBit) {
		return "forced explicit reconstruction", "no CHROMA_RECONSTRUCTION_EXPLICIT_FORCEABLE_BIT (VUID-VkSamplerYcbcrConversionCreateInfo-forceExplicitReconstruction-01656)"
	}
	return "", ""
}

// featureNames lists the Y′CbCr-relevant feature bits set in f, in a fixed order.
func featureNames(f vk.FormatFeatureFlags) []string {
	bits := []struct {
		b    vk.FormatFeatureFlagBits
		name string
	}{
		{vk.FormatFeatureSampledImageBit, "SAMPLED_IMAGE"},
		{vk.FormatFeatureCositedChromaSamplesBit, "COSITED_CHROMA_SAMPLES"},
		{vk.FormatFeatureMidpointChromaSamplesBit, "MIDPOINT_CHROMA_SAMPLES"},
		{vk.FormatFeatureSampledImageYcbcrConversionLinearFilterBit, "YCBCR_CONVERSION_LINEAR_FILTER"},
		{vk.FormatFeatureSampledImageYcbcrConversionSeparateReconstructionFilterBit, "YCBCR_CONVERSION_SEPARATE_RECONSTRUCTION_FILTER"},
		{vk.FormatFeatureSampledImageYcbcrConversionChromaReconstructionExplicitBit, "YCBCR_CONVERSION_CHROMA_RECONSTRUCTION_EXPLICIT"},
		{vk.FormatFeatureSampledImageYcbcrConversionChromaReconstructionExplicitForceableBit, "YCBCR_CONVERSION_CHROMA_RECONSTRUCTION_EXPLICIT_FORCEABLE"},
		{vk.FormatFeatureDisjointBit, "DISJOINT"},
	}
	var out []string
	for _, b := range bits {
		if has(f, b.b) {
			out = append(out, b.name)
		}
	}
	return out
}

// Representative picks the table row frames of format f are made in: the first row in table order,
// preferring rows that need no Cb/Cr swizzle, no shift into the container and no implied range.
// nil when the table has no row for f.
func Representative(f formats.VkFormat) *formats.PixelFormat {
	var best *formats.PixelFormat
	bestScore := 0
	for _, pf := range formats.All() {
		if pf.VkFormat != f {
			continue
		}
		s := 0
		if pf.SwapCbCr {
			s += 4
		}
		if pf.SamplerShift > 0 {
			s += 2
		}
		if pf.FullRange {
			s++
		}
		if best == nil || s < bestScore {
			best, bestScore = pf, s
		}
	}
	return best
}

// selection is one format to consider, with the table row chosen for it.
type selection struct {
	format formats.VkFormat
	layout *formats.PixelFormat
}

// selectFormats resolves Options.Formats: each item is a VkFormat name (with or without the
// VK_FORMAT_ prefix, any case) or a pixel-format name ("nv21"), which also chooses that row as the
// layout. Empty selects every format in formats.MultiPlanarFormats with its representative row.
func selectFormats(names []string) ([]selection, error) {
	if len(names) == 0 {
		out := make([]selection, 0, len(formats.MultiPlanarFormats))
		for _, f := range formats.MultiPlanarFormats {
			out = append(out, selection{f, Representative(f)})
		}
		return out, nil
	}
	byName := map[string]formats.VkFormat{}
	for _, f := range formats.MultiPlanarFormats {
		byName[strings.ToUpper(f.String())] = f
		byName[strings.ToUpper(shortFormat(f))] = f
	}
	chosen := map[formats.VkFormat]string{}
	var out []selection
	for _, raw := range names {
		n := strings.TrimSpace(raw)
		if n == "" {
			continue
		}
		var sel selection
		if f, ok := byName[strings.ToUpper(n)]; ok {
			sel = selection{f, Representative(f)}
		} else if pf, ok := formats.Lookup(strings.ToLower(n)); ok {
			if pf.VkFormat == 0 {
				return nil, fmt.Errorf("check: %s has no Vulkan Y′CbCr format: %s", pf.Name, pf.NoSamplerReason)
			}
			sel = selection{pf.VkFormat, pf}
		} else {
			return nil, fmt.Errorf("check: unknown format %q: want a VkFormat of formats.MultiPlanarFormats (G8_B8R8_2PLANE_420_UNORM) or a pixel format (%s)",
				n, strings.Join(samplerLayouts(), ", "))
		}
		if prev, dup := chosen[sel.format]; dup {
			if prev == n {
				continue
			}
			return nil, fmt.Errorf("check: %s and %s both select %s: name one", prev, n, sel.format)
		}
		chosen[sel.format] = n
		out = append(out, sel)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("check: empty format list")
	}
	// VkFormat order, as the full run, so reports compare line by line.
	sort.SliceStable(out, func(a, b int) bool { return out[a].format < out[b].format })
	return out, nil
}

func samplerLayouts() []string {
	var out []string
	for _, pf := range formats.All() {
		if pf.VkFormat != 0 {
			out = append(out, pf.Name)
		}
	}
	return out
}
