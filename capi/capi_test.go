package main

import (
	"fmt"
	"image"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/ycbcrkit/ycbcrkit/internal/testkit/oracletest"
	"github.com/ycbcrkit/ycbcrkit/internal/testkit/pictest"
	"github.com/ycbcrkit/ycbcrkit/ycbcr"
)

// The library, the C example and ycbcrplay are built once per test binary, into one folder that
// lives as long as the binary runs (the tests share them).
var (
	buildOnce sync.Once
	buildDir  string
	buildErr  string
)

// built builds libycbcrkit.so (go build -buildmode=c-shared, the environment's GOFLAGS: the test
// build's tags), copies ycbcrkit.h beside it and compiles examples/engine-c with the system's cc
// against both, as `make engine-c` does. The reference pictures' ycbcrplay is pictest.Ycbcrplay's.
func built(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "ycbcrkit-capi-")
		if err != nil {
			buildErr = err.Error()
			return
		}
		buildDir = dir
		if buildErr = buildLibrary(t, filepath.Join(dir, "libycbcrkit.so")); buildErr != "" {
			return
		}
		steps := [][]string{
			{"cp", "ycbcrkit.h", dir},
			{"cc", "-std=c11", "-O2", "-Wall", "-Wextra", "-Werror", "-o", filepath.Join(dir, "engine-c"),
				"../examples/engine-c/main.c", "../examples/engine-c/png.c", "-I" + dir, "-L" + dir, "-lycbcrkit", "-lvulkan", "-pthread",
				"-Wl,-rpath," + dir},
		}
		for _, s := range steps {
			if out, err := exec.Command(s[0], s[1:]...).CombinedOutput(); err != nil {
				buildErr = strings.Join(s, " ") + ": " + err.Error() + "\n" + string(out)
				return
			}
		}
	})
	if buildErr != "" {
		t.Fatal(buildErr)
	}
	return buildDir
}

// buildLibrary links this package as a C shared library into lib; it returns what failed, or "".
// With -o FILE, go build -buildmode=c-shared also installs the cgo export header, and for that
// runs cgo (and cc on its output) again for every cgo package of the program whose build is cached
// but that exports nothing, as it has no header to cache (cmd/go's needCgoHdr, installHeader;
// https://github.com/golang/go/issues/29132): vkx's Vulkan headers and the others, 27 of the
// build's 30 CPU-s with every compile cached. The header is not the library's (ycbcrkit.h is), so
// the library is linked with -o /dev/null, which links without installing, and taken from the
// kept work folder (-work): the same bytes (cmp), 3 CPU-s. Where that folder holds no single
// linked file (another go), it is built the plain way.
func buildLibrary(t *testing.T, lib string) string {
	args := []string{"build", "-buildmode=c-shared"}
	if _, err := exec.LookPath("ld.gold"); err == nil { // its link: 12 s against ld.bfd's 16 (scripts/test.sh)
		args = append(args, "-ldflags=-extldflags=-fuse-ld=gold")
	}
	out, err := exec.Command("go", append(args, "-work", "-o", os.DevNull, ".")...).CombinedOutput()
	if err != nil {
		return "go " + strings.Join(args, " ") + " -work -o " + os.DevNull + " .: " + err.Error() + "\n" + string(out)
	}
	var work string
	for _, l := range strings.Split(string(out), "\n") {
		if w, ok := strings.CutPrefix(l, "WORK="); ok {
			work = w
		}
	}
	if work != "" {
		defer os.RemoveAll(work)
		if m, _ := filepath.Glob(filepath.Join(work, "*", "exe", "a.out")); len(m) == 1 {
			if os.Rename(m[0], lib) == nil {
				return ""
			}
			b, err := os.ReadFile(m[0]) // another file system
			if err == nil {
				err = os.WriteFile(lib, b, 0o755)
			}
			if err != nil {
				return "the linked library: " + err.Error()
			}
			return ""
		}
	}
	t.Logf("go build -work left no linked library in %q: building with -o", work)
	args = append(args, "-o", lib, ".")
	if out, err := exec.Command("go", args...).CombinedOutput(); err != nil {
		return "go " + strings.Join(args, " ") + ": " + err.Error() + "\n" + string(out)
	}
	return ""
}

func TestMain(m *testing.M) {
	code := m.Run()
	if buildDir != "" {
		os.RemoveAll(buildDir)
	}
	os.Exit(code)
}

