package main

import (
	"bytes"
	"fmt"
	"image"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ycbcrkit/ycbcrkit/decode"
	"github.com/ycbcrkit/ycbcrkit/gpu"
	"github.com/ycbcrkit/ycbcrkit/internal/testkit/pictest"
	"github.com/ycbcrkit/ycbcrkit/present/window"
	"github.com/ycbcrkit/ycbcrkit/testvectors/media"
	"github.com/ycbcrkit/ycbcrkit/ycbcr"
	"github.com/ycbcrkit/ycbcrkit/ycbcr/check"
	"github.com/ycbcrkit/ycbcrkit/ycbcr/oracle"
)

// TestMain keeps one validated device open for the whole run. internal/vkx caches device entry
// points by VkDevice handle value (import.c, device_fns) and never forgets them: a device created
// at the address of a destroyed one gets the old pointers, which lead into the validation layer's
// unloaded library once no instance uses it. The open device keeps the layer loaded, and every run
// below enables validation so that the layer's entry points are right for its device too.
func TestMain(m *testing.M) {
	pin, err := gpu.Open(gpu.Options{Index: -1, Validation: true})
	if err != nil {
		fmt.Fprintf(os.Stderr, "no usable Vulkan device: %v\n", err)
		os.Exit(1)
	}
	code := m.Run()
	pin.Close()
	os.Exit(code)
}

func cube(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var o, e bytes.Buffer
	code = run(args, &o, &e)
	return o.String(), e.String(), code
}

