package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ycbcrkit/ycbcrkit/decode"
	"github.com/ycbcrkit/ycbcrkit/internal/testkit/pictest"
	"github.com/ycbcrkit/ycbcrkit/internal/testkit/timebound"
)

// frontEnds are the command lines that widely used front-ends spawn mpv with (docs/frontends.md says
// where each comes from); SOCK is the socket's path.
var frontEnds = []struct {
	name    string
	args    []string
	notices int // mpv's options that do not apply here
}{
	// python-mpv-jsonipc's MPVProcess defaults (Jellyfin MPV Shim, Plex MPV Shim and Syncplay drive
	// mpv through it).
	{"python-mpv-jsonipc", []string{"--idle=yes", "--input-ipc-server=SOCK", "--input-terminal=no", "--terminal=no"}, 1},
	// Syncplay's MPV_ARGS (syncplay/constants.py) through python-mpv-jsonipc.
	{"syncplay", []string{"--force-window=yes", "--idle=yes", "--hr-seek=always", "--keep-open=always", "--input-terminal=no",
		"--term-playing-msg=<SyncplayUpdateFile>\nANS_filename=${filename}\nANS_length=${=duration:${=length:0}}\nANS_path=${path}\n</SyncplayUpdateFile>",
		"--keep-open-pause=yes", "--script=/usr/share/syncplay/syncplay/resources/syncplayintf.lua",
		"--input-ipc-server=SOCK", "--terminal=no"}, 5},
	// node-mpv (j-holub/Node-MPV, lib/util.js mpvArguments).
	{"node-mpv", []string{"--input-ipc-server=SOCK", "--idle", "--really-quiet"}, 0},
	// npm mpv (porsager/mpv 2.0.3, index.js defaults).
	{"npm mpv", []string{"--input-ipc-server=SOCK", "--audio-fallback-to-null=yes", "--no-config", "--idle", "--msg-level=all=error"}, 1},
}