// TestEngineC: the C example, built with cc against ycbcrkit.h and libycbcrkit.so, draws 120
// frames of two videos (8-bit 4:2:0 decoded in software, 640×360, 100 pictures; 10-bit 4:2:0,
// 64×48, 5 pictures; both looping) side by side with its own pipelines and the library's immutable
// samplers, with timeline acquire and GPU release (timeline and binary semaphores), under the
// validation layer with synchronization validation: it exits 0 with no message, and each half of
// its PNG is within 1/255 of ycbcrplay's picture of the same frame (picture 119: the first clip's
// 20th picture, the second's 5th).
func TestEngineC(t *testing.T) {
	dir := built(t)
	media := "../testvectors/media"
	clips := []struct {
		path   string
		frames string // ycbcrplay -frames: the picture the example's 120th frame shows
	}{{filepath.Join(media, "default.mkv"), "20"}, {filepath.Join(media, "yuv420p10le.mkv"), "5"}}
	out := filepath.Join(t.TempDir(), "engine-c.png")
	cmd := exec.Command(filepath.Join(dir, "engine-c"), "-validate", "-frames", "120", "-out", out, clips[0].path, clips[1].path)
	var stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stderr, &stderr
	if err := cmd.Run(); err != nil || stderr.Len() > 0 {
		t.Fatalf("engine-c: %v\n%s", err, stderr.String())
	}
	got := pictest.ReadPNG(t, out)
	x := 0
	for _, c := range clips {
		ref := filepath.Join(t.TempDir(), "ref.png")
		play := exec.Command(pictest.Ycbcrplay(t, dir), "-headless", "-untimed", "-no-audio", "-validate",
			"-frames", c.frames, "-screenshot", ref, c.path)
		if msg, err := play.CombinedOutput(); err != nil {
			t.Fatalf("ycbcrplay: %v\n%s", err, msg)
		}
		want := pictest.ReadPNG(t, ref)
		w, h := want.Bounds().Dx(), want.Bounds().Dy()
		half := got.(interface {
			SubImage(image.Rectangle) image.Image
		}).SubImage(image.Rect(x, 0, x+w, h))
		if d := pictest.MaxDiff(t, half, want); d > 1 {
			t.Errorf("%s: engine-c's picture is %.0f/255 from ycbcrplay's", filepath.Base(c.path), d)
		}
		x += w
	}
}

// TestEngineCDeviceLost: a lost device (the library's fence queries and waits report
// VK_ERROR_DEVICE_LOST from the first on: YCBCRKIT_FAULT, test builds only) reaches the C program as YK_ERROR_DEVICE_LOST (-5)
// from the call that met it, with the reason in yk_last_error; the program ends at once.
func TestEngineCDeviceLost(t *testing.T) {
	dir := built(t)
	cmd := exec.Command(filepath.Join(dir, "engine-c"), "-frames", "120", "-out", filepath.Join(t.TempDir(), "x.png"),
		"../testvectors/media/yuv420p10le.mkv")
	cmd.Env = append(os.Environ(), "YCBCRKIT_FAULT=vkGetFenceStatus:-4:0,vkWaitForFences:-4:0")
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "VK_ERROR_DEVICE_LOST") || !strings.HasSuffix(strings.TrimSpace(string(out)), "(yk_result -5)") {
		t.Fatalf("engine-c with a lost device: %v\n%s", err, out)
	}
}

// TestEngineCDraw: the C example has the library draw the first picture of a 640×360 clip into its
// own 320×240 storage image (yk_frame_draw: scaled, letterboxed; the engine's binary semaphores
// waited on and signalled) under validation and synchronization validation; the picture is within
// 1/255 of ycbcrplay's headless window of that size (-screenshot-window, -dither off: the draw does
// not dither).
func TestEngineCDraw(t *testing.T) {
	dir := built(t)
	clip := "../testvectors/media/default.mkv"
	out, ref := filepath.Join(t.TempDir(), "draw.png"), filepath.Join(t.TempDir(), "ref.png")
	if msg, err := exec.Command(filepath.Join(dir, "engine-c"), "-validate", "-draw", "320x240", "-out", out, clip).CombinedOutput(); err != nil || len(msg) > 0 {
		t.Fatalf("engine-c -draw: %v\n%s", err, msg)
	}
	if msg, err := exec.Command(pictest.Ycbcrplay(t, dir), "-headless", "-untimed", "-no-audio", "-frames", "1",
		"-dither", "off", "-screenshot-window", "-geometry", "320x240", "-screenshot", ref, clip).CombinedOutput(); err != nil {
		t.Fatalf("ycbcrplay: %v\n%s", err, msg)
	}
	if d := pictest.MaxDiff(t, pictest.ReadPNG(t, out), pictest.ReadPNG(t, ref)); d > 1 {
		t.Errorf("yk_frame_draw's picture is %.0f/255 from ycbcrplay's window", d)
	}
}

// TestEngineCControls: through the C ABI, yk_texture_pause, play, seek (forward, and back, which
// reopens the input), set_rate and time each change what the next YK_ACQUIRE_CLOCK returns as
// ycbcrkit.h says (the example's -controls checks each and fails naming the first that does not).
func TestEngineCControls(t *testing.T) {
	dir := built(t)
	if msg, err := exec.Command(filepath.Join(dir, "engine-c"), "-validate", "-controls", "../testvectors/media/default.mkv").CombinedOutput(); err != nil || len(msg) > 0 {
		t.Fatalf("engine-c -controls: %v\n%s", err, msg)
	}
}

