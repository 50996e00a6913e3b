package main

import (
	"encoding/json"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// throttled writes at most rate bytes a second, in pieces of a tenth of that.
type throttled struct {
	w    http.ResponseWriter
	rate int
}

func (t throttled) Write(p []byte) (int, error) {
	n := 0
	for len(p) > 0 {
		k := min(len(p), max(1, t.rate/10))
		m, err := t.w.Write(p[:k])
		n += m
		if err != nil {
			return n, err
		}
		if f, ok := t.w.(http.Flusher); ok {
			f.Flush()
		}
		p = p[k:]
		time.Sleep(time.Duration(k) * time.Second / time.Duration(t.rate))
	}
	return n, nil
}

func (t throttled) Header() http.Header  { return t.w.Header() }
func (t throttled) WriteHeader(code int) { t.w.WriteHeader(code) }

// serveAt serves file over HTTP on the loopback at rate bytes a second (ranges too, as a web
// server does).
func serveAt(t *testing.T, file string, rate int) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f, err := os.Open(file)
		if err != nil {
			http.Error(w, err.Error(), 500)
			return
		}
		defer f.Close()
		st, _ := f.Stat()
		http.ServeContent(throttled{w, rate}, r, filepath.Base(file), st.ModTime(), f)
	})}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return "http://" + ln.Addr().String() + "/" + filepath.Base(file)
}

// TestTimeoutTrickle: -timeout bounds the time to the first picture and each stretch without a
// new one, not only each blocking read: a server that trickles 160 bytes a second (each read gets
// something, so no read ever waits a second) ends, with -timeout 1, in one "error:" line within
// the timeout and a second and a half's slack; the bundled clip served at 1 Mb/s (its own rate:
// 4 s for its 100 pictures) plays to its end under -timeout 2, twice shorter than the whole.
func TestTimeoutTrickle(t *testing.T) {
	// It mostly waits on the clock: side by side with the others that do (scripts/test-lib.sh, run).
	t.Parallel()
	clip := filepath.Join(mediaDir, "default.mkv")
	t0 := time.Now()
	cmd, _, e := asMain(t, nil, "-headless", "-untimed", "-timeout", "1", serveAt(t, clip, 160))
	code := exitCode(t, cmd, 10*time.Second) // a player that waits on is killed: a failure
	took := time.Since(t0)
	stderr := e.String()
	lines := strings.Split(strings.TrimSpace(stderr), "\n")
	if code == 0 || len(lines) != 1 || !strings.HasPrefix(lines[0], "error: ") || took > 2500*time.Millisecond {
		t.Errorf("160 B/s, -timeout 1: exit %d after %s, stderr %q; want one error line within 2.5 s", code, took.Round(time.Millisecond), stderr)
	}
	t.Logf("160 B/s: %s after %s", strings.TrimSpace(stderr), took.Round(time.Millisecond))

	t0 = time.Now()
	var stdout string
	stdout, stderr, code = playApart(t, "-headless", "-untimed", "-stats", "-timeout", "2", serveAt(t, clip, 1e6/8))
	var st struct {
		Frames int `json:"frames_presented"`
	}
	out := strings.Split(strings.TrimSpace(stdout), "\n")
	if code != 0 || json.Unmarshal([]byte(out[len(out)-1]), &st) != nil || st.Frames != 100 {
		t.Errorf("1 Mb/s, -timeout 2: exit %d, %d pictures, stderr %q; want all 100", code, st.Frames, stderr)
	}
	t.Logf("1 Mb/s: %d pictures in %s", st.Frames, time.Since(t0).Round(time.Millisecond))
}
