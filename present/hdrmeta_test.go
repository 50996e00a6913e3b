package present_test

import (
	"testing"

	"github.com/ycbcrkit/ycbcrkit/internal/testkit/oracletest"
	"github.com/ycbcrkit/ycbcrkit/internal/vkx"
	"github.com/ycbcrkit/ycbcrkit/present"
)

// TestHDRMetadataEXT decodes the PQ colour vector (testvectors/colour/pq.mkv) and converts its static
// metadata to VkHdrMetadataEXT. testvectors/colour.sh gave x265
// master-display=G(8500,39850)B(6550,2300)R(35400,14600)WP(15635,16450)L(40000000,50) and
// max-cll=1000,400: SMPTE ST 2086 codes, chromaticities in steps of 0.00002 and luminance in steps of
// 0.0001 cd/m², the primaries in the SEI's order green, blue, red. By hand: red (0.708, 0.292), green
// (0.170, 0.797), blue (0.131, 0.046), white (0.3127, 0.3290) — BT.2020 Table 3's primaries and D65 —
// 4000 and 0.005 cd/m², MaxCLL 1000 and MaxFALL 400 cd/m² (CTA-861.3, whole cd/m²). The chain
// x265 → HEVC SEI → FFmpeg's AVMasteringDisplayMetadata (r, g, b) → decode → VkHdrMetadataEXT must
// give exactly those values as float32, each in its member.
func TestHDRMetadataEXT(t *testing.T) {
	f := oracletest.FirstFrame(t, "../testvectors/colour/pq.mkv")
	h := f.Color.HDR
	chroma := func(x, y int) vkx.XY {
		return vkx.XY{X: float32(float64(x) * 0.00002), Y: float32(float64(y) * 0.00002)}
	}
	want := vkx.HDRMetadata{
		Red: chroma(35400, 14600), Green: chroma(8500, 39850), Blue: chroma(6550, 2300), White: chroma(15635, 16450),
		MaxLuminance: float32(40000000 * 0.0001), MinLuminance: float32(50 * 0.0001),
		MaxCLL: 1000, MaxFALL: 400,
	}
	got := present.HDRMetadataEXT(h)
	if got != want {
		t.Errorf("VkHdrMetadataEXT of %v:\n got %+v\nwant %+v", h, got, want)
	}
	// The same in the standard's decimals (BT.2020 Table 3, D65).
	bt2020 := vkx.HDRMetadata{Red: vkx.XY{X: 0.708, Y: 0.292}, Green: vkx.XY{X: 0.170, Y: 0.797}, Blue: vkx.XY{X: 0.131, Y: 0.046},
		White: vkx.XY{X: 0.3127, Y: 0.3290}, MaxLuminance: 4000, MinLuminance: 0.005, MaxCLL: 1000, MaxFALL: 400}
	if got != bt2020 {
		t.Errorf("VkHdrMetadataEXT %+v, want BT.2020's primaries and D65: %+v", got, bt2020)
	}
	t.Logf("%s → %+v", h, got)
}
