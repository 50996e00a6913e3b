package check

import (
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/internal/testkit/vktest"
	"github.com/ycbcrkit/ycbcrkit/internal/vkx"
)

// plantedFault is one fault the fault layer (layers/faults) plants below the checker, and the
// symptom the checker must name for it. docs/conformance/faults.md has the same table.
type plantedFault struct {
	name string // YCBCRKIT_FAULT
	// formats and combos keep the CI run small: the combinations the fault changes (all of them with
	// YCBCRKIT_FAULTS_WIDE=1, for a device run).
	formats, combos string
	strict          bool   // -strict: the fault is within the spec's allowance otherwise
	symptom         string // must be among the run's findings
	// control is the claim-only fault whose run must pass for this fault to be shown: the layer
	// claims feature bits the device may lack, so the device must honour what is claimed.
	control string
	// nothingToPlant, when set, says why the device leaves the fault nothing to change, from the
	// real optimal-tiling features of the first format ("" when there is something).
	nothingToPlant func(feats vk.FormatFeatureFlags) string
}

var plantedFaults = []plantedFault{
	{name: "swap-offsets", formats: "nv12", combos: "709-narrow-*", symptom: SymptomOffsetsSwapped, control: "claim"},
	{name: "midpoint-as-cosited", formats: "nv12", combos: "709-narrow-center-*", symptom: SymptomSitingBoth, control: "claim"},
	{name: "cosited-as-midpoint", formats: "nv12", combos: "709-narrow-topleft-linear-*", symptom: SymptomSitingBoth},
	{name: "y-offset-flipped", formats: "nv12", combos: "709-narrow-*", symptom: SymptomSitingY, control: "claim"},
	{name: "narrow-as-full", formats: "nv12", combos: "709-narrow-*", symptom: SymptomNarrowAsFull},
	{name: "601-as-709", formats: "nv12", combos: "601-narrow-*", symptom: SymptomMatrixPrefix + "YCBCR_601 sampled as YCBCR_709"},
	{name: "swap-cbcr", formats: "nv12", combos: "709-narrow-*", symptom: SymptomCbCrSwapped},
	{name: "cr-from-cb", formats: "nv12", combos: "709-narrow-*", symptom: SymptomCrFromCb},
	{name: "linear-as-nearest", formats: "nv12", combos: "709-narrow-*-linear-*", symptom: SymptomAllNearest},
	{name: "explicit-ignored", formats: "nv12", combos: "709-narrow-*-forced-explicit", symptom: SymptomExplicitIgnored, control: "claim-explicit"},
	{name: "midpoint-unhonoured", formats: "nv12", combos: "709-narrow-center-*", symptom: SymptomSitingBoth,
		nothingToPlant: func(f vk.FormatFeatureFlags) string {
			if has(f, vk.FormatFeatureMidpointChromaSamplesBit) {
				return "the device offers MIDPOINT_CHROMA_SAMPLES: nothing to claim"
			}
			return ""
		}},
	{name: "cosited-nearest-as-midpoint", formats: "nv12", combos: "709-narrow-topleft-nearest-implicit", strict: true, symptom: SymptomSitingBoth},
	{name: "x6-lsb", formats: "p010le", combos: "709-narrow-*-linear-implicit", symptom: SymptomX6LowBits},
	{name: "no-conversion", formats: "nv12", combos: "709-narrow-*", symptom: SymptomNoConversion},
}

// faultLayer builds the fault layer into a temporary folder (make layer: the system C compiler and
// the Vulkan headers of libvulkan-dev), or takes YCBCRKIT_FAULT_LAYER, a folder holding one built
// elsewhere (the GPU machine has no compiler).
func faultLayer(t *testing.T) string {
	if dir := os.Getenv("YCBCRKIT_FAULT_LAYER"); dir != "" {
		return dir
	}
	if _, err := exec.LookPath("cc"); err != nil {
		t.Skip("no C compiler to build the fault layer (set YCBCRKIT_FAULT_LAYER to a built one)")
	}
	dir := t.TempDir()
	out, err := exec.Command("make", "-s", "-C", "../..", "layer", "LAYER="+dir).CombinedOutput()
	if err != nil {
		t.Fatalf("make layer: %v\n%s", err, out)
	}
	return dir
}

