package check

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/internal/vkx"
	"github.com/ycbcrkit/ycbcrkit/testvectors/synth"
	"github.com/ycbcrkit/ycbcrkit/ycbcr/oracle"
)

func feats(bits ...vk.FormatFeatureFlagBits) vk.FormatFeatureFlags {
	var f vk.FormatFeatureFlags
	for _, b := range bits {
		f |= vk.FormatFeatureFlags(b)
	}
	return f
}

const (
	sampled   = vk.FormatFeatureSampledImageBit
	cosited   = vk.FormatFeatureCositedChromaSamplesBit
	midpoint  = vk.FormatFeatureMidpointChromaSamplesBit
	linear    = vk.FormatFeatureSampledImageYcbcrConversionLinearFilterBit
	explicit  = vk.FormatFeatureSampledImageYcbcrConversionChromaReconstructionExplicitBit
	forceable = vk.FormatFeatureSampledImageYcbcrConversionChromaReconstructionExplicitForceableBit
)

func notOfferedCount(p plan) map[string]int {
	m := map[string]int{}
	for _, n := range p.notOffered {
		m[n.What] += n.Combinations
	}
	return m
}

// TestPlan checks the enumeration against feature sets lavapipe does not have.
func TestPlan(t *testing.T) {
	nv12, _ := formats.Lookup("nv12")
	yuv422p, _ := formats.Lookup("yuv422p")
	yuv444p, _ := formats.Lookup("yuv444p")
	f420, f422, f444 := formats.VkG8_B8R8_2Plane420Unorm, formats.VkG8_B8_R8_3Plane422Unorm, formats.VkG8_B8_R8_3Plane444Unorm

	// The mandatory minimum (COSITED only) with LINEAR: one siting, two filters, implicit only.
	p := makePlan(f420, feats(sampled, cosited, linear), nv12, false)
	if len(p.combos) != 9*2 {
		t.Errorf("COSITED+LINEAR: %d combinations, want 18", len(p.combos))
	}
	got := notOfferedCount(p)
	want := map[string]int{"MIDPOINT x offset": 9 * 2 * 2 * 2, "MIDPOINT y offset": 9 * 2 * 2, "forced explicit reconstruction": 18}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("COSITED+LINEAR not offered: %v, want %v", got, want)
	}
	for _, c := range p.combos {
		if c.Location != formats.ChromaTopLeft || c.Explicit || c.Force {
			t.Errorf("COSITED+LINEAR combination %s", c)
		}
		if c.Model == formats.ModelRGBIdentity && c.Range != formats.RangeITUFull {
			t.Errorf("RGB identity with %s", c.Range)
		}
	}

	// Everything: 9 × 4 sitings × 2 filters × 2 reconstructions, the explicit half forced.
	p = makePlan(f420, feats(sampled, cosited, midpoint, linear, forceable), nv12, false)
	if len(p.combos) != 144 || len(p.notOffered) != 0 {
		t.Errorf("all features: %d combinations, %d not offered", len(p.combos), len(p.notOffered))
	}
	locs := map[formats.ChromaLocation]int{}
	for _, c := range p.combos {
		locs[c.Location]++
		if c.Explicit != c.Force {
			t.Errorf("%s: explicit %v, forced %v", c, c.Explicit, c.Force)
		}
	}
	if len(locs) != 4 {
		t.Errorf("sitings %v, want left, center, topleft, top", locs)
	}

	// CHROMA_RECONSTRUCTION_EXPLICIT: always explicit, never forced.
	p = makePlan(f422, feats(sampled, midpoint, linear, explicit, forceable), yuv422p, false)
	for _, c := range p.combos {
		if !c.Explicit || c.Force || c.Location != formats.ChromaCenter {
			t.Errorf("EXPLICIT format: %s explicit %v forced %v", c, c.Explicit, c.Force)
		}
		if c.ShaderComparable() {
			t.Errorf("%s: the shader path does not implement explicit reconstruction", c)
		}
	}
	if len(p.combos) != 9*2 || notOfferedCount(p)["implicit reconstruction"] != 18 || notOfferedCount(p)["COSITED_EVEN x offset"] != 36 {
		t.Errorf("EXPLICIT format: %d combinations, not offered %v", len(p.combos), notOfferedCount(p))
	}

	// 4:4:4: offsets have no effect, one siting; quick keeps two models (three model/range pairs).
	p = makePlan(f444, feats(sampled, midpoint), yuv444p, true)
	if len(p.combos) != 3 || notOfferedCount(p)["LINEAR chroma filter"] != 6 {
		t.Errorf("4:4:4 quick: %d combinations, not offered %v", len(p.combos), notOfferedCount(p))
	}
	if n := p.combos[0].Name(); n != "rgb_identity-full-nosub-nearest-implicit" {
		t.Errorf("name %q", n)
	}

	for _, tc := range []struct {
		f      vk.FormatFeatureFlags
		layout *formats.PixelFormat
		reason string
	}{
		{feats(cosited, linear), nv12, "SAMPLED_IMAGE"},
		{feats(sampled, linear), nv12, "01650"},
		{feats(sampled, cosited), nil, "not exercised (no layout in formats)"},
	} {
		p := makePlan(f420, tc.f, tc.layout, false)
		if len(p.combos) != 0 || len(p.notOffered) != 1 || !strings.Contains(p.skip, tc.reason) || p.notOffered[0].What != "whole format" {
			t.Errorf("features %#x: skip %q, %d combinations, want whole format %q", tc.f, p.skip, len(p.combos), tc.reason)
		}
	}
}

