package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/ycbcrkit/ycbcrkit/bench"
)

// wideColumns are the full table's column headings: -wide must keep every one.
var wideColumns = []string{"format", "size", "MB/frame", "sampler ms [p10–p90]", "shader ms [p10–p90]", "smp/shd",
	"floor ms", "smp/floor", "shd/floor", "smp cs ms", "shd cs ms", "smp cs/floor", "stage ms", "stage GB/s",
	"upload ms", "upload GB/s", "/H2D", "e2e fps", "e2e import+cs fps", "buf ms", "buf imp ms", "e2e buf fps"}

// fixedReport is a report for every standard size and default format, made without a device, with
// the widest figures the table's number formats produce (three significant digits of a small
// time, five-digit frame rates), a sampler path that is n/a (a long reason) and a long device name.
func fixedReport() *bench.Report {
	st := func(v float64) bench.Stats { return bench.Stats{N: 100, Median: v, P10: v * 0.9, P90: v * 1.1} }
	rep := &bench.Report{Tool: "ycbcrbench", Command: "ycbcrbench -json -sizes 720p,1080p,2160p,4320p -formats yuv420p,nv12,p010le,yuv444p",
		Date: "2026-11-22T02:05:06Z", Seconds: 128}
	rep.Device = bench.DeviceInfo{Name: "llvmpipe (LLVM 15.0.6, 256 bits)", Type: "CPU",
		Driver: "llvmpipe Mesa 25.0.7-2~bpo12+1 (LLVM 15.0.6) (driverVersion 0.0.1)", API: "1.4.305"}
	rep.Host = bench.HostInfo{CPU: "Intel(R) Xeon(R) Processor", Cores: 16, Go: "go1.26.8"}
	rep.Settings = bench.Settings{Frames: 100, Warmup: 10, InFlight: 3, EndToEndSeconds: 2, Matrix: "bt709", Range: "tv", Validation: true}
	rep.Reference.HostMemory = "type 0: DEVICE_LOCAL|HOST_VISIBLE|HOST_COHERENT|HOST_CACHED"
	for _, f := range bench.DefaultFormats {
		for _, sz := range []string{"720p", "1080p", "2160p", "4320p"} {
			path := func(ok bool) bench.PathResult {
				if !ok {
					return bench.PathResult{Reason: "device offers neither COSITED nor MIDPOINT chroma samples for VK_FORMAT_G8_B8_R8_3PLANE_444_UNORM"}
				}
				return bench.PathResult{Available: true, Draw: st(0.00123), OverFloor: 123.4, Compute: st(0.00987), ComputeOverFloor: 12.3,
					Upload: bench.Upload{StageCPU: st(0.00456), StageGBps: 12.3, CopyGPU: st(0.00789), CopyGBps: 45.6, CopyOverHostToDevice: 0.99}}
			}
			r := bench.Result{Format: f, Size: sz, FrameBytes: 99_532_800, FloorMs: 0.00001, Sampler: path(f != "yuv444p"),
				Shader: path(true), SamplerOverShader: 0.29,
				EndToEnd:     bench.EndToEnd{Path: "sampler", FPS: 18373},
				EndToEndFast: bench.EndToEnd{FPS: 18373},
				Buffer:       bench.BufferResult{Available: true, Device: st(0.00123), Imported: st(0.00123), EndToEnd: bench.EndToEnd{FPS: 16753}}}
			rep.Results = append(rep.Results, r)
		}
	}
	return rep
}

// renderFile writes rep as -json would and renders it with -render and args.
func renderFile(t *testing.T, rep *bench.Report, args ...string) string {
	t.Helper()
	data, err := json.MarshalIndent(rep, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "bench.json")
	if err := os.WriteFile(file, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return renderPath(t, file, args...)
}

func renderPath(t *testing.T, file string, args ...string) string {
	t.Helper()
	code, out, errOut := runCmd(append([]string{"-render", file}, args...)...)
	if code != 0 || errOut != "" {
		t.Fatalf("-render %s %q: exit %d, stderr %q", file, args, code, errOut)
	}
	return out
}

func longest(s string) (int, string) {
	n, line := 0, ""
	for _, l := range strings.Split(s, "\n") {
		if c := utf8.RuneCountInString(l); c > n {
			n, line = c, l
		}
	}
	return n, line
}

// TestTableFits120: the default table, for the standard sizes and formats, has no line wider than
// 120 columns, and still names every format × size and the n/a reasons; the saved H200 reports
// in docs/perf render within 120 columns too.
func TestTableFits120(t *testing.T) {
	out := renderFile(t, fixedReport())
	if n, line := longest(out); n > bench.TableWidth {
		t.Errorf("longest line %d columns, want ≤ %d:\n%s\n\ntable:\n%s", n, bench.TableWidth, line, out)
	}
	for _, want := range []string{"smp ms", "shd ms", "fastest", "×floor", "copy ms", "e2e fps", "imp fps", "buf fps",
		"yuv444p  4320p", "nv12   720p", "n/a: yuv444p 2160p sampler path: device offers neither", "-wide"} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
	files, _ := filepath.Glob("../../docs/perf/ycbcrbench*.json")
	if len(files) == 0 {
		t.Fatal("no saved reports in docs/perf")
	}
	for _, f := range files {
		if n, line := longest(renderPath(t, f)); n > bench.TableWidth {
			t.Errorf("%s: longest line %d columns:\n%s", f, n, line)
		}
	}
}

// TestWideTable: -wide prints every column, one row per format × size on one line, as the tables
// committed in docs/performance.md were printed.
func TestWideTable(t *testing.T) {
	rep := fixedReport()
	out := renderFile(t, rep, "-wide")
	lines := strings.Split(out, "\n")
	header := -1
	for i, l := range lines {
		if strings.Contains(l, "sampler ms [p10–p90]") {
			header = i
		}
	}
	if header < 0 {
		t.Fatalf("no heading line:\n%s", out)
	}
	for _, c := range wideColumns {
		if !strings.Contains(lines[header], c) {
			t.Errorf("-wide heading lacks %q:\n%s", c, lines[header])
		}
	}
	for i, r := range rep.Results {
		if f := strings.Fields(lines[header+1+i]); len(f) < 2 || f[0] != r.Format || f[1] != r.Size {
			t.Errorf("row %d: %q, want %s %s", i, lines[header+1+i], r.Format, r.Size)
		}
	}
	if n, _ := longest(out); n < 200 {
		t.Errorf("-wide longest line %d columns: was it wrapped?", n)
	}
}
