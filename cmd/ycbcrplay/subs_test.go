package main

import (
	"bytes"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/ycbcrkit/ycbcrkit/internal/subtest"
)

// subsClip writes subtest's clip (SubRip: Hello 0.5–1.5 s, World 2–3 s; ASS: red, top left at
// (40, 60), 1–2 s; 320×240 at 25 fps) into a new folder.
func subsClip(t *testing.T) string { return subtest.Clip(t, t.TempDir()) }

// TestNoLibass: where libass cannot be loaded (hidden here by a bind mount in a mount namespace of
// the player's own, which needs unshare and root), the player says so once and plays the video.
func TestNoLibass(t *testing.T) {
	clip := subsClip(t)
	out, err := exec.Command("ldconfig", "-p").Output()
	if err != nil {
		t.Fatal(err)
	}
	lib := ""
	for _, l := range strings.Split(string(out), "\n") {
		if f := strings.Fields(l); len(f) > 0 && f[0] == "libass.so.9" {
			lib = f[len(f)-1]
		}
	}
	if lib == "" {
		t.Fatal("libass.so.9 is not installed (scripts/install-deps.sh)")
	}
	cmd := exec.Command("unshare", "-m", "sh", "-c", `mount --bind /dev/null "$1" && shift && exec "$@"`, "sh", lib,
		os.Args[0], "-headless", "-untimed", "-stats", "-frames", "30", clip, clip)
	cmd.Env = append(os.Environ(), "YCBCRPLAY_AS_MAIN=1")
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	if err := cmd.Run(); err != nil {
		t.Fatalf("%v: %s", err, e.String())
	}
	if n := strings.Count(e.String(), "libass.so.9 is not installed"); n != 1 {
		t.Errorf("the notice shows %d times for two files, want once: %s", n, e.String())
	}
	if c := strings.Count(o.String(), `"frames_presented": 30`) + strings.Count(o.String(), `"frames_presented":30`); c != 2 {
		t.Errorf("want 30 frames presented of each file: %s", o.String())
	}
}
