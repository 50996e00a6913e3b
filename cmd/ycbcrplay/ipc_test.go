package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/ycbcrkit/ycbcrkit/internal/testkit/clitest"
	"github.com/ycbcrkit/ycbcrkit/internal/testkit/pictest"
)

// ipcClient speaks mpv's JSON IPC over raw socket lines.
type ipcClient struct {
	t    *testing.T
	conn net.Conn
	r    *bufio.Reader
	id   int
	seen []map[string]any // events read while waiting for replies
}

func dialIPC(t *testing.T, path string) *ipcClient {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		conn, err := net.Dial("unix", path)
		if err == nil {
			t.Cleanup(func() { conn.Close() })
			return &ipcClient{t: t, conn: conn, r: bufio.NewReader(conn)}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no IPC socket at %s: %v", path, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// read reads the next message.
func (c *ipcClient) read() map[string]any {
	c.t.Helper()
	c.conn.SetReadDeadline(time.Now().Add(20 * time.Second))
	line, err := c.r.ReadString('\n')
	if err != nil {
		c.t.Fatalf("IPC read: %v (events so far %v)", err, c.seen)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(line), &m); err != nil {
		c.t.Fatalf("IPC line %q: %v", line, err)
	}
	return m
}

// call sends a command with a request_id and returns its reply; events read meanwhile are kept.
func (c *ipcClient) call(args ...any) map[string]any {
	c.t.Helper()
	c.id++
	b, _ := json.Marshal(map[string]any{"command": args, "request_id": c.id})
	c.raw(string(b))
	for {
		m := c.read()
		if _, ok := m["event"]; ok {
			c.seen = append(c.seen, m)
			continue
		}
		if m["request_id"] != float64(c.id) {
			c.t.Fatalf("%v: reply %v, want request_id %d", args, m, c.id)
		}
		return m
	}
}

func (c *ipcClient) raw(line string) {
	c.t.Helper()
	if _, err := c.conn.Write([]byte(line + "\n")); err != nil {
		c.t.Fatal(err)
	}
}

// get returns a property's value, failing the test on an error.
func (c *ipcClient) get(name string) any {
	c.t.Helper()
	m := c.call("get_property", name)
	if m["error"] != "success" {
		c.t.Fatalf("get_property %s: %v", name, m)
	}
	return m["data"]
}

// waitEvent reads until the event name comes (events kept before are looked at first) and
// returns the names of the events seen up to it, in order.
func (c *ipcClient) waitEvent(name string) []string {
	c.t.Helper()
	var names []string
	for {
		var m map[string]any
		if len(c.seen) > 0 {
			m, c.seen = c.seen[0], c.seen[1:]
		} else {
			m = c.read()
		}
		if e, ok := m["event"].(string); ok {
			if e != "property-change" {
				names = append(names, e)
			}
			if e == name {
				return names
			}
		}
	}
}

// TestIPC drives a playing ycbcrplay through mpv's JSON IPC with raw socket lines, as a client
// written for mpv would: properties read (duration, filename, path, playlist, chapters, tracks)
// and set (pause), observe_property's property-change events with the observer's id, a seek
// that sends seek then playback-restart and lands within one frame of its target, a malformed line
// answered with mpv's "invalid parameter" while playback goes on, clients that vanish leaving no
// goroutine behind, a client flooding the socket without reading that does not stop playback, and
// quit, which ends the run with end-file (reason quit).
func TestIPC(t *testing.T) {
	clip := filepath.Join(t.TempDir(), "chapters.mkv")
	pictest.WithChapters(t, filepath.Join(mediaDir, "default.mkv"), clip,
		[]pictest.Chapter{{Start: 0, End: 2, Title: "First"}, {Start: 2, End: 4, Title: "Second"}})
	sock := filepath.Join(t.TempDir(), "ipc.sock")
	var stdout, stderr clitest.Buffer
	done := make(chan int, 1)
	go func() {
		done <- run([]string{"-headless", "-loop", "inf", "-input-ipc-server", sock, clip}, &stdout, &stderr)
	}()
	c := dialIPC(t, sock)

	if m := c.call("observe_property", 1, "pause"); m["error"] != "success" {
		t.Fatalf("observe_property: %v", m)
	}
	for ev := c.read(); ; ev = c.read() {
		if ev["event"] == "property-change" {
			if ev["id"] != 1.0 || ev["name"] != "pause" || ev["data"] != false {
				t.Fatalf("first property-change %v", ev)
			}
			break
		}
	}
	if d := c.get("duration"); d != 4.0 {
		t.Errorf("duration %v, want 4", d)
	}
	if f := c.get("filename"); f != "chapters.mkv" {
		t.Errorf("filename %v", f)
	}
	if p := c.get("path"); p != clip {
		t.Errorf("path %v, want %s", p, clip)
	}
	if n, pos := c.get("playlist-count"), c.get("playlist-pos"); n != 1.0 || pos != 0.0 {
		t.Errorf("playlist-count %v, playlist-pos %v", n, pos)
	}
	if l := fmt.Sprint(c.get("chapter-list")); l != "[map[time:0 title:First] map[time:2 title:Second]]" {
		t.Errorf("chapter-list %s", l)
	}
	if tl := fmt.Sprint(c.get("track-list")); !strings.Contains(tl, "type:video") {
		t.Errorf("track-list %s", tl)
	}
	if sid := c.get("sid"); sid != false {
		t.Errorf("sid %v without subtitles, want false (mpv's no)", sid)
	}
	if m := c.call("set_property", "sid", 1); m["error"] != "property unavailable" {
		t.Errorf("sid 1 without subtitles: %v", m)
	}
	if m := c.call("get_property", "no-such-property"); m["error"] != "property not found" {
		t.Errorf("an unknown property: %v", m)
	}
	if m := c.call("set_property", "speed", "fast"); m["error"] != "unsupported format for accessing property" {
		t.Errorf("speed fast: %v", m)
	}

	// Pause: the reply, then the observer's event.
	if m := c.call("set_property", "pause", true); m["error"] != "success" {
		t.Fatalf("pause: %v", m)
	}
	c.waitEvent("property-change")
	if c.get("pause") != true {
		t.Fatal("pause did not stick")
	}

	// A seek: seek, then playback-restart once the picture at the target is shown (paused: it is
	// shown and playback stays paused); time-pos within a frame (0.04 s) of the target.
	c.seen = nil
	if m := c.call("seek", 2.5, "absolute"); m["error"] != "success" {
		t.Fatalf("seek: %v", m)
	}
	if got := c.waitEvent("playback-restart"); len(got) < 2 || got[len(got)-2] != "seek" {
		t.Errorf("events after the seek %v: want seek then playback-restart", got)
	}
	if pos := c.get("time-pos").(float64); math.Abs(pos-2.5) > 0.04 {
		t.Errorf("time-pos %v after a seek to 2.5", pos)
	}
	if ch := c.get("chapter"); ch != 1.0 {
		t.Errorf("chapter %v at 2.5 s, want 1", ch)
	}

	// A malformed line gets mpv's error reply; playback goes on.
	c.raw(`{"command": ["get_property", "pause"`)
	if m := c.read(); m["error"] != "invalid parameter" {
		t.Errorf("malformed line: %v", m)
	}
	c.call("set_property", "pause", false)
	p0 := c.get("time-pos").(float64)
	time.Sleep(500 * time.Millisecond)
	if p1 := c.get("time-pos").(float64); p1 == p0 {
		t.Errorf("time-pos stays %v after the malformed line and unpausing", p1)
	}

	// Clients that come and go leave nothing behind.
	base := runtime.NumGoroutine()
	for i := 0; i < 20; i++ {
		conn, err := net.Dial("unix", sock)
		if err != nil {
			t.Fatal(err)
		}
		conn.Write([]byte(`{"command":["observe_property",1,"time-pos"]}` + "\n" + `{"command":["get_property","pause"]}` + "\n"))
		conn.Close()
	}
	n := 0
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if n = runtime.NumGoroutine(); n <= base+2 {
			break
		}
	}
	if n > base+2 {
		t.Errorf("%d goroutines after 20 clients came and went, %d before", n, base)
	}

	// A client that floods the socket without reading does not stop playback.
	flood, err := net.Dial("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer flood.Close()
	go func() {
		line := []byte(strings.Repeat(`{"command":["get_property","time-pos"]}`+"\n", 100))
		for i := 0; i < 1000; i++ {
			flood.SetWriteDeadline(time.Now().Add(5 * time.Second))
			if _, err := flood.Write(line); err != nil {
				return
			}
		}
	}()
	p0 = c.get("time-pos").(float64)
	time.Sleep(500 * time.Millisecond)
	if p1 := c.get("time-pos").(float64); p1 == p0 {
		t.Errorf("time-pos stays %v while a client floods the socket", p1)
	}

	// quit: end-file with reason quit, and the run ends with status 0.
	c.seen = nil
	c.raw(`{"command":["quit"]}`)
	for {
		m := c.read()
		if m["event"] == "end-file" {
			if m["reason"] != "quit" {
				t.Errorf("end-file %v", m)
			}
			break
		}
	}
	select {
	case code := <-done:
		if code != 0 {
			t.Errorf("exit %d: %s", code, stderr.String())
		}
	case <-time.After(20 * time.Second):
		t.Fatal("quit did not end the run")
	}
	if _, err := os.Lstat(sock); !os.IsNotExist(err) {
		t.Errorf("the socket is left behind: %v", err)
	}
}

// TestIPCPlaylist: the list through the IPC as mpv's: playlist-count and -pos, loadfile append
// (the list grows), playlist-next (end-file with reason stop, then start-file and file-loaded of
// the next, its filename), playlist-prev past the start refused with mpv's "error running
// command", loadfile replace (the list is that one file, playing), quit.
func TestIPCPlaylist(t *testing.T) {
	dir := t.TempDir()
	a, b, c3 := filepath.Join(dir, "a.mkv"), filepath.Join(dir, "b.mkv"), filepath.Join(dir, "c.mkv")
	for _, f := range []string{a, b, c3} {
		ffmpegCLI(t, "-f", "lavfi", "-i", "testsrc2=s=64x48:r=25", "-frames:v", "250", "-pix_fmt", "yuv420p", "-c:v", "ffv1", f)
	}
	sock := filepath.Join(dir, "ipc.sock")
	var stdout, stderr clitest.Buffer
	done := make(chan int, 1)
	go func() {
		done <- run([]string{"-headless", "-input-ipc-server", sock, a, b}, &stdout, &stderr)
	}()
	c := dialIPC(t, sock)
	if n, pos := c.get("playlist-count"), c.get("playlist-pos"); n != 2.0 || pos != 0.0 {
		t.Fatalf("playlist-count %v, playlist-pos %v", n, pos)
	}
	if m := c.call("playlist-prev"); m["error"] != "error running command" {
		t.Errorf("playlist-prev at the start: %v", m)
	}
	if m := c.call("loadfile", c3, "append"); m["error"] != "success" || c.get("playlist-count") != 3.0 {
		t.Fatalf("loadfile append: %v", m)
	}
	c.seen = nil
	if m := c.call("playlist-next"); m["error"] != "success" {
		t.Fatalf("playlist-next: %v", m)
	}
	got := c.waitEvent("file-loaded")
	if i := strings.Index(strings.Join(got, " "), "end-file start-file file-loaded"); i < 0 {
		t.Errorf("events after playlist-next: %v", got)
	}
	if f, pos := c.get("filename"), c.get("playlist-pos"); f != "b.mkv" || pos != 1.0 {
		t.Errorf("after playlist-next: %v at %v", f, pos)
	}
	c.seen = nil
	c.call("loadfile", c3, "replace")
	c.waitEvent("file-loaded")
	if f, n := c.get("filename"), c.get("playlist-count"); f != "c.mkv" || n != 1.0 {
		t.Errorf("after loadfile replace: %v, %v entries", f, n)
	}
	c.raw(`{"command":["quit"]}`)
	select {
	case code := <-done:
		if code != 0 {
			t.Errorf("exit %d: %s", code, stderr.String())
		}
	case <-time.After(20 * time.Second):
		t.Fatal("quit did not end the run")
	}
}
