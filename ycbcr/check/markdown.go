package check

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strings"
)

// heatColors: 0 frame, 1 path not run, 2 pixel within bounds, 3.. failures by excess (≤1, ≤2,
// ≤4, ≤8, ≤16, ≤32, >32 LSB), yellow to dark red.
var heatColors = color.Palette{
	color.RGBA{0x10, 0x10, 0x10, 0xff},
	color.RGBA{0x38, 0x38, 0x38, 0xff},
	color.RGBA{0xd0, 0xd0, 0xd0, 0xff},
	color.RGBA{0xff, 0xf0, 0x60, 0xff},
	color.RGBA{0xff, 0xc8, 0x30, 0xff},
	color.RGBA{0xff, 0x98, 0x20, 0xff},
	color.RGBA{0xff, 0x60, 0x10, 0xff},
	color.RGBA{0xf0, 0x20, 0x10, 0xff},
	color.RGBA{0xb0, 0x00, 0x10, 0xff},
	color.RGBA{0x70, 0x00, 0x20, 0xff},
}

func heatIndex(excessLSB float64) uint8 {
	level := int(math.Ceil(math.Log2(math.Max(excessLSB, 1))))
	return uint8(3 + min(level, 6))
}

// heatScale is the zoom of centre panels (off-centre targets are twice the size and get half):
// 16× for the default 16×8 frames, less for larger frames so a panel stays about 256 pixels wide.
// It is even, so both panels of a column have the same size.
func heatScale(w int) int { return max(2, 256/w) &^ 1 }

// HeatMap draws where a combination fails: one row of panels per path (sampler, then shader), one
// column per read-back (noise at centres, probe at centres, noise off-centre, probe off-centre),
// every target pixel a scaled-up square: grey within bounds, yellow to dark red by how many LSB
// outside, dark where the path did not run.
func HeatMap(c ComboResult, w, h int) *image.Paletted {
	const gap = 4
	s := heatScale(w)
	pw, ph := w*s, h*s // centre and off-centre panels have the same size
	img := image.NewPaletted(image.Rect(0, 0, 4*pw+5*gap, 2*ph+3*gap), heatColors)
	for p, pr := range []*PathResult{c.Sampler, c.Shader} {
		bad := map[[4]int]float64{}
		if pr != nil {
			for _, f := range pr.Failures {
				k := [4]int{index(frameNames[:], f.Frame), index(samplingNames[:], f.Sampling), f.X, f.Y}
				bad[k] = math.Max(bad[k], f.ExcessLSB)
			}
		}
		for fr := range frameNames {
			for sm := range samplingNames {
				col := sm*2 + fr
				x0, y0 := gap+col*(pw+gap), gap+p*(ph+gap)
				scale := s >> sm
				for y := 0; y < ph; y++ {
					for x := 0; x < pw; x++ {
						idx := uint8(1)
						if pr != nil {
							idx = 2
							if ex, ok := bad[[4]int{fr, sm, x / scale, y / scale}]; ok {
								idx = heatIndex(ex)
							}
						}
						img.SetColorIndex(x0+x, y0+y, idx)
					}
				}
			}
		}
	}
	return img
}

func index(names []string, n string) int {
	for i, v := range names {
		if v == n {
			return i
		}
	}
	return -1
}

// heatMapName is the file name of a combination's heat map: <format>-<combination>.png.
func heatMapName(format string, c ComboResult) string {
	return shortFormatName(format) + "-" + c.Name + ".png"
}

// WriteMarkdown writes the report as one page, dir/report.md and the same page as dir/report.html,
// with, for each failing combination with pixel failures, a heat map dir/<format>-<combination>.png
// (LabelledHeatMap: the map with a title and its colour scale) and, for the first few of them,
// pictures dir/<format>-<combination>-{expected,got,diff}.png. dir is created if needed.
func (r *Report) WriteMarkdown(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("check: report: %w", err)
	}
	var b bytes.Buffer
	r.writeSetting(&b)
	r.writeSummary(&b)
	r.writeFindings(&b)
	r.writeSystems(&b)
	if err := r.writeFailures(&b, dir); err != nil {
		return err
	}
	r.writeAll(&b)
	r.writeNotOffered(&b)
	if err := os.WriteFile(filepath.Join(dir, "report.md"), b.Bytes(), 0o644); err != nil {
		return fmt.Errorf("check: report: %w", err)
	}
	page := markdownHTML(b.String(), "Y′CbCr conversion conformance: "+r.Device.Name)
	if err := os.WriteFile(filepath.Join(dir, "report.html"), []byte(page), 0o644); err != nil {
		return fmt.Errorf("check: report: %w", err)
	}
	return nil
}

