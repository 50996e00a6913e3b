package ycbcr

import (
	"testing"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/formats"
)

// TestCreateInfoEnums: every VkSamplerYcbcrConversionCreateInfo the sampler path builds from stream
// metadata carries only values its enums define, whatever the device answers: for every layout of
// the table with a Vulkan format, every chroma location FFmpeg defines (and values past them, as a
// hostile stream's metadata might carry), every matrix and range, and every combination of the
// COSITED and MIDPOINT chroma-sample features (lavapipe offers COSITED only, NVIDIA both, so no one
// device reaches every branch). Each key either is refused with an error (the shader path then
// draws, and needs no conversion object) or gives a create-info whose offsets are COSITED_EVEN or
// MIDPOINT. Where a key is made, its offsets are the ones the Vulkan specification's chroma
// reconstruction (§16.1.3, "Chroma Reconstruction") defines for the location's position per
// H.273's ChromaSampleLocType figure, independently of formats.Position: left and topleft sit on
// the even luma column, center and top half-way; topleft and top on the even row, left and center
// half-way; the bottom locations sit on the odd row, which no VkChromaLocation names, and are refused
// on a vertically subsampled layout.
func TestCreateInfoEnums(t *testing.T) {
	type pos struct{ x, y formats.ChromaOffset }
	c, m := formats.CositedEven, formats.Midpoint
	want := map[formats.ChromaLocation]pos{ // on an axis that is subsampled
		formats.ChromaLeft: {c, m}, formats.ChromaCenter: {m, m}, formats.ChromaTopLeft: {c, c}, formats.ChromaTop: {m, c},
	}
	base := vk.FormatFeatureFlags(vk.FormatFeatureSampledImageBit | vk.FormatFeatureSampledImageYcbcrConversionLinearFilterBit)
	featureSets := map[string]vk.FormatFeatureFlags{
		"cosited":  base | vk.FormatFeatureFlags(vk.FormatFeatureCositedChromaSamplesBit),
		"midpoint": base | vk.FormatFeatureFlags(vk.FormatFeatureMidpointChromaSamplesBit),
		"both":     base | vk.FormatFeatureFlags(vk.FormatFeatureCositedChromaSamplesBit|vk.FormatFeatureMidpointChromaSamplesBit),
		"neither":  base,
	}
	made, refused, bottomRefused := 0, 0, 0
	for _, pf := range formats.All() {
		if pf.VkFormat == 0 {
			continue
		}
		for fname, feats := range featureSets {
			has := func(b vk.FormatFeatureFlagBits) bool { return feats&vk.FormatFeatureFlags(b) != 0 }
			for loc := formats.ChromaLocation(-1); loc <= formats.ChromaBottom+2; loc++ {
				for _, mat := range []formats.Matrix{formats.MatrixRGB, formats.MatrixBT709, formats.MatrixBT470BG, formats.MatrixBT2020NCL, formats.MatrixYCgCo} {
					for _, rng := range []formats.Range{formats.RangeLimited, formats.RangeFull} {
						p := Params{Matrix: mat, Range: rng, ChromaLocation: loc}
						k, err := samplerKey(feats, pf, p)
						bottom := loc == formats.ChromaBottom || loc == formats.ChromaBottomLeft
						if err != nil {
							refused++
							if bottom && pf.Log2ChromaH == 1 {
								bottomRefused++
							}
							continue
						}
						made++
						ci, err := k.createInfo()
						if err != nil {
							t.Fatalf("%s %s %s: key %s has no create-info: %v", pf.Name, fname, p, k, err)
						}
						if ci.XChromaOffset > 1 || ci.YChromaOffset > 1 || ci.Model > 4 || ci.Range > 1 ||
							(ci.ChromaFilter != vk.FilterLinear && ci.ChromaFilter != vk.FilterNearest) {
							t.Fatalf("%s %s %s: create-info %+v carries a value outside its enum", pf.Name, fname, p, ci)
						}
						if bottom && pf.Log2ChromaH == 1 {
							t.Fatalf("%s %s %s: a bottom location on a vertically subsampled layout made key %s", pf.Name, fname, p, k)
						}
						if loc < formats.ChromaLeft || loc > formats.ChromaBottom {
							t.Fatalf("%s %s: chroma location %d (not an AVChromaLocation) made key %s", pf.Name, fname, int(loc), k)
						}
						// A subsampled axis carries the location's offset; the device must offer it.
						if w, ok := want[loc]; ok {
							if pf.Log2ChromaW == 1 && k.XOffset != w.x || pf.Log2ChromaH == 1 && k.YOffset != w.y {
								t.Errorf("%s %s %s: offsets x=%s y=%s, want x=%s y=%s on the subsampled axes", pf.Name, fname, p, k.XOffset, k.YOffset, w.x, w.y)
							}
						}
						for _, o := range []formats.ChromaOffset{k.XOffset, k.YOffset} {
							if o == formats.Midpoint && !has(vk.FormatFeatureMidpointChromaSamplesBit) ||
								o == formats.CositedEven && !has(vk.FormatFeatureCositedChromaSamplesBit) {
								t.Errorf("%s %s %s: offset %s the features do not offer (VUIDs 01651, 01652)", pf.Name, fname, p, o)
							}
						}
					}
				}
			}
		}
	}
	if made == 0 || bottomRefused == 0 {
		t.Fatalf("%d keys made, %d refused (%d bottom on 4:2:0): the loops reached nothing", made, refused, bottomRefused)
	}
	t.Logf("%d keys made, %d refused (%d of them bottom locations on vertically subsampled layouts)", made, refused, bottomRefused)

	// A key built by hand with values outside the enums never reaches the driver.
	good := Key{Format: formats.VkG8_B8_R8_3Plane420Unorm, Model: formats.ModelYCbCr709, Range: formats.RangeITUNarrow, ChromaFilter: vk.FilterLinear}
	if _, err := good.createInfo(); err != nil {
		t.Fatalf("a valid key: %v", err)
	}
	for name, k := range map[string]Key{
		"yChromaOffset 2": {Format: good.Format, Model: good.Model, Range: good.Range, ChromaFilter: good.ChromaFilter, YOffset: 2},
		"xChromaOffset 2": {Format: good.Format, Model: good.Model, Range: good.Range, ChromaFilter: good.ChromaFilter, XOffset: 2},
		"model 5":         {Format: good.Format, Model: 5, Range: good.Range, ChromaFilter: good.ChromaFilter},
		"range 2":         {Format: good.Format, Model: good.Model, Range: 2, ChromaFilter: good.ChromaFilter},
		"filter cubic":    {Format: good.Format, Model: good.Model, Range: good.Range, ChromaFilter: vk.Filter(1000015000)},
		"no format":       {Model: good.Model, Range: good.Range, ChromaFilter: good.ChromaFilter},
	} {
		if ci, err := k.createInfo(); err == nil {
			t.Errorf("%s: create-info %+v made", name, ci)
		}
	}
}
