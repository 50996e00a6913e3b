package check

import (
	"fmt"
	"io"
	"math"
	"sort"
	"strings"
	"text/tabwriter"
)

// Report is the outcome of a run: what was checked, how it went, and what the device does not
// offer. It marshals to the -json document.
type Report struct {
	Device  DeviceReport `json:"device"`
	Date    string       `json:"date"`              // RFC 3339, UTC
	Command string       `json:"command,omitempty"` // filled in by the caller
	Width   int          `json:"width"`             // frame size
	Height  int          `json:"height"`
	Quick   bool         `json:"quick"`
	Fault   string       `json:"fault,omitempty"` // injected fault (tests of the checker only)
	// PlantedFault is the fault the fault layer (layers/faults) planted below the checker, from
	// YCBCRKIT_FAULT; filled in by the caller.
	PlantedFault string `json:"planted_fault,omitempty"`
	// Strict: Options.Strict (the NEAREST + COSITED allowance counted as failures).
	Strict bool `json:"strict,omitempty"`
	// Combos: Options.Combos, the combination patterns run.
	Combos  []string       `json:"combos,omitempty"`
	Seconds float64        `json:"seconds"` // wall time of the run
	Formats []FormatReport `json:"formats"`
	// NotOffered lists, grouped, every combination the device does not offer and why.
	NotOffered []NotOffered `json:"not_offered"`
	// MandatoryMissing lists format features the spec requires of every device with
	// samplerYcbcrConversion that this one lacks; any entry fails the run.
	MandatoryMissing []string `json:"mandatory_missing,omitempty"`
	// Systems are the colour systems only the shader path implements, one row each (systems.go).
	Systems []SystemReport `json:"colour_systems,omitempty"`
	Totals  Totals         `json:"totals"`
	// Findings sum the failing combinations' symptoms (PathResult.Symptoms) over the run, most
	// frequent first, then a finding for permitted pixels if any: the likely causes.
	Findings []Finding `json:"findings,omitempty"`
	// Error is set when the run stopped early (a device fault); the report holds what was done.
	Error string `json:"error,omitempty"`
}

// DeviceReport identifies the device.
type DeviceReport struct {
	Index         int    `json:"index"`
	Name          string `json:"name"`
	Type          string `json:"type"`
	APIVersion    string `json:"api_version"`
	DriverVersion string `json:"driver_version"` // decoded as the vendor encodes it
	DriverRaw     uint32 `json:"driver_version_raw"`
	// DriverName, DriverInfo: VkPhysicalDeviceDriverProperties ("llvmpipe", "Mesa 25.0.7 (LLVM
	// 15.0.6)"), where the device has Vulkan 1.2.
	DriverName   string `json:"driver_name,omitempty"`
	DriverInfo   string `json:"driver_info,omitempty"`
	VendorID     uint32 `json:"vendor_id"`
	DeviceID     uint32 `json:"device_id"`
	SubTexelBits int    `json:"sub_texel_precision_bits"`
	Validation   bool   `json:"validation"`
}

// Totals sums the formats.
type Totals struct {
	Formats      int     `json:"formats"` // formats exercised
	Combinations int     `json:"combinations"`
	Passed       int     `json:"passed"`
	Failed       int     `json:"failed"`
	Permitted    int     `json:"permitted_pixels"` // in bounds only through a spec allowance
	Pixels       int     `json:"pixels"`           // pixel comparisons, both paths
	ShaderRuns   int     `json:"shader_combinations"`
	WorstSampler float64 `json:"worst_sampler_lsb"`
	WorstShader  float64 `json:"worst_shader_lsb"`
	DiffSampler  float64 `json:"max_diff_sampler_lsb"` // over LinearRuns combinations
	DiffShader   float64 `json:"max_diff_shader_lsb"`
	LinearRuns   int     `json:"linear_combinations"`
	// SystemsFailed counts the colour systems (Report.Systems) with a pixel outside the criterion.
	SystemsFailed int `json:"colour_systems_failed"`
}

