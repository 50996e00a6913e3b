package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// asMain starts this test binary as the ycbcrplay command (see TestMain) with extra environment.
func asMain(t *testing.T, env []string, args ...string) (*exec.Cmd, *bytes.Buffer, *bytes.Buffer) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(append(os.Environ(), "YCBCRPLAY_AS_MAIN=1"), env...)
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd, &o, &e
}

// playApart is play in a process of its own (asMain), for the tests that run side by side
// (t.Parallel): runs in this process would share the program's globals (fileStart).
func playApart(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd, o, e := asMain(t, nil, args...)
	code = exitCode(t, cmd, time.Minute)
	return o.String(), e.String(), code
}

func exitCode(t *testing.T, cmd *exec.Cmd, limit time.Duration) int {
	t.Helper()
	timer := time.AfterFunc(limit, func() { cmd.Process.Kill() })
	defer timer.Stop()
	err := cmd.Wait()
	if err == nil {
		return 0
	}
	ee, ok := err.(*exec.ExitError)
	if !ok || !ee.Exited() {
		t.Fatalf("%v (killed after %s?)", err, limit)
	}
	return ee.ExitCode()
}

// TestSignalEndsLikeQuit: SIGINT or SIGTERM in the middle of timed headless playback of the 4 s clip
// ends it as q does: the -stats figures are printed (fewer frames than the clip has), the screenshot
// is written, and the exit status is 128 + the signal's number. The signal comes once the IPC
// socket says playback is 0.3 s in (a fixed sleep is not "the middle" on a loaded machine, where
// start-up alone can take seconds).
func TestSignalEndsLikeQuit(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		dir := t.TempDir()
		shot, sock := filepath.Join(dir, "shot.png"), filepath.Join(dir, "ipc.sock")
		cmd, o, e := asMain(t, nil, "-headless", "-stats", "-screenshot", shot, "-input-ipc-server", sock, filepath.Join(mediaDir, "default.mkv"))
		c := dialIPC(t, sock)
		for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(20 * time.Millisecond) {
			if pos, ok := c.call("get_property", "time-pos")["data"].(float64); ok && pos >= 0.3 {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("%v: playback not 0.3 s in after 30 s; stderr %q", sig, e.String())
			}
		}
		cmd.Process.Signal(sig)
		code := exitCode(t, cmd, 10*time.Second)
		var st struct {
			FramesPresented int `json:"frames_presented"`
		}
		if err := json.Unmarshal(o.Bytes(), &st); err != nil {
			t.Fatalf("%v: no -stats on stdout (%v): %q, stderr %q", sig, err, o.String(), e.String())
		}
		if code != 128+int(sig) || st.FramesPresented == 0 || st.FramesPresented >= 100 {
			t.Errorf("%v: exit %d (want %d), %d frames presented, stderr %q", sig, code, 128+int(sig), st.FramesPresented, e.String())
		}
		if fi, err := os.Stat(shot); err != nil || fi.Size() == 0 {
			t.Errorf("%v: screenshot not written: %v", sig, err)
		}
		t.Logf("%v: exit %d after %d frames", sig, code, st.FramesPresented)
	}
}

// TestUnusableDisplay: a DISPLAY that names no X server gives one line with GLFW's own reason and
// the hint -headless, not a log line and a wrong cause.
func TestUnusableDisplay(t *testing.T) {
	display := ""
	for n := 77; n < 99; n++ {
		if _, err := os.Stat(fmt.Sprintf("/tmp/.X11-unix/X%d", n)); os.IsNotExist(err) {
			display = fmt.Sprintf(":%d", n)
			break
		}
	}
	if display == "" {
		t.Fatal("no free display number")
	}
	cmd, _, e := asMain(t, []string{"DISPLAY=" + display, "WAYLAND_DISPLAY="}, "-frames", "1", filepath.Join(mediaDir, "default.mkv"))
	code := exitCode(t, cmd, 10*time.Second)
	errOut := e.String()
	if code != 1 || strings.Count(errOut, "\n") != 1 || !strings.HasPrefix(errOut, "error: ") ||
		!strings.Contains(errOut, "open display") || !strings.Contains(errOut, "-headless") {
		t.Fatalf("exit %d, stderr %q: want one error line with the cause and -headless", code, errOut)
	}
	t.Log(strings.TrimSpace(errOut))
}