// TestEngineCTarget: through the C ABI, yk_open_params.target = YK_TARGET_HDR10 and
// YK_TARGET_EXTENDED_LINEAR give frames marked to_target (the example fails otherwise) whose
// picture, drawn by the example under validation into its RGBA8 target, is within 1/255 of the CPU
// oracle's of the clip's first picture, decoded apart, clipped to 0..1: the bundled SDR clip's HDR10
// encoding (BT.1886 display light, SDR white at 203 cd/m², BT.2020 primaries, PQ) and
// extended-linear light (BT.1886 with white at 80 cd/m² = 1.0, BT.709), read from the library's
// float16 image; and a PQ BT.2020 clip's with yk_open_params.target_white = 203 (1.0 = 203 cd/m²).
func TestEngineCTarget(t *testing.T) {
	dir := built(t)
	pq := filepath.Join(t.TempDir(), "pq.mkv")
	if out, err := exec.Command("ffmpeg", "-v", "error", "-f", "lavfi", "-i", "testsrc2=s=64x48:r=25", "-frames:v", "1",
		"-pix_fmt", "yuv444p10le", "-c:v", "libx265", "-x265-params",
		"log-level=error:colorprim=bt2020:transfer=smpte2084:colormatrix=bt2020nc", pq).CombinedOutput(); err != nil {
		t.Fatalf("ffmpeg: %v: %s", err, out)
	}
	for _, c := range []struct {
		clip, target string
		white        float64
		output       ycbcr.Output
	}{
		{"../testvectors/media/default.mkv", "hdr10", 0, ycbcr.OutputHDR10},
		{"../testvectors/media/default.mkv", "extended-linear", 0, ycbcr.OutputExtendedLinear},
		{pq, "extended-linear", 203, ycbcr.OutputExtendedLinear},
	} {
		name := fmt.Sprintf("%s (white %g) of %s", c.target, c.white, filepath.Base(c.clip))
		out := filepath.Join(t.TempDir(), "target.png")
		if msg, err := exec.Command(filepath.Join(dir, "engine-c"), "-validate", "-target", c.target, "-white", fmt.Sprint(c.white),
			"-frames", "1", "-out", out, c.clip).CombinedOutput(); err != nil || len(msg) > 0 {
			t.Fatalf("engine-c %s: %v\n%s", name, err, msg)
		}
		want := oracletest.First(t, c.clip, func(p *ycbcr.Params) { p.Output, p.LinearWhite = c.output, c.white })
		w := want.Width
		got := pictest.ReadPNG(t, out)
		worst := 0.0
		for i, v := range want.Want {
			r, g, b, _ := got.At(i%w, i/w).RGBA()
			for k, c := range []uint32{r >> 8, g >> 8, b >> 8} {
				worst = math.Max(worst, math.Abs(float64(c)-math.Min(math.Max(v[k], 0), 1)*255))
			}
		}
		t.Logf("%s: %.2f LSB from the oracle", name, worst)
		if worst > 1 {
			t.Errorf("engine-c's picture, %s, is %.2f/255 from the oracle's", name, worst)
		}
	}
}

// TestEngineCInternallySynchronized: engine-c -isq asks for internally synchronized queues
// (yk_engine_params.internally_synchronized_queues, ABI 1.3). On a device without
// VK_KHR_internally_synchronized_queues (lavapipe: yk_requirements.internally_synchronized_queues
// is 0) it creates its queues as usual and yk_engine_create refuses the flag: exit 1, one line
// naming the extension, no validation message. Where a device offers it the example draws with the
// flag, its lock callbacks still lent and counted, and prints "queue lock calls: 0" (it fails if
// the library called them; scripts/device/run.sh isq).
func TestEngineCInternallySynchronized(t *testing.T) {
	dir := built(t)
	out := filepath.Join(t.TempDir(), "isq.png")
	msg, err := exec.Command(filepath.Join(dir, "engine-c"), "-validate", "-isq", "-frames", "2", "-out", out,
		"../testvectors/media/default.mkv").CombinedOutput()
	text := strings.TrimSpace(string(msg))
	if err == nil && text == "queue lock calls: 0" {
		t.Logf("the device offers the extension: %s", text)
		return
	}
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 || strings.Count(text, "\n") != 0 ||
		!strings.HasPrefix(text, "error: yk_engine_create") ||
		!strings.Contains(text, "does not offer VK_KHR_internally_synchronized_queues") {
		t.Fatalf("engine-c -isq: %v\n%s\nwant exit 1 and one line: yk_engine_create refusing, naming the extension", err, text)
	}
	t.Logf("refused: %s", text)
}
