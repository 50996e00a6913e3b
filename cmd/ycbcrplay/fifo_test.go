package main

import (
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestTimeoutFIFOWithoutWriter: a named pipe that never gets a writer ends, with -timeout 1, in one
// "error:" line saying the wait for the writer timed out, about 1 s after the start (not the 10 s
// default, and never a hang), as a path and as a file: URL (which FFmpeg's file protocol would have
// opened with a blocking open(2)). -timeout 0 (no limit) still waits: the player is running 1.5 s
// in, and ends on SIGINT.
func TestTimeoutFIFOWithoutWriter(t *testing.T) {
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