// writeFindings writes the likely causes: the symptoms that explain the failing combinations.
func (r *Report) writeFindings(b *bytes.Buffer) {
	if len(r.Findings) == 0 {
		return
	}
	b.WriteString("## Likely causes\n\n")
	b.WriteString("Each failing combination's read-backs were compared again with the oracle under each fault hypothesis " +
		"(one setting or the codes read changed: siting, range, matrix, Cb/Cr routing, filter, reconstruction, " +
		"bit position, no conversion); a hypothesis that leaves at most 1 % of the pixels outside its bounds " +
		"explains the combination.\n\n")
	b.WriteString("| Symptom | Combinations it explains | Example |\n|---|---|---|\n")
	for _, f := range r.Findings {
		n := fmt.Sprintf("%d of %d failing", f.Combinations, f.Failing)
		if f.Symptom == SymptomPermitted {
			n = fmt.Sprintf("%d passing (permitted pixels)", f.Combinations)
		}
		fmt.Fprintf(b, "| %s | %s | %s |\n", f.Symptom, n, f.Example)
	}
	b.WriteString("\n")
}

// Reproduce is the command that runs combination c of format f alone, as this run did.
func (r *Report) Reproduce(f FormatReport, c ComboResult) string {
	var s []string
	if r.PlantedFault != "" { // the fault layer as make layer builds it, below the validation layer
		layer := "VK_LAYER_YCBCRKIT_faults"
		if r.Device.Validation {
			layer = "VK_LAYER_YCBCRKIT_validated_faults"
		}
		s = append(s, "VK_ADD_LAYER_PATH=bin/layer", "VK_INSTANCE_LAYERS="+layer, "YCBCRKIT_FAULT="+r.PlantedFault)
	}
	s = append(s, "ycbcrcheck")
	if r.Device.Index != 0 {
		s = append(s, fmt.Sprintf("-device %d", r.Device.Index))
	}
	s = append(s, "-formats "+f.Layout, "-combo "+c.Name, "-systems=false")
	if r.Width != 16 || r.Height != 8 {
		s = append(s, fmt.Sprintf("-size %dx%d", r.Width, r.Height))
	}
	if r.Strict {
		s = append(s, "-strict")
	}
	if r.Device.Validation {
		s = append(s, "-validate")
	}
	return strings.Join(append(s, "-v", "-report DIR"), " ")
}

// writeAll writes every combination's result, a table per format.
func (r *Report) writeAll(b *bytes.Buffer) {
	b.WriteString("## Every combination\n\n")
	for _, f := range r.Formats {
		fmt.Fprintf(b, "### %s (%s)\n\n", shortFormatName(f.Format), f.Layout)
		b.WriteString("| Combination | Result | Sampler worst | Sampler diff | Shader worst | Shader diff | Likely cause |\n|---|---|---|---|---|---|---|\n")
		for _, c := range f.Results {
			result := "pass"
			if !c.Pass {
				result = "**FAIL**"
			}
			if c.Error != "" {
				result = "**ERROR**"
			}
			cells := []string{"—", "—", "—", "—"}
			for k, pr := range []*PathResult{c.Sampler, c.Shader} {
				if pr == nil {
					continue
				}
				cells[2*k] = fmt.Sprintf("%.2f", pr.WorstLSB)
				if pr.MaxDiffLSB != nil {
					cells[2*k+1] = fmt.Sprintf("%.2f", *pr.MaxDiffLSB)
				}
			}
			fmt.Fprintf(b, "| %s | %s | %s | %s | %s | %s | %s |\n", c.Name, result, cells[0], cells[1], cells[2], cells[3], symptoms(c))
		}
		b.WriteString("\n")
	}
}

// symptoms joins a combination's symptoms over both paths.
func symptoms(c ComboResult) string {
	var out []string
	seen := map[string]bool{}
	for _, p := range []*PathResult{c.Sampler, c.Shader} {
		if p == nil {
			continue
		}
		for _, s := range p.Symptoms {
			if !seen[s] {
				seen[s] = true
				out = append(out, s)
			}
		}
	}
	if len(out) == 0 && !c.Pass && c.Error == "" {
		return "none of the hypotheses"
	}
	return strings.Join(out, "; ")
}

