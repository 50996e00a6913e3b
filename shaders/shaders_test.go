package shaders

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/ycbcrkit/ycbcrkit/internal/testkit/pictest"
)

// TestSPIRVMatchesSources recompiles each source the way generate.sh does and compares it with the
// committed, embedded SPIR-V: an edited source without `go generate` fails here. glslc's output is
// taken from an earlier run where that run compiled the same bytes (glslcCached, in
// $TMPDIR/ycbcrkit-spirv).
func TestSPIRVMatchesSources(t *testing.T) {
	embedded := map[string][]byte{
		"fullscreen.vert":   FullscreenVert,
		"sampler.frag":      SamplerFrag,
		"shader.frag":       ShaderFrag,
		"diff.frag":         DiffFrag,
		"icc.frag":          ICCFrag,
		"blit.frag":         BlitFrag,
		"blend.frag":        BlendFrag,
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
		"peak.comp":         PeakComp,
		"deband.comp":       DebandComp,
		"subtitle.vert":     SubtitleVert,
		"subtitle.frag":     SubtitleFrag,
	}
	srcs, _ := filepath.Glob("*.vert")
	frags, _ := filepath.Glob("*.frag")
	comps, _ := filepath.Glob("*.comp")
	srcs = append(append(srcs, frags...), comps...)
	if len(srcs) != len(embedded) {
		t.Fatalf("sources %v, embedded %d: every source needs an embedded .spv", srcs, len(embedded))
	}
	dir := t.TempDir()
	cache := glslcCache(t)
	for _, src := range srcs {
		out := filepath.Join(dir, src+".spv")
		glslcCached(t, cache, src, out)
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

// glslcArgs are generate.sh's flags for glslc.
var glslcArgs = []string{"--target-env=vulkan1.1", "-O"}

// spirvCache is where glslcCached keeps glslc's outputs, and the part of their key every source
// shares: glslc's version (shaderc's, SPIRV-Tools', glslang's), its flags, and every file a source
// may include (each .glsl here).
type spirvCache struct {
	dir    string
	common []byte
}

func glslcCache(t *testing.T) spirvCache {
	t.Helper()
	version, err := exec.Command("glslc", "--version").Output()
	if err != nil {
		t.Fatalf("glslc --version: %v", err)
	}
	h := sha256.New()
	fmt.Fprintf(h, "%s\n%q\n", version, glslcArgs)
	includes, _ := filepath.Glob("*.glsl")
	for _, f := range includes {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(h, "%s %d\n", f, len(b))
		h.Write(b)
	}
	// Beside the robustness corpus cmd/ycbcrplay's tests keep (ycbcrkit-badinputs-KEY).
	return spirvCache{dir: filepath.Join(os.TempDir(), "ycbcrkit-spirv"), common: h.Sum(nil)}
}

// glslcCached writes to out what `glslc FLAGS -o out src` writes. glslc is deterministic: its
// output follows from its version, flags and input files, so an output kept under the hash of all
// of them (c.dir) is the one it would write again, and is used instead: the 22 compiles with -O are
// most of the package's run (6.5, 6.9 CPU-s; 1.2 with every output kept). An edited source or
// included file, or another glslc, misses the cache and compiles.
func glslcCached(t *testing.T, c spirvCache, src, out string) {
	t.Helper()
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	h := sha256.New()
	h.Write(c.common)
	fmt.Fprintf(h, "%s %d\n", src, len(b))
	h.Write(b)
	kept := filepath.Join(c.dir, hex.EncodeToString(h.Sum(nil))+".spv")
	if spv, err := os.ReadFile(kept); err == nil {
		if err := os.WriteFile(out, spv, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	args := append(append([]string{}, glslcArgs...), "-o", out, src)
	if msg, err := exec.Command("glslc", args...).CombinedOutput(); err != nil {
		t.Fatalf("glslc %s: %v\n%s", src, err, msg)
	}
	spv, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	pictest.KeepFile(c.dir, filepath.Base(kept), spv) // another test binary may read it meanwhile
}

// TestBlueNoise checks bluenoise.glsl: what bluenoise.go writes (an edited generator without `go
// generate` fails here), and a permutation of the ranks 0..255, which dither.glsl's exact block
// means rest on. It also checks the matrix is blue: the 32 lowest ranks (the dots of a 1/8 grey
// half-tone) and the 32 highest never touch, not even diagonally (tiled, so across the edges too);
// among 32 cells of white noise about 16 such pairs touch.
func TestBlueNoise(t *testing.T) {
	fresh, err := exec.Command("go", "run", "bluenoise.go").Output()
	if err != nil {
		t.Fatalf("go run bluenoise.go: %v", err)
	}
	committed, _ := os.ReadFile("bluenoise.glsl")
	if !bytes.Equal(fresh, committed) {
		t.Fatal("bluenoise.glsl is stale: run `go generate ./shaders`")
	}
	var m [256]int
	i := 0
	for _, f := range bytes.Fields(committed[bytes.IndexByte(committed, '(')+1:]) {
		f = bytes.TrimRight(f, ",);")
		if !bytes.HasPrefix(f, []byte("0x")) {
			continue
		}
		var w uint32
		if _, err := fmt.Sscanf(string(f), "0x%08xu", &w); err != nil {
			t.Fatalf("word %q: %v", f, err)
		}
		for b := 0; b < 4; b++ {
			m[i] = int(w >> (8 * b) & 255)
			i++
		}
	}
	if i != 256 {
		t.Fatalf("%d ranks, want 256", i)
	}
	seen := map[int]bool{}
	for _, r := range m {
		seen[r] = true
	}
	if len(seen) != 256 {
		t.Fatalf("%d distinct ranks, want 256 (each once)", len(seen))
	}
	touching := func(in func(r int) bool) int {
		n := 0
		for y := 0; y < 16; y++ {
			for x := 0; x < 16; x++ {
				if !in(m[y*16+x]) {
					continue
				}
				for _, d := range [][2]int{{1, 0}, {0, 1}, {1, 1}, {1, 15}} {
					if in(m[(y+d[1])%16*16+(x+d[0])%16]) {
						n++
					}
				}
			}
		}
		return n
	}
	if n := touching(func(r int) bool { return r < 32 }); n > 0 {
		t.Errorf("%d pairs of the 32 lowest ranks touch, want none (blue noise)", n)
	}
	if n := touching(func(r int) bool { return r >= 256-32 }); n > 0 {
		t.Errorf("%d pairs of the 32 highest ranks touch, want none (blue noise)", n)
	}
}
