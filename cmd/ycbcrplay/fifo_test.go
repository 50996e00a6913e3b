package main

import (
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ycbcrkit/ycbcrkit/internal/testkit/subtest"
)

// TestTimeoutFIFOWithoutWriter: a named pipe that never gets a writer ends, with -timeout 1, in one
// "error:" line saying the wait for the writer timed out, about 1 s after the start (not the 10 s
// default, and never a hang), as a path and as a file: URL (which FFmpeg's file protocol would have
// opened with a blocking open(2)). -timeout 0 (no limit) still waits: the player is running 1.5 s
// in, and ends on SIGINT.
func TestTimeoutFIFOWithoutWriter(t *testing.T) {
	// It mostly waits on the clock: side by side with the others that do (scripts/test-lib.sh, run).
	t.Parallel()
	for _, name := range []string{"path", "file: URL"} {
		fifo := mkfifo(t)
		if name != "path" {
			fifo = "file:" + fifo
		}
		start := time.Now()
		cmd, o, e := asMain(t, nil, "-headless", "-stats", "-timeout", "1", fifo)
		code := exitCode(t, cmd, 15*time.Second)
		took := time.Since(start)
		lines := strings.Split(strings.TrimSpace(e.String()), "\n")
		if code != 1 || len(lines) != 1 || !strings.HasPrefix(lines[0], "error: ") ||
			!strings.Contains(lines[0], "timed out after 1s waiting for the named pipe's writer") || o.Len() != 0 {
			t.Errorf("%s: exit %d, stdout %q, stderr %q: want 1 and one error line about the writer", name, code, o.String(), e.String())
		}
		// Start-up of the test binary as the player plus 1 s; the 10 s default would be far past.
		if took < time.Second || took > 5*time.Second {
			t.Errorf("%s: ended after %v: want about 1 s", name, took)
		}
		t.Logf("%s: exit %d after %v: %s", name, code, took.Round(time.Millisecond), lines[0])
	}
	cmd, _, e := asMain(t, nil, "-headless", "-timeout", "0", mkfifo(t))
	time.Sleep(1500 * time.Millisecond)
	cmd.Process.Signal(syscall.SIGINT)
	// 130 (128 + SIGINT) says it was still waiting; an early end would have been an error (1).
	if code := exitCode(t, cmd, 10*time.Second); code != 130 {
		t.Errorf("-timeout 0, SIGINT 1.5 s in: exit %d (%q): want 130, still waiting for the writer", code, e.String())
	}
}

// TestTimeoutSubFileFIFO: a -sub-file that names a named pipe is under -timeout as the main input
// is (issue 28); before, FFmpeg's file protocol waited in open(2) for its writer for ever, and a
// writer that stalled held the subtitle reader, and with it the player's end, for ever.
//   - No writer, -timeout 1: the clip plays (exit 0) with one notice that the wait for the pipe's
//     writer timed out after 1s, and ends long before the 10 s default would have;
//   - a writer that sends an SRT and closes: its track is read through the pipe (-stats lists one
//     external track), no notice;
//   - a writer that sends part of the first cue and stalls with the pipe open: SubRip's demuxer
//     reads the whole file at open, which times out after 1 s: one notice (the file is left out,
//     not read as a shorter track), the clip plays, exit 0;
//   - -timeout 0 and no writer: still waiting 1.5 s in; SIGINT then ends it with 130 and no line.
func TestTimeoutSubFileFIFO(t *testing.T) {
	// It mostly waits on the clock: side by side with the others that do (scripts/test-lib.sh, run).
	t.Parallel()
	clip := filepath.Join(mediaDir, "default.mkv")
	args := func(fifo string) []string {
		return []string{"-headless", "-untimed", "-stats", "-frames", "10", "-timeout", "1", "-sub-file", fifo, clip}
	}
	notices := func(stderr string) (n []string) {
		for _, l := range strings.Split(strings.TrimSpace(stderr), "\n") {
			if l != "" {
				n = append(n, l)
			}
		}
		return n
	}

	fifo := mkfifo(t)
	start := time.Now()
	_, stderr, code := playApart(t, args(fifo)...)
	took := time.Since(start)
	lines := notices(stderr)
	if code != 0 || len(lines) != 1 || !strings.HasPrefix(lines[0], "notice: ") ||
		!strings.Contains(lines[0], "subtitle: open "+fifo+": timed out after 1s waiting for the named pipe's writer") {
		t.Errorf("no writer: exit %d, stderr %q: want 0 and one notice about the writer", code, stderr)
	}
	// 1 s, the test's own start of the player and 10 frames: the 10 s default would be past 9 s.
	if took < time.Second || took > 9*time.Second {
		t.Errorf("no writer: ended after %v: want about 1 s and the clip's first frames", took)
	}
	t.Logf("no writer: exit %d after %v: %s", code, took.Round(time.Millisecond), stderr)

	fifo = mkfifo(t)
	w := exec.Command("sh", "-c", `printf '%s' "$2" >"$1"`, "sh", fifo, subtest.Cues)
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code := playApart(t, args(fifo)...)
	w.Wait()
	var st struct {
		Tracks []struct {
			External bool   `json:"external"`
			Path     string `json:"external-filename"`
			Codec    string `json:"codec"`
		} `json:"sub_tracks"`
	}
	if code != 0 || stderr != "" || json.Unmarshal([]byte(stdout), &st) != nil || len(st.Tracks) != 1 ||
		!st.Tracks[0].External || st.Tracks[0].Path != fifo || st.Tracks[0].Codec != "subrip" {
		t.Errorf("writer: exit %d, stderr %q, stats %s: want 0, no notice and the pipe's SubRip track", code, stderr, stdout)
	}

	fifo = mkfifo(t)
	// The shell keeps descriptor 3 open while it sleeps: the reader sees no end of file.
	w = exec.Command("sh", "-c", `exec 3>"$1"; printf '%s' "$2" >&3; sleep 30`, "sh", fifo, subtest.Cues[:40])
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { w.Process.Kill(); w.Wait() }()
	start = time.Now()
	_, stderr, code = playApart(t, args(fifo)...)
	took = time.Since(start)
	lines = notices(stderr)
	if code != 0 || len(lines) != 1 || !strings.Contains(lines[0], "notice: subtitle: open "+fifo+": timed out after 1s") {
		t.Errorf("stalled writer: exit %d, stderr %q: want 0 and one notice that the open timed out after 1s", code, stderr)
	}
	if took > 9*time.Second {
		t.Errorf("stalled writer: ended after %v: want about 1 s and the clip's first frames", took)
	}
	t.Logf("stalled writer: exit %d after %v: %s", code, took.Round(time.Millisecond), stderr)

	cmd, _, e := asMain(t, nil, "-headless", "-untimed", "-timeout", "0", "-sub-file", mkfifo(t), clip)
	time.Sleep(1500 * time.Millisecond)
	cmd.Process.Signal(syscall.SIGINT)
	if code := exitCode(t, cmd, 10*time.Second); code != 130 || e.Len() != 0 {
		t.Errorf("-timeout 0, SIGINT 1.5 s in: exit %d, stderr %q: want 130 (still waiting for the writer) and no line", code, e.String())
	}
}
