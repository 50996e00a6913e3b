package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func runCmd(args ...string) (code int, stdout, stderr string) {
	var o, e bytes.Buffer
	code = run(args, &o, &e)
	return code, o.String(), e.String()
}

// tiny is a run small enough for a test on lavapipe: two 64×36 formats, a few frames, 4 MiB
// references, validation on (any message fails the run with exit 2).
var tiny = []string{"-quick", "-validate", "-sizes", "64x36", "-formats", "nv12,yuv420p", "-frames", "3",
	"-e2e", "20ms", "-ref-mib", "4", "-in-flight", "2"}

// TestErrorsAreOneLine: bad flags and bad devices exit 2 with a single "error: " line.
func TestErrorsAreOneLine(t *testing.T) {
	for _, args := range [][]string{{"-bogus"}, {"stray"}, {"-sizes", "big"}, {"-formats", "nope"},
		{"-in-flight", "9"}, {"-frames", "-1"}, {"-e2e", "0s"}, {"-device", "99"}, {"-render", "/nonexistent.json"}} {
		code, out, errOut := runCmd(args...)
		lines := strings.Split(strings.TrimSpace(errOut), "\n")
		if code != 2 || out != "" || len(lines) != 1 || !strings.HasPrefix(lines[0], "error: ") {
			t.Errorf("%q: exit %d, stdout %q, stderr %q", args, code, out, errOut)
		}
	}
}

func TestHelp(t *testing.T) {
	code, out, _ := runCmd("-h")
	if code != 0 || !strings.Contains(out, "-sizes LIST") || !strings.Contains(out, "-list-devices") {
		t.Errorf("exit %d, help:\n%s", code, out)
	}
}

func TestListDevices(t *testing.T) {
	code, out, errOut := runCmd("-list-devices")
	if code != 0 || !strings.HasPrefix(out, "0: ") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}

// jsonFields are the report's fields, as paths; results[] and the paths in it stand for every
// element. A field renamed or dropped breaks readers of saved reports, so it fails here.
var jsonFields = []string{
	"tool", "command", "date", "seconds",
	"device.index", "device.name", "device.type", "device.vendor_id", "device.driver", "device.api", "device.timestamp_period_ns",
	"host.cpu", "host.cores", "host.go",
	"settings.frames", "settings.warmup", "settings.in_flight", "settings.end_to_end_seconds", "settings.distinct_frames",
	"settings.rotation_bytes", "settings.device_copy_bytes", "settings.host_to_device_bytes", "settings.matrix",
	"settings.range", "settings.validation",
	"reference.host_memory",
	"results[].format", "results[].size", "results[].width", "results[].height", "results[].siting",
	"results[].frame_bytes", "results[].staged_bytes", "results[].target_bytes", "results[].floor_ms",
	"results[].sampler_over_shader", "results[].paths_max_diff", "results[].skipped", "results[].seconds",
	"results[].end_to_end.path", "results[].end_to_end.in_flight", "results[].end_to_end.frames",
	"results[].end_to_end.seconds", "results[].end_to_end.fps", "results[].end_to_end.stage_ms",
	"results[].end_to_end.wait_ms", "results[].end_to_end.record_ms",
}

var pathFields = []string{"available", "reason", "key", "rotation", "over_floor", "draw_gbps",
	"upload.bytes", "upload.stage_gbps", "upload.stage_over_memcpy", "upload.copy_gbps", "upload.copy_over_host_to_device"}

var statsFields = []string{"n", "median", "p10", "p90", "mean", "min", "max"}

func allFields() []string {
	out := append([]string(nil), jsonFields...)
	for _, bw := range []string{"device_copy", "host_to_device", "memcpy_to_staging", "memcpy_heap"} {
		out = append(out, "reference."+bw+".bytes", "reference."+bw+".gbps")
		for _, s := range statsFields {
			out = append(out, "reference."+bw+".ms."+s)
		}
	}
	for _, p := range []string{"sampler", "shader"} {
		for _, f := range pathFields {
			out = append(out, "results[]."+p+"."+f)
		}
		for _, st := range []string{"draw_ms", "upload.stage_cpu_ms", "upload.copy_gpu_ms"} {
			for _, s := range statsFields {
				out = append(out, "results[]."+p+"."+st+"."+s)
			}
		}
	}
	return out
}

