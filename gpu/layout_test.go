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