// writeSetting writes the title and the table of the device and the run.
func (r *Report) writeSetting(b *bytes.Buffer) {
	d := r.Device
	fmt.Fprintf(b, "# Y′CbCr conversion conformance: %s\n\n", d.Name)
	fmt.Fprintf(b, "| | |\n|---|---|\n")
	fmt.Fprintf(b, "| Device | %s (%s, index %d, vendor 0x%04x, device 0x%04x) |\n", d.Name, d.Type, d.Index, d.VendorID, d.DeviceID)
	fmt.Fprintf(b, "| Vulkan API version | %s |\n", d.APIVersion)
	if d.DriverName != "" || d.DriverInfo != "" {
		fmt.Fprintf(b, "| Driver | %s |\n", strings.TrimSpace(d.DriverName+" "+d.DriverInfo))
	}
	fmt.Fprintf(b, "| Driver version | %s (raw 0x%08x) |\n", d.DriverVersion, d.DriverRaw)
	fmt.Fprintf(b, "| subTexelPrecisionBits | %d |\n", d.SubTexelBits)
	fmt.Fprintf(b, "| Date | %s |\n", r.Date)
	if r.Command != "" {
		fmt.Fprintf(b, "| Command | `%s` |\n", r.Command)
	}
	fmt.Fprintf(b, "| Frames | %d×%d noise and siting probe; targets %d×%d (luma texel centres) and %d×%d (off centre) |\n",
		r.Width, r.Height, r.Width, r.Height, 2*r.Width, 2*r.Height)
	if r.Quick {
		fmt.Fprintf(b, "| Subset | -quick: RGB_IDENTITY and YCBCR_709 only |\n")
	}
	if len(r.Combos) > 0 {
		fmt.Fprintf(b, "| Combinations | -combo %s |\n", strings.Join(r.Combos, ","))
	}
	if r.Strict {
		fmt.Fprintf(b, "| Strict | -strict: pixels within bounds only through the NEAREST + COSITED allowance fail |\n")
	}
	if r.Fault != "" {
		fmt.Fprintf(b, "| Injected fault | %s (a test of the checker, not of the device) |\n", r.Fault)
	}
	if r.PlantedFault != "" {
		fmt.Fprintf(b, "| Planted fault | YCBCRKIT_FAULT=%s: the fault layer VK_LAYER_YCBCRKIT_faults sits below the checker (a test of the checker, not of the device) |\n", r.PlantedFault)
	}
	if d.Validation {
		fmt.Fprintf(b, "| Validation layer | on |\n")
	}
	fmt.Fprintf(b, "| Wall time | %.1f s |\n\n", r.Seconds)
}

// writeSummary writes the verdict, the method and the table per format.
func (r *Report) writeSummary(b *bytes.Buffer) {
	t := r.Totals
	verdict := "**All combinations are within the oracle's bounds.**"
	if r.Error != "" {
		verdict = "**The run stopped early: " + r.Error + "**"
	} else if t.Failed > 0 {
		verdict = fmt.Sprintf("**%d of %d combinations fail.**", t.Failed, t.Combinations)
	} else if t.SystemsFailed > 0 {
		verdict = fmt.Sprintf("**%d of %d colour systems fail on the shader path.**", t.SystemsFailed, len(r.Systems))
	} else if len(r.MandatoryMissing) > 0 {
		verdict = "**Mandatory format features are missing (see below); all combinations run are within bounds.**"
	}
	fmt.Fprintf(b, "%s %d combinations on %d format(s), %d pixel comparisons (%d combinations also through the shader path).\n\n",
		verdict, t.Combinations, t.Formats, t.Pixels, t.ShaderRuns)
	b.WriteString(`Each combination converts a noise frame and a siting-probe frame through the sampler path (a
VkSamplerYcbcrConversion with an immutable sampler, min/mag filter = chroma filter) into RGBA8 targets
of the frame's size and of twice its size, and compares every pixel with the CPU oracle's bounds
(ycbcr/oracle: HardwareTolerance(bits, subTexelPrecisionBits), 8-bit target). LINEAR implicit
combinations also go through the shader path (ShaderTolerance). "Worst" is the largest distance
outside the bounds, "diff" the largest difference from the oracle's exact value over the LINEAR
combinations (NEAREST has coordinate ties where either texel is right, so no single exact value),
both in 8-bit LSB.
"Permitted" counts pixels that are inside the bounds only because implicit NEAREST reconstruction may
treat COSITED_EVEN as MIDPOINT.

`)
	b.WriteString("## Summary\n\n")
	b.WriteString("| Format | Layout | Bits | Combinations | Pass | Fail | Sampler worst | Sampler diff | Shader worst | Shader diff | Permitted px |\n")
	b.WriteString("|---|---|---|---|---|---|---|---|---|---|---|\n")
	for _, f := range r.Formats {
		fmt.Fprintf(b, "| %s | %s | %d | %d | %d | %d | %s | %s | %s | %s | %d |\n", shortFormatName(f.Format), f.Layout, f.Bits,
			f.Combinations, f.Passed, f.Failed, lsb(f.WorstSampler, f.Combinations > 0), lsb(f.DiffSampler, f.LinearRuns > 0),
			lsb(f.WorstShader, f.ShaderRuns > 0), lsb(f.DiffShader, f.ShaderRuns > 0), f.Permitted)
	}
	fmt.Fprintf(b, "| **total** | | | %d | %d | %d | %s | %s | %s | %s | %d |\n\n", t.Combinations, t.Passed, t.Failed,
		lsb(t.WorstSampler, t.Combinations > 0), lsb(t.DiffSampler, t.LinearRuns > 0),
		lsb(t.WorstShader, t.ShaderRuns > 0), lsb(t.DiffShader, t.ShaderRuns > 0), t.Permitted)
}

