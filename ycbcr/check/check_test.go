package check

import (
	"bytes"
	"encoding/json"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/internal/testkit/vktest"
)

// TestDeviceConforms is the full run on the test device (lavapipe in CI), with validation: every
// combination the device offers must be within the oracle's bounds on both paths, and every format
// must be accounted for, either checked or listed as not offered. lavapipe (Mesa 25.0) has no known
// deviation; if a driver deviates, this test is where the exact known set would be asserted.
func TestDeviceConforms(t *testing.T) {
	dev := vktest.Open(t)
	rep, err := Run(dev, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var table bytes.Buffer
	if err := rep.WriteTable(&table); err != nil {
		t.Fatal(err)
	}
	t.Logf("%s (%.1f s):\n%s", rep.Device.Name, rep.Seconds, table.String())
	if rep.Totals.Combinations == 0 || rep.Totals.ShaderRuns == 0 {
		t.Fatalf("nothing checked: %+v", rep.Totals)
	}
	for _, f := range rep.Formats {
		for _, c := range f.Results {
			if !c.Pass {
				t.Errorf("%s %s: %s", f.Format, c.Name, failureText(c))
			}
			// Both frames at both samplings: w·h + 2w·2h pixels each.
			want := 2 * (rep.Width*rep.Height + 4*rep.Width*rep.Height)
			if c.Sampler == nil || c.Sampler.Pixels != want {
				t.Errorf("%s %s: sampler path compared %v pixels, want %d", f.Format, c.Name, c.Sampler, want)
			}
			if (c.Shader != nil) != (c.Filter == "LINEAR" && c.Reconstruction == "implicit") {
				t.Errorf("%s %s: shader path compared = %v for %s %s", f.Format, c.Name, c.Shader != nil, c.Filter, c.Reconstruction)
			}
		}
	}
	if len(rep.Systems) != len(colourSystems) {
		t.Errorf("%d colour systems reported, want %d", len(rep.Systems), len(colourSystems))
	}
	for _, s := range rep.Systems {
		// Both frames at both samplings on each layout.
		if want := len(systemLayouts) * 2 * (rep.Width*rep.Height + 4*rep.Width*rep.Height); !s.Pass || s.Pixels != want {
			t.Errorf("colour system %s: pass %v, %d pixels (want %d), %d failing, worst %s %s", s.Name, s.Pass, s.Pixels, want, s.Failed, s.Worst, s.Error)
		}
	}
	if !rep.OK() {
		t.Fatalf("%d of %d combinations fail", rep.Totals.Failed, rep.Totals.Combinations)
	}

	// Accounting: each format is either exercised, with its whole setting space split between
	// combinations run and combinations not offered, or not offered as a whole.
	exercised := map[string]int{}
	for _, f := range rep.Formats {
		exercised[f.Format] = f.Combinations
	}
	notOffered, whole := map[string]int{}, map[string]bool{}
	for _, n := range rep.NotOffered {
		notOffered[n.Format] += n.Combinations
		whole[n.Format] = whole[n.Format] || n.What == "whole format"
	}
	for _, vf := range formats.MultiPlanarFormats {
		name := vf.String()
		_, ran := exercised[name]
		if ran == whole[name] {
			t.Errorf("%s: exercised=%v, not offered as a whole=%v: want exactly one", name, ran, whole[name])
			continue
		}
		if ran {
			facts, _ := vf.Facts()
			// 9 model/range pairs × offsets × 2 filters × 2 reconstructions.
			space := 9 * (1 << (min(facts.Log2ChromaW, 1) + min(facts.Log2ChromaH, 1))) * 2 * 2
			if got := exercised[name] + notOffered[name]; got != space {
				t.Errorf("%s: %d run + %d not offered = %d, want the space of %d", name, exercised[name], notOffered[name], got, space)
			}
		}
	}

	// The markdown report of a passing run has no heat maps.
	dir := t.TempDir()
	if err := rep.WriteMarkdown(dir); err != nil {
		t.Fatal(err)
	}
	md, err := os.ReadFile(filepath.Join(dir, "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(md, []byte("All combinations are within the oracle's bounds")) || !bytes.Contains(md, []byte("## Not offered")) {
		t.Errorf("report.md lacks the verdict or the not-offered section:\n%s", md)
	}
	if pngs, _ := filepath.Glob(filepath.Join(dir, "*.png")); len(pngs) != 0 {
		t.Errorf("heat maps written for a passing run: %v", pngs)
	}
	if _, err := json.Marshal(rep); err != nil {
		t.Errorf("report does not marshal: %v", err)
	}
}

func failureText(c ComboResult) string {
	if c.Error != "" {
		return c.Error
	}
	var s []string
	for k, pr := range []*PathResult{c.Sampler, c.Shader} {
		if pr != nil && pr.Failed > 0 {
			s = append(s, pathNames[k]+": "+pr.Worst)
		}
	}
	return strings.Join(s, "; ")
}

// TestFaultsAreCaught proves the checker can fail: each fault injected into the shader path's
// constants must make every combination it affects fail by a wide margin and leave the sampler path
// alone (and the sampler-side fault the reverse), and each failing combination gets a heat map.
func TestFaultsAreCaught(t *testing.T) {
	dev := vktest.Open(t)
	for _, fault := range []Fault{FaultSiting, FaultSwapCbCr, FaultRange, FaultSamplerSwap} {
		t.Run(strings.ReplaceAll(fault.String(), " ", "_"), func(t *testing.T) {
			rep, err := Run(dev, Options{Formats: []string{"nv12", "yuv422p"}, Quick: true, Fault: fault})
			if err != nil {
				t.Fatal(err)
			}
			if rep.OK() || rep.Totals.Failed == 0 {
				t.Fatalf("fault %q not caught: %+v", fault, rep.Totals)
			}
			shaderRuns := 0
			for _, f := range rep.Formats {
				for _, c := range f.Results {
					if fault == FaultSamplerSwap {
						// Every output depends on Cb and Cr (RGB identity: on B and R), so every
						// combination fails on the sampler path, and the shader path is untouched.
						if c.Sampler == nil || c.Sampler.Failed == 0 || c.Sampler.WorstLSB < 8 || (c.Shader != nil && c.Shader.Failed != 0) {
							t.Errorf("%s %s: sampler %+v, shader %+v", f.Format, c.Name, c.Sampler, c.Shader)
						}
						continue
					}
					if c.Sampler == nil || c.Sampler.Failed != 0 {
						t.Errorf("%s %s: the sampler path changed with a shader-path fault", f.Format, c.Name)
					}
					if c.Shader == nil {
						continue
					}
					shaderRuns++
					// RGB identity applies no range expansion: the range fault cannot show there.
					immune := fault == FaultRange && c.Model == "rgb_identity"
					if immune != (c.Shader.Failed == 0) {
						t.Errorf("%s %s: %d shader-path pixels fail (immune to the fault: %v)", f.Format, c.Name, c.Shader.Failed, immune)
					}
					if !immune && c.Shader.WorstLSB < 8 {
						t.Errorf("%s %s: worst %.2f LSB: the fault should be gross", f.Format, c.Name, c.Shader.WorstLSB)
					}
				}
			}
			if shaderRuns == 0 && fault != FaultSamplerSwap {
				t.Fatal("no shader-path comparison ran")
			}
			// The colour systems run on the shader path: its faults must show in every one (but the
			// range fault in YCgCo-R, whose lifting reads the codes at any range), the sampler's
			// fault in none.
			if len(rep.Systems) != len(colourSystems) {
				t.Fatalf("%d colour systems reported", len(rep.Systems))
			}
			for _, s := range rep.Systems {
				immune := fault == FaultSamplerSwap || (fault == FaultRange && strings.HasPrefix(s.Name, "YCgCo-R"))
				if immune != s.Pass || (!immune && s.WorstLSB < 8) {
					t.Errorf("colour system %s: pass %v, worst %.2f LSB (immune to the fault: %v)", s.Name, s.Pass, s.WorstLSB, immune)
				}
			}

			dir := t.TempDir()
			if err := rep.WriteMarkdown(dir); err != nil {
				t.Fatal(err)
			}
			md, err := os.ReadFile(filepath.Join(dir, "report.md"))
			if err != nil {
				t.Fatal(err)
			}
			maps := 0
			for _, f := range rep.Formats {
				for _, c := range f.Results {
					if c.Pass {
						continue
					}
					maps++
					name := heatMapName(f.Format, c)
					if !bytes.Contains(md, []byte("]("+name+")")) {
						t.Errorf("report.md does not link %s", name)
					}
					raw, err := os.ReadFile(filepath.Join(dir, name))
					if err != nil {
						t.Fatal(err)
					}
					img, err := png.Decode(bytes.NewReader(raw))
					if err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					// Two rows of four 256×128 panels with 4-pixel gaps, for 16×8 frames, and the
					// labels around them (TestLabelledHeatMap).
					if b := img.Bounds(); b.Dx() <= 4*256+5*4 || b.Dy() <= 2*128+3*4 {
						t.Errorf("%s is %v", name, b)
					}
				}
			}
			pngs, _ := filepath.Glob(filepath.Join(dir, "*.png"))
			heat := 0
			for _, p := range pngs {
				if !strings.HasSuffix(p, "-expected.png") && !strings.HasSuffix(p, "-got.png") && !strings.HasSuffix(p, "-diff.png") {
					heat++
				}
			}
			// Heat maps for every failing combination, pictures for the first four.
			if heat != maps || len(pngs)-heat != 3*min(maps, 4) {
				t.Errorf("%d heat maps and %d pictures for %d failing combinations", heat, len(pngs)-heat, maps)
			}
			if html, err := os.ReadFile(filepath.Join(dir, "report.html")); err != nil || !bytes.Contains(html, []byte("-got.png\">")) {
				t.Errorf("report.html: %v", err)
			}
			// The diagnosis names the fault, for every failing combination.
			want := map[Fault][]string{FaultSiting: {SymptomChromaShiftX}, FaultSwapCbCr: {SymptomCbCrSwapped},
				FaultRange: {SymptomFullAsNarrow, SymptomNarrowAsFull}, FaultSamplerSwap: {SymptomCbCrSwapped}}[fault]
			explained := 0
			for _, f := range rep.Findings {
				for _, w := range want {
					if f.Symptom == w {
						explained += f.Combinations
					}
				}
			}
			if explained != rep.Totals.Failed {
				t.Errorf("findings %+v explain %d of %d failing combinations as %q", rep.Findings, explained, rep.Totals.Failed, want)
			}
		})
	}
}
