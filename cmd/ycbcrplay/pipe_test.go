package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/ycbcrkit/ycbcrkit/decode"
	"github.com/ycbcrkit/ycbcrkit/player"
	"github.com/ycbcrkit/ycbcrkit/present/window"
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

// TestSignalWhileProbing: a writer that sends the first 300 bytes of a Matroska file and then
// stalls with its end open, so that FFmpeg is still probing the input (avformat_open_input) when the
// signal comes: through a named pipe and through standard input (-), SIGINT and SIGTERM end the
// player within a second with 128 + the signal's number and no error line. No -timeout is given:
// the default 10 s would end the wait much later.
func TestSignalWhileProbing(t *testing.T) {
	clip := filepath.Join(mediaDir, "default.mkv")
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		for _, stdin := range []bool{false, true} {
			var cmd *exec.Cmd
			var e *bytes.Buffer
			if stdin {
				cmd, e = stalledStdin(t, clip, 300, "-headless", "-")
			} else {
				fifo := mkfifo(t)
				w := exec.Command("sh", "-c", `exec 3>"$1"; head -c 300 "$2" >&3; sleep 30`, "sh", fifo, clip)
				if err := w.Start(); err != nil {
					t.Fatal(err)
				}
				defer func() { w.Process.Kill(); w.Wait() }()
				cmd, _, e = asMain(t, nil, "-headless", fifo)
			}
			time.Sleep(700 * time.Millisecond) // past the FIFO's open: probing, waiting for more bytes
			sent := time.Now()
			cmd.Process.Signal(sig)
			code := exitCode(t, cmd, 5*time.Second)
			took := time.Since(sent)
			if code != 128+int(sig) || strings.Contains(e.String(), "error:") {
				t.Errorf("%v, stdin %v: exit %d, stderr %q: want %d and no error", sig, stdin, code, e.String(), 128+int(sig))
			}
			if took > time.Second {
				t.Errorf("%v, stdin %v: ended %v after the signal: want within 1 s", sig, stdin, took)
			}
			t.Logf("%v, stdin %v: exit %d, %v after the signal", sig, stdin, code, took.Round(time.Millisecond))
		}
	}
}

// TestTimeoutWhileProbing: standard input that stalls after 300 bytes; -timeout 1 bounds the probe
// as it bounds reads: one error line saying the open timed out, about 1 s after the start.
func TestTimeoutWhileProbing(t *testing.T) {
	// It mostly waits on the clock: side by side with the others that do (scripts/test-lib.sh, run).
	t.Parallel()
	cmd, e := stalledStdin(t, filepath.Join(mediaDir, "default.mkv"), 300, "-headless", "-timeout", "1", "-")
	start := time.Now()
	code := exitCode(t, cmd, 10*time.Second)
	took := time.Since(start)
	if code != 1 || strings.Count(e.String(), "error:") != 1 || !strings.Contains(e.String(), "open pipe:0: timed out after 1s") {
		t.Fatalf("exit %d, stderr %q: want 1 and one error line saying the open timed out after 1s", code, e.String())
	}
	if took > 4*time.Second {
		t.Errorf("ended after %v: want about 1 s", took)
	}
	t.Logf("ended after %v: %s", took.Round(time.Millisecond), strings.TrimSpace(e.String()))
}

// stalledStdin starts this binary as ycbcrplay with standard input a pipe that carries the first n
// bytes of file and then stays open and silent until the test ends.
func stalledStdin(t *testing.T, file string, n int, args ...string) (*exec.Cmd, *bytes.Buffer) {
	t.Helper()
	cmd, _, e := stalledStdinEnv(t, nil, file, n, args...)
	return cmd, e
}

// stalledStdinEnv is stalledStdin with extra environment, and the standard output too.
func stalledStdinEnv(t *testing.T, env []string, file string, n int, args ...string) (*exec.Cmd, *bytes.Buffer, *bytes.Buffer) {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close() })
	if _, err := w.Write(b[:n]); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(append(os.Environ(), "YCBCRPLAY_AS_MAIN=1"), env...)
	var o, e bytes.Buffer
	cmd.Stdin, cmd.Stdout, cmd.Stderr = r, &o, &e
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	r.Close()
	return cmd, &o, &e
}

// TestQuitStalledPipe: in a window, a pipe whose writer stalls after half of the 4 s clip. Once no
// frame has come for 300 ms, q is pressed: playback ends within 1 s. The decoder's blocked read is
// interrupted (decoderSource.Interrupt); without that the player waited 1 s for its decode goroutine
// (1.03 s measured) and left the decoder open inside its read.
func TestQuitStalledPipe(t *testing.T) {
	if !window.Available() {
		t.Fatal("no display: run under xvfb-run")
	}
	clip := filepath.Join(mediaDir, "default.mkv")
	b, err := os.ReadFile(clip)
	if err != nil {
		t.Fatal(err)
	}
	var fds [2]int
	if err := syscall.Pipe2(fds[:], syscall.O_NONBLOCK|syscall.O_CLOEXEC); err != nil {
		t.Fatal(err)
	}
	defer syscall.Close(fds[0])
	defer syscall.Close(fds[1])
	go func() { // the pipe holds 64 KiB: the rest of the first half goes in as the player reads
		for rest := b[:len(b)/2]; len(rest) > 0; {
			n, err := syscall.Write(fds[1], rest)
			if err == syscall.EAGAIN {
				time.Sleep(time.Millisecond)
				continue
			} else if err != nil {
				return
			}
			rest = rest[n:]
		}
	}()
	d, err := decode.Open("pipe:"+strconv.Itoa(fds[0]), decode.Options{Threads: 1, Timeout: -1})
	if err != nil {
		t.Fatal(err)
	}
	src := &decoderSource{d: d, name: "pipe", pipe: true}
	var last atomic.Int64 // time of the last frame, UnixNano
	var pressed atomic.Int64
	cfg := player.Config{Output: player.OutputConfig{Width: 320, Height: 240}, Playback: player.PlaybackConfig{Untimed: true}, Hooks: player.Hooks{OnFrame: func(p *player.Player, n int) {
		last.Store(time.Now().UnixNano())
		if n == 1 {
			w := p.Window()
			go func() {
				for time.Since(time.Unix(0, last.Load())) < 300*time.Millisecond {
					time.Sleep(20 * time.Millisecond)
				}
				pressed.Store(time.Now().UnixNano())
				w.Press(window.KeyQuit)
			}()
		}
	}}}
	st, err := player.Play(src, cfg)
	if err != nil {
		t.Fatal(err)
	}
	after := time.Since(time.Unix(0, pressed.Load()))
	if pressed.Load() == 0 || st.End != player.EndQuit || st.FramesPresented == 0 || st.FramesPresented >= 100 {
		t.Fatalf("pressed %v, end %v, %d frames presented: want q after the frames of half the clip", pressed.Load() != 0, st.End, st.FramesPresented)
	}
	if after > time.Second {
		t.Errorf("ended %v after q: want within 1 s", after)
	}
	t.Logf("%d frames presented; ended %v after q", st.FramesPresented, after.Round(time.Millisecond))
}
