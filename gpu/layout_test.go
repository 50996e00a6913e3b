package gpu_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestCoreDoesNotImportPresent: the core (formats, planes, ycbcr, decode) and the clients that run
// on an engine's device (videotex, bench) depend on the GPU context, never on presentation
// (swapchain, window).
func TestCoreDoesNotImportPresent(t *testing.T) {
	pkgs := []string{"formats", "planes", "ycbcr/...", "decode", "pump", "videotex", "bench"}
	args := []string{"list", "-deps"}
	for _, p := range pkgs {
		args = append(args, "github.com/ycbcrkit/ycbcrkit/"+p)
	}
	out, err := exec.Command("go", args...).Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	deps := strings.Fields(string(out))
	if len(deps) == 0 {
		t.Fatal("go list -deps printed nothing")
	}
	for _, dep := range deps {
		if strings.HasPrefix(dep, "github.com/ycbcrkit/ycbcrkit/present") {
			t.Errorf("a core package depends on %s", dep)
		}
	}
}

// TestPumpBelowClients: the decode pump (the CPU side of every stream) imports no GPU-level
// package: not gpu's clients (stream, present, the player, videotex, the wall), nor gpu itself
// beyond what decode brings.
func TestPumpBelowClients(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", `{{join .Imports " "}}`, "github.com/ycbcrkit/ycbcrkit/pump").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, imp := range strings.Fields(string(out)) {
		if strings.HasPrefix(imp, "github.com/ycbcrkit/ycbcrkit/") && imp != "github.com/ycbcrkit/ycbcrkit/decode" {
			t.Errorf("pump imports %s", imp)
		}
	}
}

// TestLeavesImportNoToolkit: internal/'s cgo leaves (its top level; test kits and the programs'
// helpers live in internal/testkit and internal/app) import no package of the toolkit but
// internal/dl, so a leaf never reaches back up the ladder (gpu, ycbcr…).
func TestLeavesImportNoToolkit(t *testing.T) {
	const mod = "github.com/ycbcrkit/ycbcrkit/"
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}} {{join .Imports \" \"}}", mod+"internal/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	leaves := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		pkg := strings.TrimPrefix(f[0], mod)
		if strings.HasPrefix(pkg, "internal/testkit/") || strings.HasPrefix(pkg, "internal/app/") {
			continue
		}
		leaves++
		for _, imp := range f[1:] {
			if strings.HasPrefix(imp, mod) && imp != mod+"internal/dl" {
				t.Errorf("the leaf %s imports %s", pkg, strings.TrimPrefix(imp, mod))
			}
		}
	}
	if leaves < 5 {
		t.Fatalf("go list found %d leaves", leaves)
	}
}
