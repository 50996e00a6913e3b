package shaders

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestSPIRVMatchesSources recompiles each source the way generate.sh does and compares it with the
// committed, embedded SPIR-V: an edited source without `go generate` fails here.
func TestSPIRVMatchesSources(t *testing.T) {
	embedded := map[string][]byte{
		"fullscreen.vert":   FullscreenVert,
		"sampler.frag":      SamplerFrag,
		"shader.frag":       ShaderFrag,
		"diff.frag":         DiffFrag,
		"blit.frag":         BlitFrag,
		"sampler.comp":      SamplerComp,
		"shader.comp":       ShaderComp,
		"shift.comp":        ShiftComp,
		"buffer.comp":       BufferComp,
		"floor.frag":        FloorFrag,
		"floor.comp":        FloorComp,
		"scale.comp":        ScaleComp,
		"scale.frag":        ScaleFrag,
		"scale_target.comp": ScaleTargetComp,
		"osd.vert":          OSDVert,
		"osd.frag":          OSDFrag,
	}
	srcs, _ := filepath.Glob("*.vert")
	frags, _ := filepath.Glob("*.frag")
	comps, _ := filepath.Glob("*.comp")
	srcs = append(append(srcs, frags...), comps...)
	if len(srcs) != len(embedded) {
		t.Fatalf("sources %v, embedded %d: every source needs an embedded .spv", srcs, len(embedded))
	}
	dir := t.TempDir()
	for _, src := range srcs {
		out := filepath.Join(dir, src+".spv")
		cmd := exec.Command("glslc", "--target-env=vulkan1.1", "-O", "-o", out, src)
		if msg, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("glslc %s: %v\n%s", src, err, msg)
		}
		if msg, err := exec.Command("spirv-val", "--target-env", "vulkan1.1", out).CombinedOutput(); err != nil {
			t.Fatalf("spirv-val %s: %v\n%s", src, err, msg)
		}
		fresh, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		committed, _ := os.ReadFile(src + ".spv")
		if !bytes.Equal(fresh, committed) || !bytes.Equal(fresh, embedded[src]) {
			t.Errorf("%s.spv is stale: run `go generate ./shaders`", src)
		}
	}
}
