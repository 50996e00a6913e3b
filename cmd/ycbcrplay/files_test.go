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
// the command, see TestMain): all 5 frames of nv12.nut (the manifest's count) play; a seek (-start)
// gives one notice and playback goes on; -loop on stdin is refused with one line.
func TestStdin(t *testing.T) {
	for _, tc := range []struct {
		args   []string
		frames float64
		notice string
	}{
		{[]string{"-headless", "-validate", "-untimed", "-stats", "-"}, 5, ""},
		{[]string{"-headless", "-validate", "-untimed", "-stats", "-start", "0.1", "-"}, 5, "cannot seek"},
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