func TestCombinationTerms(t *testing.T) {
	nv21, _ := formats.Lookup("nv21")
	c := Combination{Format: nv21.VkFormat, Layout: nv21, Model: formats.ModelYCbCr601, Range: formats.RangeITUNarrow,
		XOffset: formats.CositedEven, YOffset: formats.Midpoint, Location: formats.ChromaLeft, Filter: vk.FilterLinear}
	if k := c.Key(); !k.SwapCbCr || k.ChromaFilter != vk.FilterLinear || k.ForceExplicit {
		t.Errorf("key %s", k)
	}
	o := c.Oracle()
	if o.Model != oracle.Model601 || o.Range != oracle.RangeNarrow || o.SwapCbCr || o.XChromaPos != 0 || o.YChromaPos != 0.5 ||
		o.LumaFilter != oracle.Linear || o.ChromaFilter != oracle.Linear || o.X6 {
		t.Errorf("oracle params %+v", o)
	}
	// The shader path's own oracle parameters must agree with the checker's.
	want, err := OracleParams(nv21, c.Params())
	if err != nil {
		t.Fatal(err)
	}
	if want.XChromaPos != o.XChromaPos || want.YChromaPos != o.YChromaPos || want.Range != o.Range || want.Kr != 0.299 {
		t.Errorf("OracleParams %+v vs %+v", want, o)
	}
	if c.Name() != "601-narrow-left-linear-implicit" {
		t.Errorf("name %q", c.Name())
	}
}

// TestStrictParams checks the way the checker tells "permitted" pixels apart: the nudged positions
// must drop the MIDPOINT alternative and nothing else.
func TestStrictParams(t *testing.T) {
	pf, _ := formats.Lookup("yuv420p")
	f, err := synth.SitingProbe(pf, 16, 8)
	if err != nil {
		t.Fatal(err)
	}
	pic := OraclePicture(f)
	c := Combination{Format: pf.VkFormat, Layout: pf, Model: formats.ModelYCbCr709, Range: formats.RangeITUNarrow,
		XOffset: formats.CositedEven, YOffset: formats.CositedEven, Location: formats.ChromaTopLeft, Filter: vk.FilterNearest}
	if !c.cositedNearest() {
		t.Fatal("implicit NEAREST COSITED not recognised")
	}
	prm := c.Oracle()
	strict := strictParams(c, prm)
	mid := prm
	mid.XChromaPos, mid.YChromaPos = oracle.PosMidpoint, oracle.PosMidpoint
	tol := oracle.HardwareTolerance(8, 8)
	tol.UnormBits = 8
	differ := 0
	for y := 0; y < 16; y++ {
		for x := 0; x < 32; x++ { // the off-centre grid, where COSITED and MIDPOINT pick different texels
			u, v := (float64(x)+0.5)/32, (float64(y)+0.5)/16
			union := oracle.SampleBounds(pic, prm, u, v, tol)
			s := oracle.SampleBounds(pic, strict, u, v, tol)
			for ch := 0; ch < 3; ch++ {
				if s.Lo[ch] < union.Lo[ch] || s.Hi[ch] > union.Hi[ch] {
					t.Fatalf("(%d,%d): strict bounds %v not inside the union %v", x, y, s, union)
				}
			}
			if m := oracle.Sample(pic, mid, u, v); !s.Contains(clamp(m)) {
				differ++
				if !union.Contains(clamp(m)) {
					t.Fatalf("(%d,%d): the MIDPOINT value %v is outside the union %v", x, y, m, union)
				}
			}
		}
	}
	if differ == 0 {
		t.Fatal("no pixel where MIDPOINT behaviour is outside the strict bounds: the probe cannot show permitted pixels")
	}
}

