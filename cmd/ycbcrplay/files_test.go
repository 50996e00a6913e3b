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

	"github.com/ycbcrkit/ycbcrkit/internal/testkit/pictest"
)

// statsLines reads -stats output: one JSON object per line.
func statsLines(t *testing.T, out string) []map[string]any {
	t.Helper()
	var all []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var st map[string]any
		if err := json.Unmarshal([]byte(line), &st); err != nil {
			t.Fatalf("-stats line is not a JSON object: %v: %q", err, line)
		}
		all = append(all, st)
	}
	return all
}

// TestStdin: "-" reads the input from standard input through a real pipe (this test binary run as
// the command, see TestMain): all 5 frames of nv12.nut (the manifest's count) play; -start 0.1 plays
// the two from 0.12 s on (through the read-ahead cache: NUT's index is at its end, so the decoder
// gets there by decoding); without the cache a seek gives one notice and playback goes on; -loop on
// stdin is refused with one line.
func TestStdin(t *testing.T) {
	for _, tc := range []struct {
		args   []string
		frames float64
		notice string
	}{
		{[]string{"-headless", "-validate", "-untimed", "-stats", "-"}, 5, ""},
		{[]string{"-headless", "-validate", "-untimed", "-stats", "-start", "0.1", "-"}, 2, ""}, // 0.12 and 0.16: decoded to, through the cache
		{[]string{"-headless", "-validate", "-untimed", "-stats", "-cache-size", "0", "-start", "0.1", "-"}, 5, "cannot seek"},
	} {
		in, err := os.Open(filepath.Join(mediaDir, "nv12.nut"))
		if err != nil {
			t.Fatal(err)
		}
		defer in.Close()
		cmd := exec.Command(os.Args[0], tc.args...)
		cmd.Env = append(os.Environ(), "YCBCRPLAY_AS_MAIN=1")
		// StdinPipe makes fd 0 a pipe (os/exec copies the file through it), as cat x | ycbcrplay - does.
		w, err := cmd.StdinPipe()
		if err != nil {
			t.Fatal(err)
		}
		var o, e bytes.Buffer
		cmd.Stdout, cmd.Stderr = &o, &e
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		go func() {
			buf := new(bytes.Buffer)
			buf.ReadFrom(in)
			w.Write(buf.Bytes())
			w.Close()
		}()
		if code := exitCode(t, cmd, 60*time.Second); code != 0 {
			t.Fatalf("%v: exit %d: %s", tc.args, code, e.String())
		}
		st := statsLines(t, o.String())
		if len(st) != 1 || st[0]["frames_presented"] != tc.frames {
			t.Errorf("%v: stats %v, want one line with %v frames", tc.args, st, tc.frames)
		}
		if tc.notice != "" && strings.Count(e.String(), tc.notice) != 1 {
			t.Errorf("%v: stderr %q, want one notice %q", tc.args, e.String(), tc.notice)
		}
	}
	_, stderr, code := play(t, "-headless", "-loop", "2", "-")
	if code != 2 || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, "-loop") {
		t.Errorf("-loop 2 -: exit %d, %q; want 2 and one line", code, stderr)
	}
}

// ffmpegCLI runs Debian's ffmpeg command to make a test clip (its last argument), or copies the
// clip an identical earlier run made (pictest.FFmpegMake).
func ffmpegCLI(t *testing.T, args ...string) {
	t.Helper()
	pictest.FFmpegMake(t, args...)
}

// TestPlaylist: two files play in order, one -stats line each with that file's name and frame count
// (3 and 7 frames, made here), and the key list names the next and previous keys.
func TestPlaylist(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.mkv"), filepath.Join(dir, "b.mkv")
	ffmpegCLI(t, "-f", "lavfi", "-i", "testsrc2=s=64x48:r=25", "-frames:v", "3", "-pix_fmt", "yuv420p", "-c:v", "ffv1", a)
	ffmpegCLI(t, "-f", "lavfi", "-i", "testsrc2=s=96x64:r=25", "-frames:v", "7", "-pix_fmt", "yuv420p", "-c:v", "ffv1", b)
	out, stderr, code := play(t, "-headless", "-validate", "-untimed", "-stats", a, b)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	st := statsLines(t, out)
	if len(st) != 2 {
		t.Fatalf("%d -stats lines, want 2: %q", len(st), out)
	}
	for i, want := range []struct {
		name   string
		frames float64
	}{{"a.mkv", 3}, {"b.mkv", 7}} {
		if st[i]["input"] != want.name || st[i]["frames_presented"] != want.frames || st[i]["frames_decoded"] != want.frames {
			t.Errorf("line %d: input %v, presented %v, decoded %v; want %s, %v", i+1, st[i]["input"],
				st[i]["frames_presented"], st[i]["frames_decoded"], want.name, want.frames)
		}
	}
	if _, stderr, code := play(t, "-headless", a, "-"); code != 2 || !strings.Contains(stderr, "plays alone") {
		t.Errorf("a.mkv -: exit %d, %q", code, stderr)
	}
}