// FormatReport is one exercised format.
type FormatReport struct {
	Format       string   `json:"format"`
	Layout       string   `json:"layout"`
	Bits         int      `json:"bits"`
	Subsampling  string   `json:"subsampling"`
	Features     []string `json:"features"`
	Combinations int      `json:"combinations"`
	Passed       int      `json:"passed"`
	Failed       int      `json:"failed"`
	Permitted    int      `json:"permitted_pixels"`
	ShaderRuns   int      `json:"shader_combinations"`
	WorstSampler float64  `json:"worst_sampler_lsb"`
	WorstShader  float64  `json:"worst_shader_lsb"`
	// DiffSampler, DiffShader are the largest PathResult.MaxDiffLSB: distance from the exact value,
	// over the LINEAR combinations (LinearRuns of them).
	LinearRuns  int           `json:"linear_combinations"`
	DiffSampler float64       `json:"max_diff_sampler_lsb"`
	DiffShader  float64       `json:"max_diff_shader_lsb"`
	Seconds     float64       `json:"seconds"`
	Results     []ComboResult `json:"results"`
}

// ComboResult is one combination's outcome.
type ComboResult struct {
	Name           string      `json:"name"` // Combination.Name
	Model          string      `json:"model"`
	Range          string      `json:"range"`
	XOffset        string      `json:"x_offset"`
	YOffset        string      `json:"y_offset"`
	Location       string      `json:"siting"`
	Filter         string      `json:"filter"`
	Reconstruction string      `json:"reconstruction"`
	SwapCbCr       bool        `json:"swap_cbcr,omitempty"`
	Pass           bool        `json:"pass"`
	Error          string      `json:"error,omitempty"` // a Vulkan call failed for a setting the device offers
	Sampler        *PathResult `json:"sampler,omitempty"`
	Shader         *PathResult `json:"shader,omitempty"` // nil: the shader path does not implement the setting
	pictures       *comboPictures
}

// Finding is one symptom and how many failing combinations it explains.
type Finding struct {
	Symptom      string `json:"symptom"`
	Combinations int    `json:"combinations"`
	// Failing is how many failing combinations there are in all (a finding may explain some).
	Failing int `json:"failing"`
	// Example is the first combination it explains: "G8_B8R8_2PLANE_420_UNORM 709-narrow-...".
	Example string `json:"example"`
}

// SymptomPermitted is the finding for pixels inside the bounds only through the spec's allowance.
const SymptomPermitted = "implicit NEAREST + COSITED_EVEN sampled as MIDPOINT (the spec allows it; -strict fails it)"

// PathResult is one path's comparison with the oracle over both frames and both samplings.
type PathResult struct {
	Pixels int `json:"pixels"`
	Passed int `json:"passed"`
	Failed int `json:"failed"`
	// Permitted counts pixels inside the bounds only because of the implicit NEAREST + COSITED
	// allowance to behave as MIDPOINT: outside the COSITED-only bounds, inside their union.
	Permitted int     `json:"permitted"`
	WorstLSB  float64 `json:"worst_lsb"` // largest distance outside the bounds, 8-bit LSB
	// MaxDiffLSB is the largest difference from the oracle's exact value (clamped to the target's
	// [0,1]), in 8-bit LSB: how close the path is, not a pass criterion. LINEAR combinations only
	// (nil otherwise): NEAREST has coordinate ties where either texel is right (and implicit
	// NEAREST may treat COSITED as MIDPOINT), so it has no single exact value.
	MaxDiffLSB *float64 `json:"max_diff_lsb,omitempty"`
	Worst      string   `json:"worst,omitempty"`
	// Symptoms, for a failing path, are the fault hypotheses that explain its read-backs
	// (diagnose.go): the likely causes. Empty when none does.
	Symptoms []string  `json:"symptoms,omitempty"`
	Failures []Failure `json:"failures,omitempty"`
}

