package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ycbcrkit/ycbcrkit/ycbcr/check"
)

func runCmd(args ...string) (code int, stdout, stderr string) {
	var o, e bytes.Buffer
	code = run(args, &o, &e)
	return code, o.String(), e.String()
}

// TestErrorsAreOneLine: bad flags and bad devices exit 2 with a single "error: " line.
func TestErrorsAreOneLine(t *testing.T) {
	for _, args := range [][]string{{"-bogus"}, {"stray"}, {"-size", "15x8"}, {"-size", "big"}, {"-formats", "nope"}, {"-device", "99"}} {
		code, out, errOut := runCmd(args...)
		lines := strings.Split(strings.TrimSpace(errOut), "\n")
		if code != 2 || out != "" || len(lines) != 1 || !strings.HasPrefix(lines[0], "error: ") {
			t.Errorf("%q: exit %d, stdout %q, stderr %q", args, code, out, errOut)
		}
	}
}

// TestNothingToCheck: a selection the checker cannot exercise on any device (the table has no row
// for 12-bit 2-plane 4:2:0) is an error, and the table still says why.
func TestNothingToCheck(t *testing.T) {
	code, out, errOut := runCmd("-formats", "G12X4_B12X4R12X4_2PLANE_420_UNORM_3PACK16")
	lines := strings.Split(strings.TrimSpace(errOut), "\n")
	if code != 2 || !strings.HasPrefix(lines[len(lines)-1], "error: nothing checked") || !strings.Contains(out, "not offered: 1 formats entirely") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}

func TestHelp(t *testing.T) {
	code, out, _ := runCmd("-h")
	if code != 0 || !strings.Contains(out, "COSITED_EVEN / MIDPOINT") || !strings.Contains(out, "-formats LIST") {
		t.Errorf("exit %d, help:\n%s", code, out)
	}
}

func TestListDevices(t *testing.T) {
	code, out, errOut := runCmd("-list-devices")
	if code != 0 || !strings.HasPrefix(out, "0: ") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}

// TestQuickRun runs a small check on the test device with validation: exit 0, one JSON document on
// stdout, progress on stderr, and a markdown report without heat maps.
func TestQuickRun(t *testing.T) {
	dir := t.TempDir()
	code, out, errOut := runCmd("-quick", "-formats", "nv12,yuyv422", "-json", "-validate", "-report", dir)
	if code != 0 {
		t.Fatalf("exit %d\nstderr:\n%s", code, errOut)
	}
	var rep check.Report
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("stdout is not one JSON document: %v\n%s", err, out)
	}
	if rep.Totals.Formats != 2 || rep.Totals.Combinations == 0 || !strings.HasPrefix(rep.Command, "ycbcrcheck -quick") {
		t.Errorf("report: %+v, command %q", rep.Totals, rep.Command)
	}
	// The colour systems run by default, one row each, with -quick on yuv420p only.
	if len(rep.Systems) < 10 || rep.Totals.SystemsFailed != 0 {
		t.Errorf("colour systems: %d rows, %d failing", len(rep.Systems), rep.Totals.SystemsFailed)
	}
	for _, s := range rep.Systems {
		if !s.Pass || s.Pixels == 0 || len(s.Layouts) != 1 || s.Layouts[0] != "yuv420p" {
			t.Errorf("colour system %+v", s)
		}
	}
	if !strings.Contains(errOut, "[1/2] VK_FORMAT_G8B8G8R8_422_UNORM (yuyv422)") || !strings.Contains(errOut, "PASS: ") {
		t.Errorf("progress:\n%s", errOut)
	}
	md, err := os.ReadFile(filepath.Join(dir, "report.md"))
	if err != nil || !bytes.Contains(md, []byte("`ycbcrcheck -quick -formats nv12,yuyv422")) || !bytes.Contains(md, []byte("| YCgCo limited | yuv420p |")) {
		t.Errorf("report.md: %v\n%s", err, md)
	}

	// Without -json the table goes to stdout.
	code, out, _ = runCmd("-quick", "-formats", "nv12")
	if code != 0 || !strings.Contains(out, "G8_B8R8_2PLANE_420_UNORM") || !strings.Contains(out, "total: 1 formats") || !strings.Contains(out, "HLG → SDR") {
		t.Errorf("exit %d, table:\n%s", code, out)
	}
	// -systems=false leaves them out.
	code, out, _ = runCmd("-quick", "-formats", "nv12", "-systems=false")
	if code != 0 || strings.Contains(out, "COLOUR SYSTEM") {
		t.Errorf("-systems=false: exit %d, table:\n%s", code, out)
	}
}

// TestPlantedFault: with a driver fault planted below it by the fault layer (layers/faults, built
// here by make layer), ycbcrcheck exits 1 and names the symptom as the likely cause, and the report
// page (Markdown and HTML) has the pictures and the command that reproduces one combination alone.
// ycbcr/check's TestPlantedFaults plants every fault.
func TestPlantedFault(t *testing.T) {
	if _, err := exec.LookPath("cc"); err != nil {
		t.Skip("no C compiler to build the fault layer")
	}
	layer := t.TempDir()
	if out, err := exec.Command("make", "-s", "-C", "../..", "layer", "LAYER="+layer).CombinedOutput(); err != nil {
		t.Fatalf("make layer: %v\n%s", err, out)
	}
	t.Setenv("VK_ADD_LAYER_PATH", layer)
	t.Setenv("VK_INSTANCE_LAYERS", "VK_LAYER_YCBCRKIT_validated_faults")
	t.Setenv("YCBCRKIT_FAULT", "swap-cbcr")
	dir := t.TempDir()
	code, out, errOut := runCmd("-formats", "nv12", "-combo", "709-*-linear-implicit", "-systems=false", "-validate", "-report", dir)
	if code != 1 || !strings.Contains(out, "likely cause: "+check.SymptomCbCrSwapped) {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	md, err := os.ReadFile(filepath.Join(dir, "report.md"))
	want := "`VK_ADD_LAYER_PATH=bin/layer VK_INSTANCE_LAYERS=VK_LAYER_YCBCRKIT_validated_faults YCBCRKIT_FAULT=swap-cbcr " +
		"ycbcrcheck -formats nv12 -combo 709-full-topleft-linear-implicit -systems=false -validate -v -report DIR`"
	if err != nil || !bytes.Contains(md, []byte(want)) || !bytes.Contains(md, []byte("-got.png)")) {
		t.Errorf("report.md: %v\n%s", err, md)
	}
	if html, err := os.ReadFile(filepath.Join(dir, "report.html")); err != nil || !bytes.Contains(html, []byte("<td>"+check.SymptomCbCrSwapped)) {
		t.Errorf("report.html: %v", err)
	}
}