// TestVid: -vid N plays the N-th video stream of a file with two (made here with two lavfi inputs and
// -map: 3 frames of 64x48, then 7 frames of 96x64), told apart by their frame counts; a stream that
// is not there is one error line.
func TestVid(t *testing.T) {
	file := filepath.Join(t.TempDir(), "two.mkv")
	// Lengths by the sources' d= (output -frames:v:N ends the whole output at the first stream's end).
	ffmpegCLI(t, "-f", "lavfi", "-i", "testsrc2=s=64x48:r=25:d=0.12", "-f", "lavfi", "-i", "testsrc=s=96x64:r=25:d=0.28",
		"-map", "0:v", "-map", "1:v", "-pix_fmt", "yuv420p", "-c:v", "ffv1", file)
	for _, tc := range []struct {
		vid    string
		frames float64
	}{{"1", 3}, {"2", 7}} {
		out, stderr, code := play(t, "-headless", "-validate", "-untimed", "-stats", "-vid", tc.vid, file)
		if code != 0 {
			t.Fatalf("-vid %s: exit %d: %s", tc.vid, code, stderr)
		}
		if st := statsLines(t, out); st[0]["frames_presented"] != tc.frames {
			t.Errorf("-vid %s: %v frames, want %v (stream %s)", tc.vid, st[0]["frames_presented"], tc.frames, tc.vid)
		}
	}
	if _, stderr, code := play(t, "-headless", "-vid", "3", file); code != 1 || !strings.Contains(stderr, "no video stream 3: the input has 2") {
		t.Errorf("-vid 3: exit %d, %q", code, stderr)
	}
	if _, stderr, code := play(t, "-headless", "-vid", "-1", file); code != 2 || !strings.Contains(stderr, "-vid") {
		t.Errorf("-vid -1: exit %d, %q", code, stderr)
	}
}

// TestCompareDiffScreenshot: -compare diff -screenshot writes the diff picture, equal to
// |sampler − shader| × the diff gain of the two single-path screenshots of the same frame (-path
// sampler, -path shader: made without the diff code), clamped to 255. The bundled clip with top-left
// siting is one lavapipe's sampler expresses and where the paths differ (about 3% of the samples by
// 1 LSB on lavapipe; the small test vectors do not differ at all there, which would test nothing).
func TestCompareDiffScreenshot(t *testing.T) {
	dir := t.TempDir()
	clip := filepath.Join(mediaDir, "default.mkv")
	shots := map[string]string{}
	for _, mode := range [][]string{{"-path", "sampler"}, {"-path", "shader"}, {"-compare", "diff"}} {
		shot := filepath.Join(dir, mode[1]+".png")
		args := append([]string{"-headless", "-validate", "-untimed", "-frames", "2", "-chroma-loc", "topleft", "-screenshot", shot}, mode...)
		if _, stderr, code := play(t, append(args, clip)...); code != 0 {
			t.Fatalf("%v: exit %d: %s", mode, code, stderr)
		}
		shots[mode[1]] = shot
	}
	s, h, d := pictest.ReadNRGBA(t, shots["sampler"]), pictest.ReadNRGBA(t, shots["shader"]), pictest.ReadNRGBA(t, shots["diff"])
	if s.Rect != d.Rect || h.Rect != d.Rect {
		t.Fatalf("sizes: sampler %v, shader %v, diff %v", s.Rect, h.Rect, d.Rect)
	}
	bad, nonzero := 0, 0
	for i := 0; i < len(d.Pix); i += 4 {
		for c := range 3 {
			want := int(s.Pix[i+c]) - int(h.Pix[i+c])
			if want < 0 {
				want = -want
			}
			want = min(255, want*16)
			if want > 0 {
				nonzero++
			}
			if int(d.Pix[i+c]) != want {
				if bad++; bad <= 5 {
					t.Errorf("sample %d channel %d: diff %d, want |%d − %d| × 16 = %d", i/4, c, d.Pix[i+c], s.Pix[i+c], h.Pix[i+c], want)
				}
			}
		}
	}
	t.Logf("%d of %d samples differ between the paths", nonzero, len(d.Pix)/4*3)
	if bad > 0 {
		t.Errorf("%d samples differ from |sampler − shader| × 16", bad)
	}
	if nonzero == 0 {
		t.Errorf("the two paths give the same picture: the diff picture is black and tells nothing")
	}
}
