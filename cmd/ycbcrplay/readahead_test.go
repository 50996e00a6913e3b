package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// stdinRun runs this test binary as ycbcrplay with file's bytes on standard input through a real
// pipe (cat file | ycbcrplay ARGS -), and returns stdout, stderr and the exit status.
func stdinRun(t *testing.T, file string, args ...string) (string, string, int) {
	return stdinRunEnv(t, file, nil, args...)
}

// stdinRunEnv is stdinRun with more environment (YCBCRPLAY_TEST_KEYS).
func stdinRunEnv(t *testing.T, file string, env []string, args ...string) (string, string, int) {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], append(args, "-")...)
	cmd.Env = append(append(os.Environ(), "YCBCRPLAY_AS_MAIN=1"), env...)
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
		w.Write(data)
		w.Close()
	}()
	code := exitCode(t, cmd, 60*time.Second)
	return o.String(), e.String(), code
}

// TestStdinMoovAtEnd: `cat clip.mp4 | ycbcrplay -` for an MP4 whose moov box follows its media
// (FFmpeg's mp4 muxer without +faststart; `ffmpeg -i - < clip.mp4` cannot play it) plays all 100
// frames of default.mkv through the read-ahead cache; with -cache-size 0 it fails with one error
// line, as before the cache.
func TestStdinMoovAtEnd(t *testing.T) {
	clip := filepath.Join(t.TempDir(), "moov-at-end.mp4")
	ffmpegCLI(t, "-i", filepath.Join(mediaDir, "default.mkv"), "-c", "copy", "-f", "mp4", clip)
	stdout, stderr, code := stdinRun(t, clip, "-headless", "-validate", "-untimed", "-stats")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if st := statsLines(t, stdout); len(st) != 1 || st[0]["frames_presented"] != 100.0 {
		t.Errorf("-stats %s: want 100 frames presented", stdout)
	}
	_, stderr, code = stdinRun(t, clip, "-headless", "-untimed", "-cache-size", "0")
	if code != 1 || strings.Count(stderr, "error:") != 1 {
		t.Errorf("-cache-size 0: exit %d, %q; want 1 and one error line", code, stderr)
	}
}

// TestStdinSeeks: on standard input, seeks inside the cached range work: -start 2 (ahead: the
// MP4's index places its key frame, and the cache reads on to it) plays the last 50 of 100 frames;
// ← after frame 75 (3 s, back to 0: the start is still held) plays them all again, 175 in all.
func TestStdinSeeks(t *testing.T) {
	clip := filepath.Join(t.TempDir(), "moov-at-end.mp4")
	ffmpegCLI(t, "-i", filepath.Join(mediaDir, "default.mkv"), "-c", "copy", "-f", "mp4", clip)
	for _, tc := range []struct {
		env    []string
		args   []string
		frames float64
	}{
		{nil, []string{"-start", "2"}, 50},
		{[]string{"YCBCRPLAY_TEST_KEYS=75:left"}, nil, 175},
	} {
		stdout, stderr, code := stdinRunEnv(t, clip, tc.env, append([]string{"-headless", "-untimed", "-stats"}, tc.args...)...)
		if code != 0 {
			t.Fatalf("%v %v: exit %d: %s", tc.env, tc.args, code, stderr)
		}
		if st := statsLines(t, stdout); len(st) != 1 || st[0]["frames_presented"] != tc.frames {
			t.Errorf("%v %v: -stats %s: want %v frames presented", tc.env, tc.args, stdout, tc.frames)
		}
		if strings.Contains(stderr, "cannot seek") {
			t.Errorf("%v %v: stderr %q: the seek was refused", tc.env, tc.args, stderr)
		}
	}
}
