package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/ycbcrkit/ycbcrkit/internal/testkit/pictest"
	"github.com/ycbcrkit/ycbcrkit/player/watchlater"
	"github.com/ycbcrkit/ycbcrkit/present/window"
)

// withKeys scripts keys for the in-process runs of the test ("N:key,key;M:key").
func withKeys(t *testing.T, s string) {
	t.Helper()
	script, err := parseKeyScript(s)
	if err != nil {
		t.Fatal(err)
	}
	keyScript = func(n int) []window.Key { return script[n] }
	t.Cleanup(func() { keyScript = nil })
}

// playStats runs ycbcrplay in-process and returns its one -stats object.
func playStats(t *testing.T, args ...string) (map[string]any, string) {
	t.Helper()
	out, stderr, code := play(t, append([]string{"-headless", "-untimed", "-stats"}, args...)...)
	var st map[string]any
	if code != 0 || json.Unmarshal([]byte(out), &st) != nil {
		t.Fatalf("%q: exit %d, stats %q: %s", args, code, out, stderr)
	}
	return st, stderr
}

// TestChapters: default.mkv (25 fps, 100 frames, a key frame each second) with three chapters made
// by FFmpeg from an ffmetadata file: -stats lists them; PgUp after frame 5 goes to chapter 2 at 1.5
// s (the frame at 1.52 s: 62 frames from there), PgDn 5 frames into it goes back to chapter 1 at 0
// (less than a second in, as mpv's "add chapter -1"), which plays to the end: 5 + 5 + 100 frames.
func TestChapters(t *testing.T) {
	clip := filepath.Join(t.TempDir(), "chapters.mkv")
	pictest.WithChapters(t, filepath.Join(mediaDir, "default.mkv"), clip,
		[]pictest.Chapter{{Start: 0, End: 1.5, Title: "One"}, {Start: 1.5, End: 3, Title: "Two"}, {Start: 3, End: 4, Title: "Three"}})
	st, _ := playStats(t, clip)
	want := []any{map[string]any{"title": "One", "start_s": 0.0}, map[string]any{"title": "Two", "start_s": 1.5},
		map[string]any{"title": "Three", "start_s": 3.0}}
	if !reflect.DeepEqual(st["chapters"], want) || st["frames_presented"] != 100.0 {
		t.Fatalf("-stats chapters %v (want %v), frames %v", st["chapters"], want, st["frames_presented"])
	}
	withKeys(t, "5:pgup;10:pgdn")
	st, stderr := playStats(t, "-validate", clip)
	if st["frames_presented"] != 110.0 || !strings.Contains(stderr, "chapter: 2/3 Two at 1.500 s") || !strings.Contains(stderr, "chapter: 1/3 One at 0.000 s") {
		t.Errorf("PgUp then PgDn: %v frames (want 110); stderr %q", st["frames_presented"], stderr)
	}
}

// keptPosition reads the position watch_later keeps for path.
func keptPosition(t *testing.T, path string) (float64, bool) {
	t.Helper()
	pos, ok, err := watchlater.Load(watchlater.Dir(), path)
	if err != nil {
		t.Fatal(err)
	}
	return pos, ok
}

// TestResume: -save-position-on-quit keeps the position of a quit (q after frame 30: 1.16 s) in
// $XDG_STATE_HOME/ycbcrkit/watch_later under mpv's name for the path; the next play starts there
// with a notice (the frames from 1.16 s: 71) and forgets it; Q keeps it without the flag;
// -no-resume plays from the start; the end of the input keeps nothing.
func TestResume(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	clip, _ := filepath.Abs(filepath.Join(mediaDir, "default.mkv"))
	withKeys(t, "30:q")
	playStats(t, "-save-position-on-quit", clip)
	name, _ := watchlater.Name(clip)
	b, err := os.ReadFile(filepath.Join(os.Getenv("XDG_STATE_HOME"), "ycbcrkit", "watch_later", name))
	if err != nil || !strings.Contains(string(b), "start=1.160000") {
		t.Fatalf("watch_later file: %q, %v; want start=1.160000", b, err)
	}
	keyScript = nil
	st, stderr := playStats(t, "-validate", clip)
	if st["frames_presented"] != 71.0 || !strings.Contains(stderr, "resuming at 1.160 s") {
		t.Errorf("resumed: %v frames (want 71), stderr %q", st["frames_presented"], stderr)
	}
	if _, ok := keptPosition(t, clip); ok {
		t.Error("the position is still kept after resuming")
	}
	withKeys(t, "20:Q")
	playStats(t, clip)
	if pos, ok := keptPosition(t, clip); !ok || pos != 0.76 {
		t.Errorf("Q: kept %v %v, want 0.76", pos, ok)
	}
	keyScript = nil
	if st, _ := playStats(t, "-no-resume", clip); st["frames_presented"] != 100.0 {
		t.Errorf("-no-resume: %v frames, want 100", st["frames_presented"])
	}
	playStats(t, "-save-position-on-quit", clip) // resumes at 0.76 and plays to the end
	if _, ok := keptPosition(t, clip); ok {
		t.Error("a play to the end kept a position")
	}
}

// TestABLoop: -ab-loop-a 1 -ab-loop-b 2 plays on past the input's 100 frames (q after frame 110
// ends it, the loop taken twice and a third time begun), and the picture at the quit lies between
// A and B; the l key sets A (after frame 10: 0.36 s) and B (after frame 20: 0.76 s) likewise; a
// third l after frame 30 clears the loop: 21 frames to 0.80 s (past B), 9 from A (0.36 to 0.68 s),
// then the 82 from 0.72 s to the end.
func TestABLoop(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	clip, _ := filepath.Abs(filepath.Join(mediaDir, "default.mkv"))
	for _, tc := range []struct {
		keys string
		args []string
		a, b float64
	}{
		{"110:Q", []string{"-ab-loop-a", "1", "-ab-loop-b", "2"}, 1, 2},
		{"10:l;20:l;110:Q", nil, 0.36, 0.76},
	} {
		withKeys(t, tc.keys)
		st, stderr := playStats(t, append(tc.args, "-validate", clip)...)
		pos, ok := keptPosition(t, clip)
		if st["frames_presented"] != 110.0 || !ok || pos < tc.a || pos > tc.b+0.04 {
			t.Errorf("%s %v: %v frames (want 110), at %v (want %g to %g): %s", tc.keys, tc.args, st["frames_presented"], pos, tc.a, tc.b, stderr)
		}
		watchlater.Delete(watchlater.Dir(), clip)
	}
	withKeys(t, "10:l;20:l;30:l")
	if st, _ := playStats(t, clip); st["frames_presented"] != 112.0 {
		t.Errorf("l three times: %v frames, want 112 (the loop cleared at frame 30)", st["frames_presented"])
	}
}
