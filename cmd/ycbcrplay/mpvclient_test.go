package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// mpvClientModule is the npm "mpv" package's entry, as scripts/install-deps.sh installs it.
func mpvClientModule(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("YCBCRKIT_NPM")
	if dir == "" {
		home, _ := os.UserHomeDir()
		dir = filepath.Join(home, ".cache", "ycbcrkit", "npm")
	}
	mod := filepath.Join(dir, "node_modules", "mpv", "index.js")
	if _, err := os.Stat(mod); err != nil {
		t.Fatalf("the npm mpv client is missing (%v): run scripts/install-deps.sh", err)
	}
	return mod
}

// TestMPVClient: a JSON IPC client written for mpv (npm's "mpv" 2.0.3, which spawns the player
// with --input-ipc-server and speaks mpv's protocol with request ids and observers) drives
// ycbcrplay as it would mpv: duration and filename read, pause set and observed (the change to
// true; the client registers its callback after observe_property's reply, so the first event,
// sent right after it as mpv does, may come too early for it; client.mjs says how it waits for the registration before pause changes), a seek that brings playback-restart and lands within a frame of 2 s, and an unknown
// property refused with mpv's "property not found".
func TestMPVClient(t *testing.T) {
	mod := mpvClientModule(t)
	clip, _ := filepath.Abs(filepath.Join(mediaDir, "default.mkv"))
	wrapper, _ := filepath.Abs("testdata/mpvclient/mpv.sh")
	out := nodeClient(t, []string{"YCBCRPLAY_ARGS=-headless -loop inf " + clip}, mod, wrapper)
	var got struct {
		Duration  float64 `json:"duration"`
		Filename  string  `json:"filename"`
		Pause     bool    `json:"pause"`
		Restarted bool    `json:"restarted"`
		TimePos   float64 `json:"timePos"`
		Unknown   string  `json:"unknown"`
		Pauses    []bool  `json:"pauses"`
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("%q: %v", out, err)
	}
	if got.Duration != 4 || got.Filename != "default.mkv" || !got.Pause || !got.Restarted ||
		got.TimePos < 2 || got.TimePos > 2.04 || !strings.Contains(got.Unknown, "property not found") ||
		len(got.Pauses) == 0 || !got.Pauses[len(got.Pauses)-1] {
		t.Errorf("the mpv client saw %+v", got)
	}
}

// nodeClient runs testdata/mpvclient/client.mjs with args, this test binary as the player
// (YCBCRPLAY_BIN) and env added, and returns what it printed; a failure or a minute's run fails t.
func nodeClient(t *testing.T, env []string, args ...string) []byte {
	t.Helper()
	cmd := exec.Command("node", append([]string{"testdata/mpvclient/client.mjs"}, args...)...)
	cmd.Env = append(append(os.Environ(), "YCBCRPLAY_BIN="+os.Args[0]), env...)
	var errBuf strings.Builder
	cmd.Stderr = &errBuf
	timer := time.AfterFunc(60*time.Second, func() { cmd.Process.Kill() })
	out, err := cmd.Output()
	timer.Stop()
	if err != nil {
		t.Fatalf("node: %v: %s", err, errBuf.String())
	}
	return out
}