// TestMPVCommandLine: mpv's forms of the command line parse as mpv reads them (yes/no, --no-NAME,
// --name value, mpv's values of -aid, -geometry, -start, -loop-file), ycbcrplay's own still do, and
// mpv's options that do not apply are notices, not errors.
func TestMPVCommandLine(t *testing.T) {
	for _, fe := range frontEnds {
		o, err := parseArgs(fe.args)
		if err != nil || o.idle != "yes" || o.ipcPath != "SOCK" || len(o.notices) != fe.notices {
			t.Errorf("%s: idle %q, socket %q, notices %q, %v", fe.name, o.idle, o.ipcPath, o.notices, err)
		}
	}
	o, err := parseArgs([]string{"--pause", "--fs=yes", "--no-mute", "--keep-open", "--start", "+1:30", "--volume=50.4",
		"--aid=no", "--geometry=640x360+10+20", "--loop-file=2", "--title", "T", "--vo=gpu-next", "--ytdl-format=best", "--hwdec=vaapi",
		"--idle=once", "x.mkv", "-frames", "3"})
	switch {
	case err != nil:
		t.Fatal(err)
	case !o.cfg.Playback.Pause || !o.cfg.Output.Fullscreen || o.sound.mute || o.cfg.Playback.KeepOpen != "yes" ||
		o.cfg.Playback.Start != 90 || o.sound.volume != 50 || !o.sound.off || o.cfg.Output.Width != 640 ||
		o.cfg.Output.Height != 360 || o.cfg.Playback.Loop != 3 || o.cfg.Output.Title != "T" || o.idle != "once" ||
		o.cfg.Playback.Frames != 3 || len(o.inputs) != 1:
		t.Errorf("parsed %+v", o)
	case len(o.notices) != 4 || o.decode.hwdec != decode.HWDecAuto: // --vo, --ytdl-format, the geometry's position, --hwdec=vaapi
		t.Errorf("notices %q", o.notices)
	}
	if o, err := parseArgs([]string{"--keep-open=always", "--no-fs", "--mute=yes"}); err != nil || o.cfg.Playback.KeepOpen != "always" ||
		o.cfg.Output.Fullscreen || !o.sound.mute {
		t.Errorf("--keep-open=always --no-fs --mute=yes: %+v, %v", o, err)
	}
	for _, bad := range [][]string{{"--idle=maybe"}, {"--no-such-option"}, {"--keep-open=sometimes"}, {"--geometry=big"}} {
		if _, err := parseArgs(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
	var out, errOut strings.Builder
	if code := run([]string{"--version"}, &out, &errOut); code != 0 || !strings.HasPrefix(out.String(), "ycbcrplay ") || errOut.Len() != 0 {
		t.Errorf("--version: exit %d, %q, %q", code, out.String(), errOut.String())
	}
}

// ipcConn is a minimal JSON IPC client for the tests: one request at a time, events skipped.
type ipcConn struct {
	path string
	c    net.Conn
	r    *bufio.Reader
	id   int
}

func (c *ipcConn) ask(t *testing.T, cmd ...any) (any, string) {
	t.Helper()
	c.id++
	b, _ := json.Marshal(map[string]any{"command": cmd, "request_id": c.id})
	c.c.SetDeadline(time.Now().Add(10 * time.Second))
	if _, err := c.c.Write(append(b, '\n')); err != nil {
		t.Fatal(err)
	}
	for {
		line, err := c.r.ReadBytes('\n')
		if err != nil {
			t.Fatalf("%v: %v", cmd, err)
		}
		var m struct {
			Data  any    `json:"data"`
			ID    int    `json:"request_id"`
			Error string `json:"error"`
			Event string `json:"event"`
		}
		if json.Unmarshal(line, &m) == nil && m.Event == "" && m.ID == c.id {
			return m.Data, m.Error
		}
	}
}

// spawnFrontEnd starts this binary as ycbcrplay with args (SOCK replaced by a socket's path), no
// display, and connects to the socket.
func spawnFrontEnd(t *testing.T, args []string) (*exec.Cmd, *ipcConn, *strings.Builder) {
	t.Helper()
	cmd, c, stderr, _ := spawnPlayer(t, args)
	return cmd, c, stderr
}

// spawnPlayer is spawnFrontEnd, with the player's stdout.
func spawnPlayer(t *testing.T, args []string) (*exec.Cmd, *ipcConn, *strings.Builder, *strings.Builder) {
	t.Helper()
	sock := filepath.Join(t.TempDir(), "s")
	args = slices.Clone(args)
	for i := range args {
		args[i] = strings.ReplaceAll(args[i], "SOCK", sock)
	}
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "YCBCRPLAY_AS_MAIN=1", "DISPLAY=", "WAYLAND_DISPLAY=")
	var stderr, stdout strings.Builder
	cmd.Stderr, cmd.Stdout = &stderr, &stdout
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	for i := 0; ; i++ {
		c, err := net.Dial("unix", sock)
		if err == nil {
			return cmd, &ipcConn{path: sock, c: c, r: bufio.NewReader(c)}, &stderr, &stdout
		}
		if i == 200 {
			t.Fatalf("%v: no socket after 10 s: %v; stderr %q", args, err, stderr.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestMPVFrontEndsIdle: each front-end's own command line starts the player idle (no file, no
// device, no window), answering on its socket as python-mpv-jsonipc's first requests need
// (property-list), and quit ends it with status 0 and nothing on stderr (every line asks for quiet).
func TestMPVFrontEndsIdle(t *testing.T) {
	for _, fe := range frontEnds {
		cmd, c, stderr := spawnFrontEnd(t, fe.args)
		idle, e1 := c.ask(t, "get_property", "idle-active")
		list, e2 := c.ask(t, "get_property", "property-list")
		_, e3 := c.ask(t, "get_property", "time-pos")
		names, _ := list.([]any)
		if idle != true || e1 != "success" || e2 != "success" || !slices.Contains(names, any("time-pos")) || e3 != "property unavailable" {
			t.Errorf("%s: idle-active %v (%s), property-list %d names (%s), time-pos %s", fe.name, idle, e1, len(names), e2, e3)
		}
		c.ask(t, "quit")
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case err := <-done:
			if err != nil || stderr.Len() != 0 {
				t.Errorf("%s: quit: %v, stderr %q", fe.name, err, stderr.String())
			}
		case <-time.After(10 * time.Second):
			t.Errorf("%s: still running 10 s after quit", fe.name)
		}
	}
}

// TestMPVIdleClient: the npm mpv client (its own spawn arguments, --idle among them, through
// frontend.sh) drives a front-end's session: idle at the start, loadfile and file-loaded, time-pos
// observed moving, duration, append, pause, a seek landing within a frame of 2 s, playlist-next to
// the appended file, stop back to idle (end-file reason stop, the idle event, idle-active observed
// false while playing then true, the list empty, time-pos unavailable), quit with status 0. (The
// first value of an observed property may be lost by the client: client.mjs, the main scenario.)
// Then --keep-open: loadfile from 3.5 s (a per-file option) stays on the last picture, paused,
// eof-reached true, not idle (the last picture shown: late frames may be dropped on a busy machine).
func TestMPVIdleClient(t *testing.T) {
	mod := mpvClientModule(t)
	a, _ := filepath.Abs(filepath.Join(mediaDir, "default.mkv"))
	// B: the same clip under another name (a link), long enough to be playing at stop.
	b := filepath.Join(t.TempDir(), "b.mkv")
	if err := os.Symlink(a, b); err != nil {
		t.Fatal(err)
	}
	wrapper, _ := filepath.Abs("testdata/mpvclient/frontend.sh")
	out := nodeClient(t, nil, mod, wrapper, "idle", a, b)
	var got struct {
		Events                               []string
		IdleAtStart, IdleWhilePlaying, Pause bool
		IdleAfterStop, Moved                 bool
		CountAtStart, Count, CountAfterStop  int
		FilenameA, FilenameB, TimePosIdle    string
		Duration, TimePos                    float64
		PosB, Exit, Times                    int
		Kept                                 struct {
			EOF, Pause, Idle bool
			TimePos          float64
		}
		Idles, Pauses []bool
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("%q: %v", out, err)
	}
	want := []string{"start-file", "file-loaded", "playback-restart", "seek", "playback-restart", "end-file:stop",
		"start-file", "file-loaded", "playback-restart", "end-file:stop", "idle"}
	// The idle event at the start may come before the client connects: events from the first
	// start-file on.
	if i := slices.Index(got.Events, "start-file"); i > 0 {
		got.Events = got.Events[i:]
	}
	// After idle: the file kept open (start-file, file-loaded, its start's seek; quit's end-file may
	// come before the process ends).
	var after []string
	if i := slices.Index(got.Events, "idle"); i >= 0 {
		got.Events, after = got.Events[:i+1], got.Events[i+1:]
	}
	events := strings.Join(got.Events, " ")
	if !got.IdleAtStart || got.CountAtStart != 0 || got.FilenameA != "default.mkv" || got.Duration != 4 || got.IdleWhilePlaying ||
		got.Count != 2 || !got.Moved || !got.Pause || got.TimePos < 2 || got.TimePos > 2.04 || got.FilenameB != "b.mkv" ||
		got.PosB != 1 || !got.IdleAfterStop || got.CountAfterStop != 0 || !strings.Contains(got.TimePosIdle, "property unavailable") ||
		got.Exit != 0 || events != strings.Join(want, " ") || !slices.Contains(got.Pauses, true) ||
		// idle-active: false while playing, true at stop, false again for the file kept open
		!strings.Contains(fmt.Sprint(got.Idles), "false true false") ||
		!strings.HasPrefix(strings.Join(after, " "), "start-file file-loaded seek playback-restart") ||
		!got.Kept.EOF || !got.Kept.Pause || got.Kept.Idle || got.Kept.TimePos < 3.5 || got.Kept.TimePos > 4 {
		t.Errorf("the client saw %+v\nevents %s\nwant   %s", got, events, strings.Join(want, " "))
	}
}

// TestThumbnails: -thumbnails DIR 2 at the video's width writes the picture at 1 s within 1/255 of
// what the player itself shows there (-start 1 -frames 1 -screenshot: the GPU's conversion). Over
// the IPC (ycbcrplay-thumbnail), while the clip plays, a thumbnail comes back as a file of the width
// asked, the same picture as -thumbnails's; meanwhile the player goes on answering another client
// between frames throughout (the thumbnail is made off the player's thread), and while three more
// are made one after another it drops no picture (thumbnailsDropNothing).
func TestThumbnails(t *testing.T) {
	clip, _ := filepath.Abs(filepath.Join(mediaDir, "default.mkv"))
	dir := t.TempDir()
	var out, errOut strings.Builder
	if code := run([]string{"-thumbnails", dir, "2", "-thumbnail-width", "0", clip}, &out, &errOut); code != 0 ||
		strings.Count(out.String(), "\n") != 2 {
		t.Fatalf("-thumbnails: exit %d, %q, %q", code, out.String(), errOut.String())
	}
	shot := filepath.Join(dir, "shot.png")
	if code := run([]string{"-headless", "-start", "1", "-frames", "1", "-screenshot", shot, clip}, io.Discard, &errOut); code != 0 {
		t.Fatalf("-screenshot: exit %d: %s", code, errOut.String())
	}
	if d := maxDiff(t, pictest.ReadPNG(t, filepath.Join(dir, "default-001.png")), pictest.ReadPNG(t, shot)); d > 1 {
		t.Errorf("thumbnail at 1 s: %g codes from the player's picture", d)
	}

	cmd, c, stderr, _ := spawnPlayer(t, []string{"--input-ipc-server=SOCK", "-loop", "inf", clip})
	for i := 0; ; i++ { // playing: time-pos is there
		if _, e := c.ask(t, "get_property", "time-pos"); e == "success" {
			break
		} else if i == 400 {
			t.Fatalf("no time-pos after 10 s: %s", stderr.String())
		}
		time.Sleep(25 * time.Millisecond)
	}
	thumb := filepath.Join(dir, "ipc.png")
	other, err := net.Dial("unix", c.path)
	if err != nil {
		t.Fatal(err)
	}
	type reply struct {
		data any
		err  string
	}
	done := make(chan reply, 1)
	go func() {
		b, _ := json.Marshal(map[string]any{"command": []any{"ycbcrplay-thumbnail", 1, 200, thumb}, "request_id": 1})
		other.Write(append(b, '\n'))
		r := bufio.NewReader(other)
		for {
			line, err := r.ReadBytes('\n')
			if err != nil {
				done <- reply{nil, err.Error()}
				return
			}
			var m struct {
				Data  any    `json:"data"`
				ID    int    `json:"request_id"`
				Error string `json:"error"`
			}
			if json.Unmarshal(line, &m) == nil && m.ID == 1 {
				done <- reply{m.Data, m.Error}
				return
			}
		}
	}()
	// The other client's answers while the thumbnail is made: a player held by it would leave one
	// gap as long as the whole wait.
	var during []float64
	var got reply
	asked := time.Now()
	last, gap := asked, time.Duration(0)
wait:
	for {
		select {
		case got = <-done:
			break wait
		default:
		}
		if v, e := c.ask(t, "get_property", "time-pos"); e == "success" {
			during = append(during, v.(float64))
			gap, last = max(gap, time.Since(last)), time.Now()
		}
	}
	waited := time.Since(asked)
	gap = max(gap, time.Since(last))
	if got.err != "success" || got.data != thumb {
		t.Fatalf("ycbcrplay-thumbnail: %v, %s", got.data, got.err)
	}
	if len(during) < 2 || gap > waited/2 {
		t.Errorf("while the thumbnail was made (%v) the player answered time-pos %v, %v apart at most: want it answering throughout", waited, during, gap)
	}
	t.Logf("while the thumbnail was made (%v): %d answers of time-pos, %.2f s to %.2f s, at most %v apart", waited, len(during), during[0], during[len(during)-1], gap)
	if b := pictest.ReadPNG(t, thumb).Bounds(); b.Dx() != 200 || b.Dy() != 113 {
		t.Errorf("ycbcrplay-thumbnail: %v, want 200x113", b)
	}
	thumbnailsDropNothing(t, c, other, cmd.Process.Pid, dir)
	c.ask(t, "quit")
	if err := cmd.Wait(); err != nil {
		t.Fatalf("%v: %s", err, stderr.String())
	}
	small := filepath.Join(dir, "small")
	if code := run([]string{"-thumbnails", small, "2", clip}, io.Discard, &errOut); code != 0 {
		t.Fatal(errOut.String())
	}
	if d := maxDiff(t, pictest.ReadPNG(t, filepath.Join(small, "default-001.png")), pictest.ReadPNG(t, thumb)); d != 0 {
		t.Errorf("the IPC's thumbnail at 1 s differs from -thumbnails's by %g codes", d)
	}
}

// thumbnailsDropNothing asks the playing player (process pid, its clients c and other) for three
// thumbnails 200 px wide, one after another as a seek bar's hover asks them, and reads mpv's
// frame-drop-count before and after: the timed player drops a picture exactly when it comes more
// than a frame after its time (player's pacer), so none dropped says every picture was shown within
// a frame of its schedule while the thumbnails were decoded beside playback (each on a decoder of
// its own, on a goroutine of its own). A batch that dropped pictures while the player's threads
// waited more than a frame (40 ms) for a CPU is asked again, at most four times, with the reason
// logged (internal/testkit/timebound): a thumbnail made on the player's thread drops pictures
// every time (16-30 per batch).
func thumbnailsDropNothing(t *testing.T, c *ipcConn, other net.Conn, pid int, dir string) {
	t.Helper()
	const frame = 40 * time.Millisecond // default.mkv: 25 fps
	r := bufio.NewReader(other)
	id := 100
	make1 := func(seconds float64) error {
		id++
		b, _ := json.Marshal(map[string]any{"command": []any{"ycbcrplay-thumbnail", seconds, 200, filepath.Join(dir, fmt.Sprintf("batch-%d.png", id))}, "request_id": id})
		other.SetDeadline(time.Now().Add(20 * time.Second))
		if _, err := other.Write(append(b, '\n')); err != nil {
			return err
		}
		for {
			line, err := r.ReadBytes('\n')
			if err != nil {
				return err
			}
			var m struct {
				ID    int    `json:"request_id"`
				Error string `json:"error"`
			}
			if json.Unmarshal(line, &m) == nil && m.ID == id {
				if m.Error != "success" {
					return fmt.Errorf("ycbcrplay-thumbnail %g: %s", seconds, m.Error)
				}
				return nil
			}
		}
	}
	drops := func() int {
		v, e := c.ask(t, "get_property", "frame-drop-count")
		n, ok := v.(float64)
		if e != "success" || !ok {
			t.Fatalf("frame-drop-count: %v, %s", v, e)
		}
		return int(n)
	}
	for try := 1; ; try++ {
		before := drops()
		span := timebound.Start(pid)
		start := time.Now()
		for _, s := range []float64{0.5, 2, 3.5} {
			if err := make1(s); err != nil {
				t.Fatal(err)
			}
		}
		took := time.Since(start)
		_, waited := span.Elapsed()
		dropped := drops() - before
		t.Logf("batch %d: 3 thumbnails of 200 px in %v, %d pictures dropped meanwhile; the player waited %v for a CPU", try, took.Round(time.Millisecond), dropped, waited.Round(time.Millisecond))
		if dropped == 0 {
			return
		}
		if try == 5 || waited < frame {
			t.Errorf("while 3 thumbnails were made (%v) playback dropped %d pictures (frame-drop-count), want none", took.Round(time.Millisecond), dropped)
			return
		}
	}
}