// TestPlantedFaults plants each driver fault with the fault layer below the checker, the validation
// layer above it (VK_LAYER_YCBCRKIT_validated_faults orders them), on one device: each run must fail
// and name the planted symptom among its findings, the controls (no fault, claims only) must pass,
// and the validation layer must stay silent: the checker's calls are valid for the device the
// layer pretends to be, and the layer itself makes none it could see.
func TestPlantedFaults(t *testing.T) {
	start := time.Now()
	dir := faultLayer(t)
	t.Setenv("VK_ADD_LAYER_PATH", dir)
	t.Setenv("VK_INSTANCE_LAYERS", "VK_LAYER_YCBCRKIT_validated_faults")
	t.Setenv("YCBCRKIT_FAULT", "")
	dev := vktest.Open(t)
	wide := os.Getenv("YCBCRKIT_FAULTS_WIDE") == "1"
	run := func(fault, layouts, combos string, strict bool) *Report {
		t.Helper()
		os.Setenv("YCBCRKIT_FAULT", fault) // the layer reads it at each call
		opts := Options{Formats: strings.Split(layouts, ","), SkipSystems: true, Strict: strict}
		if !wide && combos != "" {
			opts.Combos = []string{combos}
		}
		rep, err := Run(dev, opts)
		if err != nil {
			t.Fatalf("%s: %v", fault, err)
		}
		if rep.Totals.Combinations == 0 {
			t.Fatalf("%s: nothing checked", fault)
		}
		return rep
	}
	// Controls: the layer loaded with no fault, and with only the claims, changes nothing. A control
	// that fails means the device does not honour what the layer claims: its faults cannot be shown.
	controls := map[string]string{}
	for _, c := range []struct{ fault, combos string }{{"", "709-narrow-*"}, {"claim", "709-narrow-*"}, {"claim-explicit", "709-narrow-*-forced-explicit"}} {
		rep := run(c.fault, "nv12,p010le", c.combos, false)
		if !rep.OK() {
			controls[c.fault] = "fails"
			for _, f := range rep.Findings {
				controls[c.fault] += ": " + f.Symptom
			}
			if c.fault == "" || c.fault == "claim" {
				t.Errorf("control %q: %d of %d combinations fail (%s)", c.fault, rep.Totals.Failed, rep.Totals.Combinations, controls[c.fault])
			}
		}
	}
	for _, pf := range plantedFaults {
		t.Run(pf.name, func(t *testing.T) {
			if why := controls[pf.control]; why != "" {
				t.Skipf("not shown on %s: its control %q %s", dev.Info.Name, pf.control, why)
			}
			if pf.nothingToPlant != nil {
				os.Setenv("YCBCRKIT_FAULT", "") // the driver's own features
				first, _ := formats.Lookup(strings.Split(pf.formats, ",")[0])
				if why := pf.nothingToPlant(vkx.FormatProperties(dev.Physical, uint32(first.VkFormat)).Optimal); why != "" {
					t.Skipf("not shown on %s: %s", dev.Info.Name, why)
				}
			}
			rep := run(pf.name, pf.formats, pf.combos, pf.strict)
			if rep.OK() {
				t.Fatalf("not caught: %d combinations pass", rep.Totals.Combinations)
			}
			var named []string
			for _, f := range rep.Findings {
				named = append(named, f.Symptom)
				if f.Symptom == pf.symptom {
					return
				}
			}
			t.Errorf("caught (%d of %d combinations fail) but %q is not among the findings %q", rep.Totals.Failed, rep.Totals.Combinations, pf.symptom, named)
		})
	}
	// The CTS loophole is within the spec: without -strict the run passes, and names it.
	if rep := run("cosited-nearest-as-midpoint", "nv12", "709-narrow-topleft-nearest-implicit", false); !rep.OK() ||
		len(rep.Findings) != 1 || rep.Findings[0].Symptom != SymptomPermitted {
		t.Errorf("cosited-nearest-as-midpoint without -strict: OK %v, findings %+v", rep.OK(), rep.Findings)
	}
	os.Setenv("YCBCRKIT_FAULT", "")
	t.Logf("%d faults planted in %.1f s", len(plantedFaults), time.Since(start).Seconds())
}
