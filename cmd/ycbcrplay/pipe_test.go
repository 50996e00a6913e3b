package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// mkfifo makes a named pipe in a temporary directory.
func mkfifo(t *testing.T) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "in.fifo")
	if err := syscall.Mkfifo(p, 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestTimeoutStalledPipe: a writer opens a named pipe, writes half of the 4 s clip and then stalls
// with the pipe still open. With -timeout 1 the player plays what came and ends with one "error:"
// line saying the read timed out, about 1 s after the data stopped, not after the 10 s default.
func TestTimeoutStalledPipe(t *testing.T) {
	for _, bad := range []string{"-1", "x", "NaN", "1e9"} {
		if _, e, code := play(t, "-timeout", bad); code != 2 || !strings.Contains(e, "-timeout") {
			t.Errorf("-timeout %s: exit %d, %q: want 2 and a line naming -timeout", bad, code, e)
		}
	}
	fifo := mkfifo(t)
	clip := filepath.Join(mediaDir, "default.mkv")
	fi, err := os.Stat(clip)
	if err != nil {
		t.Fatal(err)
	}
	// The shell keeps descriptor 3 open while it sleeps: the reader sees no EOF, only silence.
	w := exec.Command("sh", "-c", `exec 3>"$1"; head -c "$2" "$3" >&3; sleep 30`, "sh", fifo,
		strconv.FormatInt(fi.Size()/2, 10), clip)
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { w.Process.Kill(); w.Wait() }()
	start := time.Now()
	_, stderr, code := play(t, "-headless", "-untimed", "-timeout", "1", fifo)
	took := time.Since(start)
	lines := strings.Split(strings.TrimSpace(stderr), "\n")
	errs := 0
	for _, l := range lines {
		if strings.HasPrefix(l, "error:") {
			errs++
		}
	}
	if code != 1 || errs != 1 || !strings.Contains(stderr, "read "+fifo+": timed out after 1s") {
		t.Fatalf("exit %d, stderr %q: want 1 and one error: line saying the read timed out after 1s", code, stderr)
	}
	// Half the clip plays untimed in well under a second on lavapipe; then 1 s of silence.
	if took > 3*time.Second {
		t.Errorf("took %v: want about 1 s after the writer stalled", took)
	}
	t.Logf("ended after %v: %s", took.Round(time.Millisecond), lines[len(lines)-1])
}

// TestSignalWhileWaitingForWriter: a named pipe that nobody opens for writing. The player waits for
// a writer (fifo.go) before any window or device exists; SIGINT or SIGTERM then ends it at once with
// the documented status, 128 + the signal's number, and no error line.
func TestSignalWhileWaitingForWriter(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		fifo := mkfifo(t)
		cmd, _, e := asMain(t, nil, "-headless", fifo)
		time.Sleep(500 * time.Millisecond)
		sent := time.Now()
		cmd.Process.Signal(sig)
		code := exitCode(t, cmd, 5*time.Second)
		took := time.Since(sent)
		if code != 128+int(sig) || strings.Contains(e.String(), "error:") {
			t.Errorf("%v: exit %d, stderr %q: want %d and no error", sig, code, e.String(), 128+int(sig))
		}
		if took > time.Second {
			t.Errorf("%v: ended %v after the signal: want within 1 s", sig, took)
		}
		t.Logf("%v: exit %d, %v after the signal", sig, code, took.Round(time.Millisecond))
	}
}