func writeClip(t *testing.T) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "default.mkv")
	if err := os.WriteFile(p, media.DefaultClip, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// topLeftClip is the bundled clip with its chroma siting retagged (no re-encoding) as top-left,
// which every Y′CbCr device samples exactly: the sampler path on any device. The bundled clip's
// own "left" siting needs MIDPOINT vertically, which lavapipe lacks: it takes the fallback there.
func topLeftClip(t *testing.T) string {
	t.Helper()
	// The project's own FFmpeg build's program: it travels to the GPU machines with the tests.
	ffmpeg := os.Getenv("YCBCRKIT_FFMPEG")
	if ffmpeg == "" {
		t.Fatal("YCBCRKIT_FFMPEG is unset: run the tests with make test, or eval \"$(scripts/build-ffmpeg.sh --env)\" first")
	}
	out := filepath.Join(t.TempDir(), "topleft.mkv")
	if b, err := exec.Command(ffmpeg, "-v", "error", "-i", writeClip(t), "-c", "copy", "-bsf:v",
		"h264_metadata=chroma_sample_loc_type=2", out).CombinedOutput(); err != nil {
		t.Fatalf("ffmpeg: %v: %s", err, b)
	}
	return out
}

func readPNG(t *testing.T, path string) *image.NRGBA {
	t.Helper()
	img := pictest.ReadPNG(t, path)
	out := image.NewNRGBA(img.Bounds())
	for y := 0; y < img.Bounds().Dy(); y++ {
		for x := 0; x < img.Bounds().Dx(); x++ {
			out.Set(x, y, img.At(x, y))
		}
	}
	return out
}

func px(img *image.NRGBA, x, y int) [3]float64 {
	i := img.PixOffset(x, y)
	return [3]float64{float64(img.Pix[i]), float64(img.Pix[i+1]), float64(img.Pix[i+2])}
}

func dist(a, b [3]float64) float64 {
	return math.Max(math.Abs(a[0]-b[0]), math.Max(math.Abs(a[1]-b[1]), math.Abs(a[2]-b[2])))
}

var bg8 = [3]float64{32, 64, 96}

// lastPicture reads "last picture N" from the program's output.
func lastPicture(t *testing.T, stdout string) int {
	t.Helper()
	m := regexp.MustCompile(`last picture (\d+) `).FindStringSubmatch(stdout)
	if m == nil {
		t.Fatalf("no 'last picture' line in %q", stdout)
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

// expectation is the decoded picture a screenshot should show, as the oracle samples it.
type expectation struct {
	pic *oracle.Picture
	prm oracle.Params
	w   int
	h   int
}

// expect decodes picture n of clip independently of the program and prepares the oracle for it.
func expect(t *testing.T, clip string, n int) expectation {
	t.Helper()
	d, err := decode.Open(clip, decode.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	for i := 0; ; i++ {
		f, err := d.Next()
		if err != nil {
			t.Fatalf("picture %d: %v", i, err)
		}
		if i < n {
			f.Release()
			continue
		}
		defer f.Release()
		prm, err := check.OracleParams(f.Picture.Format, ycbcr.FromColor(f.Color))
		if err != nil {
			t.Fatal(err)
		}
		return expectation{pic: check.OraclePicture(f.Picture), prm: prm, w: f.Picture.Width, h: f.Picture.Height}
	}
}

// at is the expected 8-bit colour at texture coordinates (u, v).
func (e expectation) at(u, v float64) [3]float64 {
	s := oracle.Sample(e.pic, e.prm, u, v)
	var out [3]float64
	for c := range out {
		out[c] = math.Round(math.Min(1, math.Max(0, s[c])) * 255)
	}
	return out
}

// faceCheck is what checkFace found.
type faceCheck struct {
	x0, x1, y0, y1   int
	uniform, matched int
	spread           float64 // largest difference between expected colours of uniform points
	maxMatched       float64 // largest difference among the points that match
	worst            string
}

// checkFace finds the front face of the unrotated cube (a square centred in the picture: only the
// background around it) and compares a grid of its pixels with the oracle's colour of the video at
// the texture coordinates the pixel shows. Points where the video is not uniform within ±4 texels
// are skipped, so a half-pixel uncertainty about the face's edges cannot matter.
func checkFace(t *testing.T, img *image.NRGBA, e expectation) faceCheck {
	t.Helper()
	w, h := img.Bounds().Dx(), img.Bounds().Dy()
	isBG := func(x, y int) bool { return dist(px(img, x, y), bg8) <= 1 }
	for _, p := range [][2]int{{0, 0}, {w - 1, 0}, {0, h - 1}, {w - 1, h - 1}, {w / 2, 2}, {2, h / 2}} {
		if !isBG(p[0], p[1]) {
			t.Fatalf("(%d,%d) is %v, want the background %v", p[0], p[1], px(img, p[0], p[1]), bg8)
		}
	}
	var fc faceCheck
	fc.x0, fc.x1, fc.y0, fc.y1 = -1, -1, -1, -1
	for x := 0; x < w; x++ {
		if !isBG(x, h/2) {
			if fc.x0 < 0 {
				fc.x0 = x
			}
			fc.x1 = x
		}
	}
	for y := 0; y < h; y++ {
		if !isBG(w/2, y) {
			if fc.y0 < 0 {
				fc.y0 = y
			}
			fc.y1 = y
		}
	}
	fw, fh := fc.x1-fc.x0+1, fc.y1-fc.y0+1
	// The face is 1 unit wide at 2.5 units with a 45° vertical field of view: 0.4828 of the half
	// height on each side of the centre.
	want := 2 * 0.4828 * float64(h) / 2
	if fc.x0 < 0 || math.Abs(float64(fw)-want) > 4 || math.Abs(float64(fh)-want) > 4 ||
		math.Abs(float64(fc.x0+fc.x1+1)/2-float64(w)/2) > 2 || math.Abs(float64(fc.y0+fc.y1+1)/2-float64(h)/2) > 2 {
		t.Fatalf("front face spans x %d..%d, y %d..%d; want a %.0f px square centred in %dx%d", fc.x0, fc.x1, fc.y0, fc.y1, want, w, h)
	}
	const grid = 12
	var seen [][3]float64
	worst := 0.0
	for gy := 0; gy < grid; gy++ {
		for gx := 0; gx < grid; gx++ {
			x := fc.x0 + int((float64(gx)+0.5)/grid*float64(fw))
			y := fc.y0 + int((float64(gy)+0.5)/grid*float64(fh))
			u := (float64(x) + 0.5 - float64(fc.x0)) / float64(fw)
			v := (float64(y) + 0.5 - float64(fc.y0)) / float64(fh)
			c := e.at(u, v)
			du, dv := 4/float64(e.w), 4/float64(e.h)
			uniform := true
			for _, o := range [][2]float64{{-du, 0}, {du, 0}, {0, -dv}, {0, dv}, {-du, -dv}, {du, dv}, {-du, dv}, {du, -dv}} {
				if dist(e.at(u+o[0], v+o[1]), c) > 2 {
					uniform = false
				}
			}
			if !uniform {
				continue
			}
			fc.uniform++
			for _, s := range seen {
				fc.spread = math.Max(fc.spread, dist(s, c))
			}
			seen = append(seen, c)
			got := px(img, x, y)
			if d := dist(got, c); d <= 6 {
				fc.matched++
				fc.maxMatched = math.Max(fc.maxMatched, d)
			} else if d > worst {
				worst = d
				fc.worst = fmt.Sprintf("(%d,%d) uv (%.3f,%.3f): %v, video %v", x, y, u, v, got, c)
			}
		}
	}
	return fc
}

// TestHeadlessScreenshot renders three frames headless with validation on, the cube unrotated,
// through the fallback path (the bundled clip on lavapipe; the sampler path on devices with
// MIDPOINT) and through the sampler path (the clip retagged top-left), and checks the screenshot:
// the background where there is no cube, a square front face where the projection puts it, and
// in that face the video's own colours (the oracle's, from an independent decode of the picture
// the program says it drew) wherever the video is locally uniform. The back and side faces are
// drawn after the front one and darker (ambient light only), so these colours also prove the
// depth test hides them.
func TestHeadlessScreenshot(t *testing.T) {
	cases := []struct {
		name, path, clip string
	}{{"auto", "auto", writeClip(t)}, {"sampler", "sampler", topLeftClip(t)}, {"shader", "shader", topLeftClip(t)}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			shot := filepath.Join(t.TempDir(), "cube.png")
			stdout, stderr, code := cube(t, "-headless", "-validate", "-frames", "3", "-spin", "0", "-path", c.path,
				"-screenshot", shot, c.clip)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			if c.path != "auto" && !strings.Contains(stdout, c.path+" path") {
				t.Fatalf("output %q does not report the %s path", stdout, c.path)
			}
			t.Log(strings.TrimSpace(stdout))
			n := lastPicture(t, stdout)
			if n != 2 {
				t.Errorf("last picture %d, want 2 (headless runs step one picture per frame)", n)
			}
			fc := checkFace(t, readPNG(t, shot), expect(t, c.clip, n))
			t.Logf("face %d..%d × %d..%d; %d of %d uniform points match the video (within %.0f/255)",
				fc.x0, fc.x1, fc.y0, fc.y1, fc.matched, fc.uniform, fc.maxMatched)
			if fc.uniform < 30 || fc.spread < 100 {
				t.Fatalf("only %d uniform points, colour spread %.0f: the check would prove little", fc.uniform, fc.spread)
			}
			if fc.matched != fc.uniform {
				t.Fatalf("%d of %d points differ from the video by more than 6/255; worst %s", fc.uniform-fc.matched, fc.uniform, fc.worst)
			}
		})
	}
}

// TestSixVideos: -videos 6 with two inputs (repeated: three textures of each) on one device, with
// validation on; every texture's first picture is opened and drawn each frame. The front face
// shows video 0 (the first input) in its own colours, as the oracle decodes it, with the other
// five textures' pipelines and semaphores in the same submissions.
func TestSixVideos(t *testing.T) {
	first, second := topLeftClip(t), writeClip(t)
	shot := filepath.Join(t.TempDir(), "six.png")
	stdout, stderr, code := cube(t, "-headless", "-validate", "-videos", "6", "-frames", "3", "-spin", "0",
		"-screenshot", shot, first, second)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	t.Log(strings.TrimSpace(stdout))
	for i := 0; i < 6; i++ {
		if !strings.Contains(stdout, fmt.Sprintf("video %d: ", i)) {
			t.Fatalf("no line for video %d in %q", i, stdout)
		}
	}
	n := lastPicture(t, stdout)
	if n != 2 {
		t.Errorf("last picture %d, want 2", n)
	}
	fc := checkFace(t, readPNG(t, shot), expect(t, first, n))
	if fc.uniform < 30 || fc.spread < 100 {
		t.Fatalf("only %d uniform points, colour spread %.0f: the check would prove little", fc.uniform, fc.spread)
	}
	if fc.matched != fc.uniform {
		t.Fatalf("%d of %d points differ from the video by more than 6/255; worst %s", fc.uniform-fc.matched, fc.uniform, fc.worst)
	}
}

// TestDepthTestMatters: the same scene without the depth test shows the back and side faces over
// the front one, so the face check above fails almost everywhere: it does detect a broken depth
// test.
func TestDepthTestMatters(t *testing.T) {
	clip := writeClip(t)
	shot := filepath.Join(t.TempDir(), "nodepth.png")
	stdout, stderr, code := cube(t, "-headless", "-validate", "-frames", "3", "-spin", "0", "-depth=false", "-screenshot", shot, clip)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	fc := checkFace(t, readPNG(t, shot), expect(t, clip, lastPicture(t, stdout)))
	if fc.uniform < 30 || fc.matched*10 > fc.uniform {
		t.Fatalf("without depth test %d of %d points still match: the check cannot see hidden faces", fc.matched, fc.uniform)
	}
	t.Logf("without depth test, %d of %d points match", fc.matched, fc.uniform)
}

// TestWindow draws into a window (under Xvfb) with validation on, spinning, and checks the
// screenshot of the last presented frame shows the cube on the background.
func TestWindow(t *testing.T) {
	if !window.Available() {
		t.Skip("no display: run under xvfb-run")
	}
	shot := filepath.Join(t.TempDir(), "win.png")
	stdout, stderr, code := cube(t, "-validate", "-frames", "10", "-size", "320x240", "-screenshot", shot)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	img := readPNG(t, shot)
	if img.Bounds().Dx() != 320 || img.Bounds().Dy() != 240 {
		t.Fatalf("screenshot %v, want 320x240", img.Bounds())
	}
	if d := dist(px(img, 0, 0), bg8); d > 1 {
		t.Errorf("corner %v, want the background", px(img, 0, 0))
	}
	if d := dist(px(img, 160, 120), bg8); d < 20 {
		t.Errorf("centre %v is the background: no cube", px(img, 160, 120))
	}
	t.Log(strings.TrimSpace(stdout))
}

// TestBadInputs: each bad input gives one `error: ...` line and a non-zero exit, quickly.
func TestBadInputs(t *testing.T) {
	dir := t.TempDir()
	text := filepath.Join(dir, "notes.mp4")
	os.WriteFile(text, []byte("this is not a video\n"), 0o644)
	cases := map[string][]string{
		"missing file":            {"-frames", "2", filepath.Join(dir, "nope.mkv")},
		"text file":               {"-frames", "2", text},
		"bad flag":                {"-path", "magic"},
		"bad size":                {"-size", "12"},
		"screenshot no count":     {"-screenshot", filepath.Join(dir, "x.png")},
		"more inputs than videos": {"-videos", "1", text, text},
		"bad -videos":             {"-videos", "7"},
	}
	for name, args := range cases {
		start := time.Now()
		_, stderr, code := cube(t, append([]string{"-headless", "-validate"}, args...)...)
		lines := strings.Split(strings.TrimSpace(stderr), "\n")
		if code == 0 || len(lines) != 1 || !strings.HasPrefix(lines[0], "error: ") {
			t.Errorf("%s: exit %d, stderr %q: want a non-zero exit and one error line", name, code, stderr)
		}
		if el := time.Since(start); el > 5*time.Second {
			t.Errorf("%s: took %s", name, el)
		}
	}
	if out, _, code := cube(t, "-list-devices"); code != 0 || !strings.Contains(out, "0: ") {
		t.Errorf("-list-devices: exit %d, %q", code, out)
	}
}

// TestSPIRVMatchesSources recompiles each shader the way shaders/generate.sh does and compares it
// with the committed, embedded SPIR-V: an edited source without `go generate` fails here.
func TestSPIRVMatchesSources(t *testing.T) {
	embedded := map[string][]byte{"cube.vert": cubeVert, "cube.frag": cubeFrag}
	dir := t.TempDir()
	for src, emb := range embedded {
		out := filepath.Join(dir, src+".spv")
		if msg, err := exec.Command("glslc", "--target-env=vulkan1.1", "-O", "-o", out, filepath.Join("shaders", src)).CombinedOutput(); err != nil {
			t.Fatalf("glslc %s: %v\n%s", src, err, msg)
		}
		if msg, err := exec.Command("spirv-val", "--target-env", "vulkan1.1", out).CombinedOutput(); err != nil {
			t.Fatalf("spirv-val %s: %v\n%s", src, err, msg)
		}
		fresh, _ := os.ReadFile(out)
		if !bytes.Equal(fresh, emb) {
			t.Errorf("shaders/%s.spv is stale: run `go generate ./cmd/ycbcrcube`", src)
		}
	}
}
