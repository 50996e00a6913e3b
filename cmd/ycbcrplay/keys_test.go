package main

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ycbcrkit/ycbcrkit/internal/testkit/pictest"
	"github.com/ycbcrkit/ycbcrkit/present/window"
)

// TestHeadlessKeys: keys scripted through player.Config.Hooks.Keys (keyScript, YCBCRPLAY_TEST_KEYS) drive a
// headless player as a window's would. default.mkv (25 fps, 100 frames, a key frame each second):
// after frame 10 (0.36 s) , steps one frame back and pauses, s writes the picture at 0.32 s, space
// resumes, and after frame 40 ← seeks back to the start: 10 + 1 + 29 + 100 frames presented. The
// screenshot equals the picture of -frames 9 (the same frame, played to).
func TestHeadlessKeys(t *testing.T) {
	script, err := parseKeyScript("10:comma;11:s,space;40:left")
	if err != nil {
		t.Fatal(err)
	}
	keyScript = func(n int) []window.Key { return script[n] }
	t.Cleanup(func() { keyScript = nil })
	clip, _ := filepath.Abs(filepath.Join(mediaDir, "default.mkv"))
	dir := t.TempDir()
	t.Chdir(dir) // s writes ycbcrplay-0001.png into the working directory
	out, stderr, code := play(t, "-headless", "-untimed", "-stats", "-validate", "-path", "shader", clip)
	var st map[string]any
	if code != 0 || json.Unmarshal([]byte(out), &st) != nil {
		t.Fatalf("exit %d, stats %q: %s", code, out, stderr)
	}
	if st["frames_presented"] != 140.0 || !strings.Contains(stderr, "screenshot: ycbcrplay-0001.png (0.320 s)") {
		t.Fatalf("presented %v, want 140; stderr %q", st["frames_presented"], stderr)
	}
	keyScript = nil
	if _, stderr, code := play(t, "-headless", "-untimed", "-frames", "9", "-path", "shader", "-screenshot", "ref.png", clip); code != 0 {
		t.Fatalf("-frames 9: exit %d: %s", code, stderr)
	}
	a, b := pictest.ReadNRGBA(t, filepath.Join(dir, "ycbcrplay-0001.png")), pictest.ReadNRGBA(t, filepath.Join(dir, "ref.png"))
	if !bytes.Equal(a.Pix, b.Pix) {
		t.Fatal("the picture after , differs from frame 9's")
	}
}