// writeSystems writes the colour systems only the shader path expresses.
func (r *Report) writeSystems(b *bytes.Buffer) {
	if len(r.Systems) == 0 {
		return
	}
	b.WriteString("## Colour systems (shader path only)\n\n")
	b.WriteString(`No VkSamplerYcbcrConversion model expresses these (docs/ycbcr-math.md §11–§14); the shader path
draws the same noise and probe frames, left-sited, at both samplings. YCgCo is judged by the oracle's
interval bounds (ShaderTolerance); the non-linear systems by the distance from the oracle's exact
value ("exact ±L"), YCgCo-R on subsampled layouts with two more m-bit codes for a rounding step of
interpolated chroma. "Diff" is the largest difference from the exact value, "worst" the largest
distance outside the criterion, both in 8-bit LSB.

`)
	b.WriteString("| System | Layouts | Pixels | Fail px | Worst | Diff | Criterion | Colour stage |\n|---|---|---|---|---|---|---|---|\n")
	for _, s := range r.Systems {
		applied := s.Applied
		if applied == "" {
			applied = "matrix only"
		}
		fmt.Fprintf(b, "| %s | %s | %d | %d | %.2f | %.2f | %s | %s |\n", s.Name, strings.Join(s.Layouts, ", "), s.Pixels, s.Failed,
			s.WorstLSB, s.MaxDiffLSB, s.Criterion, applied)
	}
	b.WriteString("\n")
}