// Failure is one pixel outside the bounds.
type Failure struct {
	Frame     string   `json:"frame"`    // "noise" or "probe"
	Sampling  string   `json:"sampling"` // "centre" or "off-centre"
	X         int      `json:"x"`        // in the target (off-centre targets are twice the frame size)
	Y         int      `json:"y"`
	ExcessLSB float64  `json:"excess_lsb"`
	Got       [3]uint8 `json:"got"`
	Lo        [3]uint8 `json:"lo"` // the bounds as 8-bit codes
	Hi        [3]uint8 `json:"hi"`
}

// OK reports whether every combination is within bounds and the run finished.
func (r *Report) OK() bool {
	return r.Error == "" && r.Totals.Failed == 0 && r.Totals.SystemsFailed == 0 && len(r.MandatoryMissing) == 0
}

func (r *Report) total() {
	t := Totals{}
	for _, f := range r.Formats {
		t.Formats++
		t.Combinations += f.Combinations
		t.Passed += f.Passed
		t.Failed += f.Failed
		t.Permitted += f.Permitted
		t.ShaderRuns += f.ShaderRuns
		t.WorstSampler = math.Max(t.WorstSampler, f.WorstSampler)
		t.WorstShader = math.Max(t.WorstShader, f.WorstShader)
		t.DiffSampler = math.Max(t.DiffSampler, f.DiffSampler)
		t.DiffShader = math.Max(t.DiffShader, f.DiffShader)
		t.LinearRuns += f.LinearRuns
		for _, c := range f.Results {
			for _, p := range []*PathResult{c.Sampler, c.Shader} {
				if p != nil {
					t.Pixels += p.Pixels
				}
			}
		}
	}
	for _, s := range r.Systems {
		if !s.Pass {
			t.SystemsFailed++
		}
	}
	r.Totals = t
	r.findings()
}

// findings sums the symptoms of the failing combinations.
func (r *Report) findings() {
	count := map[string]int{}
	example := map[string]string{}
	var order []string
	for _, f := range r.Formats {
		for _, c := range f.Results {
			seen := map[string]bool{}
			for _, p := range []*PathResult{c.Sampler, c.Shader} {
				if p == nil {
					continue
				}
				for _, s := range p.Symptoms {
					if seen[s] {
						continue
					}
					seen[s] = true
					if count[s] == 0 {
						order = append(order, s)
						example[s] = shortFormatName(f.Format) + " " + c.Name
					}
					count[s]++
				}
			}
		}
	}
	sort.SliceStable(order, func(a, b int) bool { return count[order[a]] > count[order[b]] })
	r.Findings = nil
	for _, s := range order {
		r.Findings = append(r.Findings, Finding{Symptom: s, Combinations: count[s], Failing: r.Totals.Failed, Example: example[s]})
	}
	// Pixels of failing combinations may also fall within the allowance: only passing ones count.
	ex, n := "", 0
	for _, f := range r.Formats {
		for _, c := range f.Results {
			if c.Pass && c.Sampler != nil && c.Sampler.Permitted > 0 {
				if n == 0 {
					ex = shortFormatName(f.Format) + " " + c.Name
				}
				n++
			}
		}
	}
	if n > 0 {
		r.Findings = append(r.Findings, Finding{Symptom: SymptomPermitted, Combinations: n, Failing: r.Totals.Failed, Example: ex})
	}
}

func (f *FormatReport) add(c ComboResult) {
	f.Results = append(f.Results, c)
	f.Combinations++
	if c.Pass {
		f.Passed++
	} else {
		f.Failed++
	}
	if c.Sampler != nil {
		f.Permitted += c.Sampler.Permitted
		f.WorstSampler = math.Max(f.WorstSampler, c.Sampler.WorstLSB)
		if c.Sampler.MaxDiffLSB != nil {
			f.LinearRuns++
			f.DiffSampler = math.Max(f.DiffSampler, *c.Sampler.MaxDiffLSB)
		}
	}
	if c.Shader != nil {
		f.ShaderRuns++
		f.WorstShader = math.Max(f.WorstShader, c.Shader.WorstLSB)
		if c.Shader.MaxDiffLSB != nil {
			f.DiffShader = math.Max(f.DiffShader, *c.Shader.MaxDiffLSB)
		}
	}
}

