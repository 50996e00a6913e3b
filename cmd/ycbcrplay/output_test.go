package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/internal/testkit/vktest"
	"github.com/ycbcrkit/ycbcrkit/ycbcr"
)

// TestScreenshotPaths: output paths are checked before anything plays, the input is never
// overwritten, the extension picks the format (PNG or JPEG, by their magic numbers), and a failed
// write says its path once.
func TestScreenshotPaths(t *testing.T) {
	dir := t.TempDir()
	clip := filepath.Join(dir, "in.mkv")
	orig, err := os.ReadFile(filepath.Join(mediaDir, "bt709.mkv"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(clip, orig, 0o644); err != nil {
		t.Fatal(err)
	}
	oneLine := func(t *testing.T, stderr string) {
		t.Helper()
		if strings.Count(stderr, "\n") != 1 || !strings.HasPrefix(stderr, "error: ") {
			t.Errorf("want one error line, got %q", stderr)
		}
	}
	t.Run("input", func(t *testing.T) {
		_, stderr, code := play(t, "-headless", "-untimed", "-screenshot", clip, clip)
		if code == 0 || !strings.Contains(stderr, "input file") {
			t.Errorf("exit %d: %q", code, stderr)
		}
		oneLine(t, stderr)
		if now, _ := os.ReadFile(clip); !bytes.Equal(now, orig) {
			t.Error("the input file was changed")
		}
	})
	t.Run("missing folder fails at once", func(t *testing.T) {
		start := time.Now()
		_, stderr, code := play(t, "-headless", "-screenshot", filepath.Join(dir, "missing", "x.png"), clip)
		if code == 0 || time.Since(start) > time.Second {
			t.Errorf("exit %d after %s: %q", code, time.Since(start), stderr)
		}
		oneLine(t, stderr)
	})
	t.Run("unknown extension", func(t *testing.T) {
		_, stderr, code := play(t, "-headless", "-screenshot", filepath.Join(dir, "x.bmp"), clip)
		if code == 0 || !strings.Contains(stderr, ".png, .jpg") {
			t.Errorf("exit %d: %q", code, stderr)
		}
		oneLine(t, stderr)
		if _, err := os.Stat(filepath.Join(dir, "x.bmp")); err == nil {
			t.Error("a refused path was created")
		}
	})
	for _, c := range []struct {
		name  string
		magic []byte
	}{{"x.png", []byte("\x89PNG\r\n\x1a\n")}, {"x.jpg", []byte{0xff, 0xd8, 0xff}}, {"x.JPEG", []byte{0xff, 0xd8, 0xff}}} {
		t.Run(c.name, func(t *testing.T) {
			out := filepath.Join(dir, c.name)
			if _, stderr, code := play(t, "-headless", "-untimed", "-frames", "1", "-screenshot", out, clip); code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			b, err := os.ReadFile(out)
			if err != nil || !bytes.HasPrefix(b, c.magic) {
				t.Errorf("%s starts with % x, want % x (%v)", c.name, b[:min(len(b), 8)], c.magic, err)
			}
		})
	}
	t.Run("full device", func(t *testing.T) {
		// /dev/full opens, and every write fails with ENOSPC: the message names the path once.
		if _, err := os.Stat("/dev/full"); err != nil {
			t.Fatalf("/dev/full: %v", err)
		}
		// The extension check comes first, so the device is reached through a .png symlink.
		link := filepath.Join(dir, "full.png")
		if err := os.Symlink("/dev/full", link); err != nil {
			t.Fatal(err)
		}
		_, stderr, code := play(t, "-headless", "-untimed", "-frames", "1", "-screenshot", link, clip)
		if code == 0 || strings.Count(stderr, link) != 1 || !strings.Contains(stderr, "no space left") {
			t.Errorf("exit %d: %q", code, stderr)
		}
		oneLine(t, stderr)
	})
}

// TestPathFallbackMidStream: changes.h264 goes from top-left 4:2:0 (every Y′CbCr device samples it)
// to left-sited 4:2:0, which needs MIDPOINT. With -path sampler or a compare mode the player plays
// on through the shader path with one notice where the device lacks MIDPOINT (lavapipe), and without
// one where it has it.
func TestPathFallbackMidStream(t *testing.T) {
	dev := vktest.Open(t)
	pf, _ := formats.Lookup("yuv420p")
	var p ycbcr.Params
	p.Matrix, p.Range, p.ChromaLocation = formats.MatrixSMPTE170M, formats.RangeLimited, formats.ChromaLeft
	_, cannot := ycbcr.SamplerKey(dev, pf, p)
	for _, args := range [][]string{{"-path", "sampler"}, {"-compare", "split"}, {"-compare", "diff"}} {
		out, stderr, code := play(t, append([]string{"-headless", "-untimed", "-stats", "-validate"}, append(args, filepath.Join(mediaDir, "changes.h264"))...)...)
		if code != 0 {
			t.Errorf("%v: exit %d: %s", args, code, stderr)
			continue
		}
		var st map[string]any
		if err := json.Unmarshal([]byte(out), &st); err != nil || st["frames_presented"] != 9.0 {
			t.Errorf("%v: %v presented (want 9), %v", args, st["frames_presented"], err)
		}
		notices := strings.Count(stderr, "until the sampler can express the stream again")
		if want := map[bool]int{true: 1, false: 0}[cannot != nil]; notices != want {
			t.Errorf("%v: %d fallback notices, want %d: %q", args, notices, want, stderr)
		}
	}
}

// TestDeinterlaceTimed: an interlaced clip (10 coded frames a second, top field first) played timed
// shows its 20 fields over their 0.95 s (one every 50 ms, bwdif's field timestamps), none dropped
// as late: the player's frame duration is the field's, not the coded frame's (until the fix, both
// fields of a frame had its timestamp and the clip played in half its time).
func TestDeinterlaceTimed(t *testing.T) {
	clip := filepath.Join(t.TempDir(), "tff.mkv")
	if out, err := exec.Command("ffmpeg", "-v", "error", "-f", "lavfi", "-i", "testsrc2=s=64x48:r=20", "-vf", "interlace=scan=tff",
		"-frames:v", "10", "-c:v", "libx264", "-flags", "+ildct+ilme", "-x264-params", "tff=1", "-field_order", "tb", clip).CombinedOutput(); err != nil {
		t.Fatalf("ffmpeg: %v: %s", err, out)
	}
	var st struct {
		Presented int     `json:"frames_presented"`
		Dropped   int     `json:"frames_dropped"`
		Wall      float64 `json:"wall_s"`
	}
	out, stderr, code := playTimed(t, 50*time.Millisecond, "-headless", "-stats", clip) // a field's time
	if code != 0 || json.Unmarshal([]byte(out), &st) != nil {
		t.Fatalf("exit %d: %s %s", code, out, stderr)
	}
	t.Logf("%d presented, %d dropped in %.3f s", st.Presented, st.Dropped, st.Wall)
	if st.Presented != 20 || st.Dropped != 0 {
		t.Errorf("%d fields presented, %d dropped; want 20 and 0", st.Presented, st.Dropped)
	}
	if st.Wall < 0.9 { // 19 field periods of 50 ms: the last field is shown at 0.95 s
		t.Errorf("played in %.3f s, want ≥ 0.9 s (20 fields at 20 a second)", st.Wall)
	}
}

// TestDeinterlaceFlag: an interlaced clip (top field first) plays one picture per field with
// -deinterlace auto (the default) and yes, its coded frames with no; a bad value is refused.
func TestDeinterlaceFlag(t *testing.T) {
	clip := filepath.Join(t.TempDir(), "tff.mkv")
	if out, err := exec.Command("ffmpeg", "-v", "error", "-f", "lavfi", "-i", "testsrc2=s=64x48:r=50", "-vf", "interlace=scan=tff",
		"-frames:v", "6", "-c:v", "libx264", "-flags", "+ildct+ilme", "-x264-params", "tff=1", "-field_order", "tb", clip).CombinedOutput(); err != nil {
		t.Fatalf("ffmpeg: %v: %s", err, out)
	}
	for _, c := range []struct {
		args []string
		want float64
	}{{nil, 12}, {[]string{"-deinterlace", "yes"}, 12}, {[]string{"-deinterlace", "no"}, 6}} {
		out, stderr, code := play(t, append(append([]string{"-headless", "-untimed", "-stats"}, c.args...), clip)...)
		var st map[string]any
		if code != 0 || json.Unmarshal([]byte(out), &st) != nil || st["frames_presented"] != c.want {
			t.Errorf("%v: exit %d, presented %v (want %v): %s", c.args, code, st["frames_presented"], c.want, stderr)
		}
	}
	if _, stderr, code := play(t, "-headless", "-deinterlace", "maybe", clip); code == 0 || !strings.Contains(stderr, "-deinterlace") {
		t.Errorf("bad value: exit %d, %q", code, stderr)
	}
}