// writeFailures writes each failure, with the heat maps (written into dir) of those with pixels
// outside the bounds.
func (r *Report) writeFailures(b *bytes.Buffer, dir string) error {
	b.WriteString("## Failures\n\n")
	for _, m := range r.MandatoryMissing {
		fmt.Fprintf(b, "- Mandatory: %s.\n", m)
	}
	if len(r.MandatoryMissing) > 0 {
		b.WriteString("\n")
	}
	failures, maps := len(r.MandatoryMissing), 0
	for _, f := range r.Formats {
		for _, c := range f.Results {
			if c.Pass {
				continue
			}
			failures++
			fmt.Fprintf(b, "### %s %s\n\n", shortFormatName(f.Format), c.Name)
			fmt.Fprintf(b, "%s, %s, x=%s y=%s, %s, %s reconstruction", c.Model, c.Range, c.XOffset, c.YOffset, c.Filter, c.Reconstruction)
			if c.SwapCbCr {
				b.WriteString(", Cb/Cr swizzle")
			}
			b.WriteString(".\n\n")
			if c.Error != "" {
				fmt.Fprintf(b, "Error: `%s`\n\n", c.Error)
			}
			for k, pr := range []*PathResult{c.Sampler, c.Shader} {
				if pr != nil && pr.Failed > 0 {
					fmt.Fprintf(b, "- %s path: %d of %d pixels outside, worst %.2f LSB at %s\n", pathNames[k], pr.Failed, pr.Pixels, pr.WorstLSB, pr.Worst)
					cause := "none of the hypotheses explains it"
					if len(pr.Symptoms) > 0 {
						cause = strings.Join(pr.Symptoms, "; ")
					}
					fmt.Fprintf(b, "- %s path, likely cause: %s\n", pathNames[k], cause)
				}
			}
			fmt.Fprintf(b, "- reproduce alone: `%s`\n", r.Reproduce(f, c))
			if c.pictures != nil {
				if err := writePictures(b, dir, f.Format, c, r.Width); err != nil {
					return err
				}
			}
			if (c.Sampler != nil && c.Sampler.Failed > 0) || (c.Shader != nil && c.Shader.Failed > 0) {
				name := heatMapName(f.Format, c)
				img, err := LabelledHeatMap(f.Format, c, r.Width, r.Height)
				if err != nil {
					return err
				}
				if err := writePNG(filepath.Join(dir, name), img); err != nil {
					return err
				}
				fmt.Fprintf(b, "\n![heat map](%s)\n", name)
				maps++
			}
			b.WriteString("\n")
		}
	}
	for _, s := range r.Systems {
		if s.Pass {
			continue
		}
		failures++
		fmt.Fprintf(b, "### Colour system: %s\n\n", s.Name)
		if s.Error != "" {
			fmt.Fprintf(b, "Error: `%s`\n\n", s.Error)
		}
		if s.Failed > 0 {
			fmt.Fprintf(b, "- shader path: %d of %d pixels outside %s, worst %.2f LSB at %s\n\n", s.Failed, s.Pixels, s.Criterion, s.WorstLSB, s.Worst)
		}
	}
	if failures == 0 {
		b.WriteString("None.\n\n")
	}
	if maps > 0 {
		fmt.Fprintf(b, "Heat maps: rows are the sampler and shader paths; columns are noise and probe at texel centres, "+
			"then noise and probe off centre (%d× and %d×). Grey is within bounds, yellow to dark red 1, 2, 4, 8, 16, 32, "+
			"more LSB outside; dark where the path did not run.\n\n", heatScale(r.Width), heatScale(r.Width)/2)
	}
	return nil
}

// writeNotOffered writes what the device does not offer, and the feature bits of what it does.
func (r *Report) writeNotOffered(b *bytes.Buffer) {
	b.WriteString("## Not offered\n\n")
	b.WriteString("Combinations the device does not offer, grouped by the first rule that excludes them (a whole format has no " +
		"defined setting space, so its count is blank). RGB_IDENTITY is run with ITU_FULL only: it applies no range expansion, " +
		"so ITU_NARROW would repeat it.\n\n")
	b.WriteString("| Format | Layout | Not offered | Combinations | Why |\n|---|---|---|---|---|\n")
	for _, n := range r.NotOffered {
		count := ""
		if n.Combinations > 0 {
			count = fmt.Sprint(n.Combinations)
		}
		layout := n.Layout
		if layout == "" {
			layout = "—"
		}
		fmt.Fprintf(b, "| %s | %s | %s | %s | %s |\n", shortFormatName(n.Format), layout, n.What, count, n.Reason)
	}
	b.WriteString("\n## Feature bits of the exercised formats\n\n| Format | Optimal-tiling features |\n|---|---|\n")
	for _, f := range r.Formats {
		fmt.Fprintf(b, "| %s | %s |\n", shortFormatName(f.Format), strings.Join(f.Features, ", "))
	}
}

func writePNG(path string, img image.Image) error {
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		return fmt.Errorf("check: heat map %s: %w", path, err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		return fmt.Errorf("check: heat map: %w", err)
	}
	return nil
}

// writePictures writes a failing combination's expected, got and difference pictures and links them.
func writePictures(b *bytes.Buffer, dir, format string, c ComboResult, w int) error {
	p := c.pictures
	scale := max(1, heatScale(w)/2)
	base := strings.TrimSuffix(heatMapName(format, c), ".png")
	diff := [2]*image.RGBA{difference(p.expected[0], p.got[0]), difference(p.expected[1], p.got[1])}
	fmt.Fprintf(b, "\n%s path, off-centre samples of the noise (left) and probe (right) frames, %d×: ", pathNames[p.path], scale)
	for _, pic := range []struct {
		name string
		imgs [2]*image.RGBA
	}{{"expected", p.expected}, {"got", p.got}, {"diff", diff}} {
		name := base + "-" + pic.name + ".png"
		if err := writePNG(filepath.Join(dir, name), panels(pic.imgs, scale)); err != nil {
			return err
		}
		fmt.Fprintf(b, "%s ![%s](%s) ", pic.name, pic.name, name)
	}
	fmt.Fprintf(b, "(difference ×%d).\n", diffGain)
	return nil
}