func lsb(v float64, ran bool) string {
	if !ran {
		return "—"
	}
	return fmt.Sprintf("%.2f", v)
}

// WriteTable writes the per-format summary as an aligned text table, then the totals. WORST is the
// largest distance outside the oracle's bounds (0 when everything passes), DIFF the largest
// difference from the exact value over the LINEAR combinations, both in 8-bit LSB; "—" where
// nothing was measured.
func (r *Report) WriteTable(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 2, 8, 2, ' ', 0)
	fmt.Fprintln(tw, "FORMAT\tLAYOUT\tCOMBOS\tPASS\tFAIL\tSAMPLER WORST\tSAMPLER DIFF\tSHADER WORST\tSHADER DIFF\tPERMITTED PX")
	for _, f := range r.Formats {
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%d\t%s\t%s\t%s\t%s\t%d\n", shortFormatName(f.Format), f.Layout, f.Combinations, f.Passed,
			f.Failed, lsb(f.WorstSampler, f.Combinations > 0), lsb(f.DiffSampler, f.LinearRuns > 0),
			lsb(f.WorstShader, f.ShaderRuns > 0), lsb(f.DiffShader, f.ShaderRuns > 0), f.Permitted)
	}
	t := r.Totals
	fmt.Fprintf(tw, "total: %d formats\t\t%d\t%d\t%d\t%s\t%s\t%s\t%s\t%d\n", t.Formats, t.Combinations, t.Passed, t.Failed,
		lsb(t.WorstSampler, t.Combinations > 0), lsb(t.DiffSampler, t.LinearRuns > 0),
		lsb(t.WorstShader, t.ShaderRuns > 0), lsb(t.DiffShader, t.ShaderRuns > 0), t.Permitted)
	if err := tw.Flush(); err != nil {
		return err
	}
	if len(r.Systems) > 0 {
		fmt.Fprintln(tw, "\nCOLOUR SYSTEM (shader path)\tLAYOUTS\tPIXELS\tFAIL PX\tWORST\tDIFF\tCRITERION")
		for _, s := range r.Systems {
			fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%.2f\t%.2f\t%s\n", s.Name, strings.Join(s.Layouts, ","), s.Pixels, s.Failed, s.WorstLSB, s.MaxDiffLSB, s.Criterion)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
		for _, s := range r.Systems {
			if s.Error != "" {
				fmt.Fprintf(w, "%s: ERROR %s\n", s.Name, s.Error)
			}
		}
	}
	whole := 0
	for _, n := range r.NotOffered {
		if n.What == "whole format" {
			whole++
		}
	}
	_, err := fmt.Fprintf(w, "not offered: %d formats entirely, %d groups of combinations (ycbcrcheck -report DIR lists them)\n",
		whole, len(r.NotOffered)-whole)
	if err != nil {
		return err
	}
	for _, m := range r.MandatoryMissing {
		if _, err = fmt.Fprintf(w, "MANDATORY: %s\n", m); err != nil {
			return err
		}
	}
	for _, f := range r.Findings {
		if _, err = fmt.Fprintf(w, "%s: %s (%s)\n", f.label(), f.Symptom, f.count()); err != nil {
			return err
		}
	}
	if r.Error != "" {
		_, err = fmt.Fprintf(w, "stopped early: %s\n", r.Error)
	}
	return err
}

func shortFormatName(s string) string { return strings.TrimPrefix(s, "VK_FORMAT_") }

// label is how the table introduces a finding: a likely cause of failures, or a note on passing
// combinations (the spec's allowance).
func (f Finding) label() string {
	if f.Symptom == SymptomPermitted {
		return "note"
	}
	return "likely cause"
}

// count says how many combinations a finding explains.
func (f Finding) count() string {
	if f.Symptom == SymptomPermitted {
		return fmt.Sprintf("%d combinations with permitted pixels, e.g. %s", f.Combinations, f.Example)
	}
	return fmt.Sprintf("%d of %d failing combinations, e.g. %s", f.Combinations, f.Failing, f.Example)
}
