package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ycbcrkit/ycbcrkit/player"
	"github.com/ycbcrkit/ycbcrkit/present/window"
)

// pressWhileOpening is the OnOpening of a process that TestMain runs with YCBCRPLAY_TEST_OPENING
// (quit: q; close: the window's close, as the window manager's button sets it): once the window has
// waited 700 ms for the input, it writes the time (UnixNano) to the file pressedAt and then presses.
func pressWhileOpening(how, pressedAt string) func(*player.Player, time.Duration) {
	done := false
	return func(p *player.Player, waited time.Duration) {
		if done || waited < 700*time.Millisecond {
			return
		}
		done = true
		os.WriteFile(pressedAt, []byte(strconv.FormatInt(time.Now().UnixNano(), 10)), 0o600)
		switch how {
		case "close":
			p.Window().Close()
		default:
			p.Window().Press(window.KeyQuit)
		}
	}
}

// stalledFIFO makes a named pipe whose writer sends the first n bytes of file and then stalls with
// its end open until the test ends.
func stalledFIFO(t *testing.T, file string, n int) string {
	t.Helper()
	fifo := mkfifo(t)
	w := exec.Command("sh", "-c", `exec 3>"$1"; head -c "$2" "$3" >&3; sleep 30`, "sh", fifo, strconv.Itoa(n), file)
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Process.Kill(); w.Wait() })
	return fifo
}

// TestQuitWhileProbing (issue 18): in a window, a named pipe whose writer sent 300 bytes of a
// Matroska file and stalled, so that FFmpeg is still probing it. The window is open meanwhile
// ("opening in.fifo…"); q, and closing the window, end the process within 1 s of the press with
// exit status 0, no error line and no figures (nothing played). Before, the window opened only at
// the first frame and only SIGINT, SIGTERM or -timeout ended the wait. A nameless pipe (-) and a
// FIFO nobody writes to (waiting for a writer, fifo.go) end the same way on q.
func TestQuitWhileProbing(t *testing.T) {
	// It mostly waits on the clock: side by side with the others that do (scripts/test-lib.sh, run).
	t.Parallel()
	if !window.Available() {
		t.Fatal("no display: run under xvfb-run")
	}
	clip := filepath.Join(mediaDir, "default.mkv")
	for _, c := range []struct{ name, how, input string }{
		{"q, stalled FIFO", "quit", "fifo"},
		{"close, stalled FIFO", "close", "fifo"},
		{"q, stalled stdin", "quit", "stdin"},
		{"q, FIFO without writer", "quit", "nowriter"},
	} {
		pressed := filepath.Join(t.TempDir(), "pressed")
		// GORACE: under -race a process that exits 0 first sleeps atexit_sleep_ms, 1 s by default
		// (https://go.dev/doc/articles/race_detector#Options), which is not the player's time.
		env := []string{"YCBCRPLAY_TEST_OPENING=" + c.how, "YCBCRPLAY_TEST_PRESSED=" + pressed, "GORACE=atexit_sleep_ms=0"}
		args := []string{"-stats", "-no-audio"}
		var cmd *exec.Cmd
		var o, e *bytes.Buffer
		switch c.input {
		case "stdin":
			cmd, o, e = stalledStdinEnv(t, env, clip, 300, append(args, "-")...)
		case "nowriter":
			cmd, o, e = asMain(t, env, append(args, mkfifo(t))...)
		default:
			cmd, o, e = asMain(t, env, append(args, stalledFIFO(t, clip, 300))...)
		}
		code := exitCode(t, cmd, 20*time.Second)
		end := time.Now()
		b, err := os.ReadFile(pressed)
		if err != nil {
			t.Errorf("%s: the window never waited 700 ms for the input (exit %d, stderr %q)", c.name, code, e.String())
			continue
		}
		ns, _ := strconv.ParseInt(string(b), 10, 64)
		took := end.Sub(time.Unix(0, ns))
		if code != 0 || strings.Contains(e.String(), "error:") || o.Len() != 0 {
			t.Errorf("%s: exit %d, stdout %q, stderr %q: want 0, no figures, no error", c.name, code, o.String(), e.String())
		}
		if took > time.Second {
			t.Errorf("%s: the process ended %v after the press: want within 1 s", c.name, took)
		}
		t.Logf("%s: exit %d, %v after the press", c.name, code, took.Round(time.Millisecond))
	}
}

// TestSignalWhileProbingWindow: TestSignalWhileProbing in a window, open while the input probes:
// SIGINT ends the process within 1 s with status 130 and no error line.
func TestSignalWhileProbingWindow(t *testing.T) {
	if !window.Available() {
		t.Fatal("no display: run under xvfb-run")
	}
	cmd, _, e := asMain(t, nil, "-no-audio", stalledFIFO(t, filepath.Join(mediaDir, "default.mkv"), 300))
	time.Sleep(1500 * time.Millisecond) // the window open, the input probing
	sent := time.Now()
	cmd.Process.Signal(syscall.SIGINT)
	code := exitCode(t, cmd, 10*time.Second)
	took := time.Since(sent)
	if code != 130 || strings.Contains(e.String(), "error:") {
		t.Errorf("exit %d, stderr %q: want 130 and no error", code, e.String())
	}
	if took > time.Second {
		t.Errorf("ended %v after the signal: want within 1 s", took)
	}
	t.Logf("exit %d, %v after the signal", code, took.Round(time.Millisecond))
}

// TestOpeningThenPlays: in a window the input opens while the window shows; once it has, the window
// takes the video's size and the file plays as before: a writer that pauses 1 s after 300 bytes
// and then sends the rest, -frames 10 presented, -stats printed, exit 0.
func TestOpeningThenPlays(t *testing.T) {
	// It mostly waits on the clock: side by side with the others that do (scripts/test-lib.sh, run).
	t.Parallel()
	if !window.Available() {
		t.Fatal("no display: run under xvfb-run")
	}
	clip := filepath.Join(mediaDir, "default.mkv")
	fifo := mkfifo(t)
	w := exec.Command("sh", "-c", `exec 3>"$1"; head -c 300 "$2" >&3; sleep 1; tail -c +301 "$2" >&3`, "sh", fifo, clip)
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { w.Process.Kill(); w.Wait() }()
	cmd, o, e := asMain(t, nil, "-no-audio", "-stats", "-frames", "10", "-validate", fifo)
	code := exitCode(t, cmd, 30*time.Second)
	var st struct {
		FramesPresented int    `json:"frames_presented"`
		Input           string `json:"input"`
		Startup         struct {
			OpenInput float64 `json:"open_input"`
		} `json:"startup_ms"`
	}
	if err := json.Unmarshal(o.Bytes(), &st); err != nil || code != 0 || st.FramesPresented != 10 || st.Input != "in.fifo" {
		t.Fatalf("exit %d, %+v (%v), stderr %q: want 0 and 10 frames of in.fifo", code, st, err, e.String())
	}
	if st.Startup.OpenInput < 900 {
		t.Errorf("open_input %.0f ms: the writer paused 1 s mid-probe", st.Startup.OpenInput)
	}
	t.Logf("10 frames; the input took %.0f ms to open", st.Startup.OpenInput)
}