func clamp(v [4]float64) [4]float64 {
	for i := range v {
		v[i] = max(0, min(1, v[i]))
	}
	return v
}

func TestSelectFormats(t *testing.T) {
	all, err := selectFormats(nil)
	if err != nil || len(all) != len(formats.MultiPlanarFormats) {
		t.Fatalf("all: %d, %v", len(all), err)
	}
	sel, err := selectFormats([]string{"nv21", " vk_format_g8_b8_r8_3plane_420_unorm", "G16_B16R16_2PLANE_420_UNORM", "nv21"})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range sel {
		got = append(got, s.format.String()+"/"+s.layout.Name)
	}
	want := "VK_FORMAT_G8_B8_R8_3PLANE_420_UNORM/yuv420p VK_FORMAT_G8_B8R8_2PLANE_420_UNORM/nv21 VK_FORMAT_G16_B16R16_2PLANE_420_UNORM/p016le"
	if strings.Join(got, " ") != want {
		t.Errorf("got %v, want %s", got, want)
	}
	for _, bad := range [][]string{{"nope"}, {"gray"}, {"nv12", "nv21"}, {" "}} {
		if _, err := selectFormats(bad); err == nil || !strings.HasPrefix(err.Error(), "check: ") {
			t.Errorf("%q: error %v", bad, err)
		}
	}
	if Representative(formats.VkG12X4_B12X4R12X4_2Plane420Unorm3Pack16) != nil {
		t.Error("a table row for G12X4 2-plane 4:2:0 appeared: update the expectations")
	}
	if pf := Representative(formats.VkG10X6_B10X6R10X6_2Plane422Unorm3Pack16); pf == nil || pf.Name != "p210le" {
		t.Errorf("representative of 10-bit 2-plane 4:2:2: %v (want the MSB-aligned p210le over nv20le)", pf)
	}
}

// TestDeviceLostStops checks that a device fault ends the run and is named, while other Vulkan
// errors only fail their combination.
func TestDeviceLostStops(t *testing.T) {
	lost := fmt.Errorf("gpu: %w", &vkx.Error{Call: "vkQueueSubmit", Result: vk.ErrorDeviceLost})
	err := stop("NV12 709-narrow-topleft-linear-implicit", lost)
	if err == nil || !IsDeviceLost(err) || !strings.Contains(err.Error(), "device lost (VK_ERROR_DEVICE_LOST)") {
		t.Errorf("device lost: %v", err)
	}
	if err := stop("x", &vkx.Error{Call: "vkCreateImage", Result: vk.ErrorOutOfDeviceMemory}); err != nil {
		t.Errorf("out of memory stopped the run: %v", err)
	}
	if err := stop("x", errors.New("plain")); err != nil {
		t.Errorf("plain error stopped the run: %v", err)
	}
}

func TestMandatoryFeatures(t *testing.T) {
	full := feats(sampled, cosited, vk.FormatFeatureTransferSrcBit, vk.FormatFeatureTransferDstBit)
	if m := mandatoryMissing(formats.VkG8_B8R8_2Plane420Unorm, full); len(m) != 0 {
		t.Errorf("complete features reported missing: %v", m)
	}
	m := mandatoryMissing(formats.VkG8_B8_R8_3Plane420Unorm, feats(sampled, midpoint))
	if len(m) != 3 || !strings.Contains(m[0], "TRANSFER_SRC_BIT") || !strings.Contains(m[2], "COSITED_CHROMA_SAMPLES_BIT") {
		t.Errorf("missing: %q", m)
	}
	rep := Report{MandatoryMissing: m}
	if rep.OK() {
		t.Error("a report with missing mandatory features is OK")
	}
}
