package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/internal/testkit/pictest"
	"github.com/ycbcrkit/ycbcrkit/internal/testkit/vktest"
	"github.com/ycbcrkit/ycbcrkit/ycbcr"
)

// uploadStats are the -stats fields -hwdec upload must fill.
type uploadStats struct {
	Decoder   string `json:"decoder"`
	HWDec     string `json:"hwdec"`
	Reason    string `json:"hwdec_reason"`
	Route     string `json:"hwdec_route"`
	Path      string `json:"path"`
	Presented int    `json:"frames_presented"`
	CPUBytes  int    `json:"cpu_bytes_copied_per_frame"`
}

// TestHWDecUpload: -hwdec upload on lavapipe (no Vulkan Video) decodes in software, puts each
// picture into FFmpeg's Vulkan frames and plays them through the routes of hardware frames, with
// the validation layer on. For the test vectors whose layouts FFmpeg's Vulkan frames hold (two- and
// three-plane 8-bit, 4:2:0 and 4:2:2, full range, an odd size that the upload pads), in place and
// through the GPU copy, on the shader path and on the sampler path where the device offers it: the
// first frame's screenshot is within the path's bound of zscale's picture of the file (1 LSB
// shader, 4 sampler: TestVectorsMatchZscale's) and within 1 LSB of the software path's; -stats says
// hwdec upload, the route asked for, and the bytes the upload copies. A whole clip then plays
// through both routes to its last frame, headless and in a window, and an H.264 clip whose coded
// size is larger than its picture is uploaded at that size: in place crops, auto copies.
func TestHWDecUpload(t *testing.T) {
	dev := vktest.Open(t)
	dir := t.TempDir()
	limits := map[string]float64{"shader": 1, "sampler": 4}
	routes := map[string]string{"inplace": "in place (", "copy": "GPU copy ("}
	vectors := map[string]pictest.Vector{}
	for _, v := range pictest.Vectors(t, mediaDir) {
		vectors[v.Name] = v
	}
	run := func(t *testing.T, file, shot string, args ...string) uploadStats {
		t.Helper()
		args = append([]string{"-headless", "-untimed", "-validate", "-stats", "-screenshot", shot}, args...)
		stdout, stderr, code := play(t, append(args, file)...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, stderr)
		}
		var st uploadStats
		if err := json.Unmarshal([]byte(stdout), &st); err != nil {
			t.Fatalf("%v: -stats: %v: %q", args, err, stdout)
		}
		return st
	}
	sampled := 0
	for _, name := range []string{"nv12", "yuv420p_left", "yuv422p", "odd_63x47", "fullrange"} {
		v, ok := vectors[name]
		if !ok {
			t.Fatalf("%s: not in the manifest", name)
		}
		file := filepath.Join(mediaDir, v.File)
		zscale := pictest.ReadPNG(t, filepath.Join(mediaDir, v.PNG))
		pf, _ := formats.Lookup(v.PixFmt)
		for _, path := range []string{"shader", "sampler"} {
			if path == "sampler" {
				var p ycbcr.Params
				p.Matrix, _ = formats.ParseMatrix(v.Expected.Matrix)
				p.Range, _ = formats.ParseRange(v.Expected.Range)
				p.ChromaLocation, _ = formats.ParseChromaLocation(v.Expected.ChromaLocation)
				if _, err := ycbcr.SamplerKey(dev, pf, p); pf == nil || err != nil {
					t.Logf("%s: sampler path not offered: %v", name, err)
					continue
				}
				sampled++
			}
			sw := filepath.Join(dir, name+"."+path+".sw.png")
			run(t, file, sw, "-frames", "1", "-hwdec", "no", "-path", path)
			for route, prefix := range routes {
				shot := filepath.Join(dir, name+"."+path+"."+route+".png")
				st := run(t, file, shot, "-frames", "1", "-hwdec", "upload", "-hwdec-route", route, "-path", path)
				w, h := v.Width, v.Height
				if st.HWDec != "upload" || st.Reason != "-hwdec upload" || st.Decoder == "" || st.Path != path ||
					!strings.HasPrefix(st.Route, prefix) || st.CPUBytes < w*h {
					t.Errorf("%s via %s, %s: -stats %+v", name, path, route, st)
				}
				img := pictest.ReadPNG(t, shot)
				if d := maxDiff(t, img, zscale); d > limits[path] {
					t.Errorf("%s via %s, %s: %.0f LSB from zscale's picture (limit %.0f)", name, path, route, d, limits[path])
				}
				if d := maxDiff(t, img, pictest.ReadPNG(t, sw)); d > 1 {
					t.Errorf("%s via %s, %s: %.0f LSB from the software path's screenshot", name, path, route, d)
				}
				t.Logf("%s via %s: %s", name, path, st.Route)
			}
		}
	}
	if sampled == 0 {
		t.Error("no vector went through the sampler path")
	}

	// The whole clip (5 frames): the frames pool, semaphores and locks of every frame, to the last
	// frame, whose screenshot is the software path's.
	file := filepath.Join(mediaDir, vectors["yuv420p_left"].File)
	sw := filepath.Join(dir, "clip.sw.png")
	run(t, file, sw, "-hwdec", "no", "-path", "shader")
	for route, prefix := range routes {
		shot := filepath.Join(dir, "clip."+route+".png")
		st := run(t, file, shot, "-hwdec", "upload", "-hwdec-route", route, "-path", "shader")
		if st.Presented != 5 || !strings.HasPrefix(st.Route, prefix) {
			t.Errorf("clip, %s: %d frames presented, route %q", route, st.Presented, st.Route)
		}
		if d := maxDiff(t, pictest.ReadPNG(t, shot), pictest.ReadPNG(t, sw)); d > 1 {
			t.Errorf("clip, %s: the last frame is %.0f LSB from the software path's", route, d)
		}
	}

	// A picture smaller than its coded size (H.264 96x40, coded 96x48): uploaded at the decoder's
	// coded size, as Vulkan Video's frames would be, so in place crops and auto takes the GPU copy
	// for the padding, as it would for decoded frames (stream.autoRoute); both equal software
	// decoding's picture.
	padded := filepath.Join(dir, "padded.mkv")
	ffmpegCLI(t, "-f", "lavfi", "-i", "testsrc2=s=96x40:r=25", "-frames:v", "3", "-pix_fmt", "yuv420p",
		"-c:v", "libx264", "-qp", "0", padded)
	sw = filepath.Join(dir, "padded.sw.png")
	run(t, padded, sw, "-hwdec", "no", "-path", "shader")
	for route, want := range map[string]string{"inplace": "cropped from 96x48", "auto": "GPU copy (auto: the decoder's image is 96x48 for a 96x40 picture"} {
		shot := filepath.Join(dir, "padded."+route+".png")
		st := run(t, padded, shot, "-hwdec", "upload", "-hwdec-route", route, "-path", "shader")
		if !strings.Contains(st.Route, want) {
			t.Errorf("padded, %s: route %q, want %q in it", route, st.Route, want)
		}
		if d := maxDiff(t, pictest.ReadPNG(t, shot), pictest.ReadPNG(t, sw)); d > 1 {
			t.Errorf("padded, %s: %.0f LSB from the software path's screenshot", route, d)
		}
	}

	// In a window the device is opened before the input (player.PlayOpening): it must still get
	// what Vulkan frames need (GPUConfig.Frames), or the uploader refuses it.
	stdout, stderr, code := play(t, "-untimed", "-validate", "-stats", "-hwdec", "upload", "-hwdec-route", "copy", file)
	var st uploadStats
	if err := json.Unmarshal([]byte(stdout), &st); code != 0 || err != nil || st.HWDec != "upload" || st.Presented != 5 {
		t.Errorf("in a window: exit %d, %v, -stats %+v: %s", code, err, st, stderr)
	}
}