// lookup finds path in v; "results[]" descends into every element, all of which must have it.
func lookup(v any, path string) (found bool) {
	head, rest, more := strings.Cut(path, ".")
	if name, ok := strings.CutSuffix(head, "[]"); ok {
		m, _ := v.(map[string]any)
		list, _ := m[name].([]any)
		if len(list) == 0 {
			return false
		}
		for _, el := range list {
			if !lookup(el, rest) {
				return false
			}
		}
		return true
	}
	m, ok := v.(map[string]any)
	if !ok {
		return false
	}
	x, ok := m[head]
	if !ok || x == nil {
		return false
	}
	if !more {
		return true
	}
	return lookup(x, rest)
}

// TestJSONRun runs the tiny benchmark with -json: exit 0, one JSON document with every field, the
// figures sane, progress on stderr; -render turns the saved document back into the table.
func TestJSONRun(t *testing.T) {
	code, out, errOut := runCmd(append(tiny, "-json")...)
	if code != 0 {
		t.Fatalf("exit %d\nstderr:\n%s", code, errOut)
	}
	var doc map[string]any
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("stdout is not one JSON document: %v\n%s", err, out)
	}
	for _, f := range allFields() {
		if !lookup(doc, f) {
			t.Errorf("JSON lacks %s", f)
		}
	}
	if !strings.Contains(errOut, "ycbcrbench: nv12 64x36") || !strings.Contains(errOut, "ycbcrbench: done") {
		t.Errorf("progress missing on stderr:\n%s", errOut)
	}
	results := doc["results"].([]any)
	if len(results) != 2 {
		t.Fatalf("%d results, want 2", len(results))
	}
	for _, r := range results {
		r := r.(map[string]any)
		if fb := r["frame_bytes"].(float64); fb != 64*36*3/2 {
			t.Errorf("%v: frame_bytes %v, want %d", r["format"], fb, 64*36*3/2)
		}
		shader := r["shader"].(map[string]any)
		draw := shader["draw_ms"].(map[string]any)
		if draw["median"].(float64) <= 0 || draw["n"].(float64) != 3 {
			t.Errorf("%v shader draw: %v", r["format"], draw)
		}
		if fps := r["end_to_end"].(map[string]any)["fps"].(float64); fps <= 0 {
			t.Errorf("%v: fps %v", r["format"], fps)
		}
	}

	file := filepath.Join(t.TempDir(), "bench.json")
	if err := os.WriteFile(file, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	code, table, errOut := runCmd("-render", file)
	if code != 0 || !strings.Contains(table, "device:  llvmpipe") || !strings.Contains(table, "smp ms") ||
		!strings.Contains(table, "yuv420p") {
		t.Errorf("-render: exit %d, stderr %q, table:\n%s", code, errOut, table)
	}
	code, table, errOut = runCmd("-render", file, "-wide")
	if code != 0 || !strings.Contains(table, "device:  llvmpipe") || !strings.Contains(table, "sampler ms [p10–p90]") ||
		!strings.Contains(table, "yuv420p") {
		t.Errorf("-render -wide: exit %d, stderr %q, table:\n%s", code, errOut, table)
	}
}

// TestTable: without -json the table goes to stdout, with the header lines first (wrapped ones
// continue on indented lines).
func TestTable(t *testing.T) {
	code, out, errOut := runCmd(tiny...)
	if code != 0 {
		t.Fatalf("exit %d\nstderr:\n%s", code, errOut)
	}
	var lines []string // the header lines, without the indented continuations of wrapped ones
	for _, l := range strings.Split(out, "\n") {
		if !strings.HasPrefix(l, " ") {
			lines = append(lines, l)
		}
	}
	for i, prefix := range []string{"device:", "cpu:", "date:", "command: ycbcrbench -quick", "run:", "reference: device copy"} {
		if i >= len(lines) || !strings.HasPrefix(lines[i], prefix) {
			t.Errorf("line %d should start %q:\n%s", i, prefix, out)
		}
	}
	if !strings.Contains(out, "nv12") || !strings.Contains(out, "e2e fps") {
		t.Errorf("table:\n%s", out)
	}
}

// TestLinksNoFFmpegOrGLFW: the binary is carried to GPU machines that have neither library, so the
// command must not depend on the packages that link them.
func TestLinksNoFFmpegOrGLFW(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	for _, dep := range strings.Fields(string(out)) {
		if strings.Contains(dep, "astiav") || strings.Contains(dep, "glfw") || strings.HasSuffix(dep, "/internal/avx") ||
			strings.HasSuffix(dep, "/present/window") || strings.HasSuffix(dep, "/decode") {
			t.Errorf("ycbcrbench depends on %s", dep)
		}
	}
}
