package soundtest

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Rate and Channels are the null sink's format and the clips' audio format: float32, so that what
// the sink's monitor gives back is the samples written, without a conversion in between.
const (
	Rate     = 48000
	Channels = 2
	// SinkName is the null sink's name; its monitor source is SinkName + ".monitor".
	SinkName = "ycbcrkit_null"
)

// Beep is the clips' tone: 1 kHz at half scale for 100 ms from each whole second.
const (
	BeepHz        = 1000
	BeepSeconds   = 0.1
	BeepAmplitude = 0.5
)

// Clip makes (in dir) an H.264 + AAC MP4 of the given length with Debian's ffmpeg: 320×240 at 30
// fps, black with a white frame for the first 0.1 s of each whole second, and a stereo 48 kHz track
// whose 1 kHz beep starts at each whole second of the common timeline. audioDelay > 0 starts the
// audio track that much after the video (-itsoffset); the beeps stay on whole seconds.
func Clip(t testing.TB, dir string, seconds int, audioDelay float64) string {
	t.Helper()
	return clip(t, dir, seconds, audioDelay, 0)
}

// ShiftedClip is Clip with each beep starting late seconds after its flash (a known A/V offset in
// the content itself: a measurement of sync must find it).
func ShiftedClip(t testing.TB, dir string, seconds int, late float64) string {
	t.Helper()
	return clip(t, dir, seconds, 0, late)
}

func clip(t testing.TB, dir string, seconds int, audioDelay, late float64) string {
	t.Helper()
	name := filepath.Join(dir, fmt.Sprintf("beep-%ds-%gdelay-%glate.mp4", seconds, audioDelay, late))
	if _, err := os.Stat(name); err == nil {
		return name
	}
	video := fmt.Sprintf("color=black:s=320x240:r=30:d=%d,drawbox=c=white:t=fill:enable='lt(mod(t\\,1)\\,%g)'",
		seconds, BeepSeconds-0.001)
	// The audio source's own t is shifted by audioDelay on the common timeline, and each beep by
	// late (FFmpeg's mod is floored: before the first beep, mod(t−late, 1) is near 1, silence).
	at := audioDelay - late
	audio := fmt.Sprintf("aevalsrc='if(lt(mod(t+%g\\,1)\\,%g)\\,%g*sin(2*PI*%d*(t+%g))\\,0)|"+
		"if(lt(mod(t+%g\\,1)\\,%g)\\,%g*sin(2*PI*%d*(t+%g))\\,0)':s=%d:d=%g",
		at, BeepSeconds, BeepAmplitude, BeepHz, at,
		at, BeepSeconds, BeepAmplitude, BeepHz, at, Rate, float64(seconds)-audioDelay)
	args := []string{"-hide_banner", "-nostdin", "-loglevel", "error", "-y",
		"-f", "lavfi", "-i", video}
	if audioDelay > 0 {
		args = append(args, "-itsoffset", strconv.FormatFloat(audioDelay, 'f', -1, 64))
	}
	args = append(args, "-f", "lavfi", "-i", audio,
		"-c:v", "libx264", "-preset", "veryfast", "-g", "30", "-pix_fmt", "yuv420p",
		"-c:a", "aac", "-b:a", "128k", name)
	Run(t, 60*time.Second, "ffmpeg", args...)
	return name
}

// Run runs a command with a time limit and returns its stdout; a failure fails the test.
func Run(t testing.TB, limit time.Duration, name string, args ...string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %s: %v: %s", name, strings.Join(args, " "), err, stderr.String())
	}
	return stdout.Bytes()
}

// Reference decodes file's first audio stream with the program ffmpeg (the same FFmpeg build as the
// toolkit's, $YCBCRKIT_FFMPEG, when set) to interleaved float32 at rate and channels. The raw
// muxer is "rawvideo" (it writes any packets as they are), which that build has, and not f32le.
func Reference(t testing.TB, file string, rate, channels int) []float32 {
	t.Helper()
	prog := os.Getenv("YCBCRKIT_FFMPEG")
	if prog == "" {
		prog = "ffmpeg"
	}
	raw := Run(t, 60*time.Second, prog, "-hide_banner", "-nostdin", "-loglevel", "error", "-i", file,
		"-map", "0:a:0", "-f", "rawvideo", "-acodec", "pcm_f32le", "-ar", strconv.Itoa(rate), "-ac", strconv.Itoa(channels), "-")
	return Floats(raw)
}

// Floats reads little-endian float32 samples.
func Floats(raw []byte) []float32 {
	out := make([]float32, len(raw)/4)
	for i := range out {
		out[i] = math.Float32frombits(binary.LittleEndian.Uint32(raw[4*i:]))
	}
	return out
}

// Server is a private PulseAudio daemon with one null sink.
type Server struct {
	// Dir is its XDG_RUNTIME_DIR; the socket is Dir/pulse/native.
	Dir string
	// Env is what a client needs to reach it (XDG_RUNTIME_DIR, PULSE_SERVER).
	Env []string
}

// StartServer starts a private PulseAudio server with a float32 stereo 48 kHz null sink named
// SinkName (without rewinds) and the native protocol on a private XDG_RUNTIME_DIR, and stops it when the test ends.
// It fails the test when the server cannot be started (no skip).
func StartServer(t testing.TB) *Server {
	t.Helper()
	if _, err := exec.LookPath("pulseaudio"); err != nil {
		t.Fatalf("soundtest: pulseaudio is not installed (scripts/install-deps.sh installs it): %v", err)
	}
	// A short path: the socket's must fit sockaddr_un (108 bytes), which t.TempDir's may not.
	dir, err := os.MkdirTemp("", "pulse")
	if err != nil {
		t.Fatal(err)
	}
	s := &Server{Dir: dir, Env: []string{"XDG_RUNTIME_DIR=" + dir, "PULSE_SERVER=unix:" + filepath.Join(dir, "pulse", "native")}}
	t.Cleanup(func() { s.stop(t); os.RemoveAll(dir) })
	// norewinds=1: with rewinds, a stream that starts mid-way makes the sink rewind and re-render
	// what it had rendered ahead, and its monitor then loses the stream's first ~20 ms (PulseAudio's
	// own pacat shows the same; measured in docs/audio.md). Without them the monitor holds exactly
	// what the sink rendered, silence included.
	sink := fmt.Sprintf("module-null-sink sink_name=%s rate=%d format=float32le channels=%d norewinds=1", SinkName, Rate, Channels)
	// --high-priority/--realtime: as a desktop's server runs (nice -11, SCHED_RR where allowed), so
	// that a loaded test machine does not starve the sink and put gaps into the recording.
	cmd := exec.Command("pulseaudio", "-D", "-n", "--exit-idle-time=-1", "--high-priority=yes", "--realtime=yes",
		"--log-target=file:"+filepath.Join(dir, "log"),
		"--load="+sink, "--load=module-native-protocol-unix")
	cmd.Env = append(os.Environ(), s.Env...)
	if out, err := cmd.CombinedOutput(); err != nil {
		log, _ := os.ReadFile(filepath.Join(dir, "log"))
		t.Fatalf("soundtest: start pulseaudio: %v: %s%s", err, out, log)
	}
	if _, err := s.pactl("info"); err != nil {
		t.Fatalf("soundtest: pulseaudio started but does not answer: %v", err)
	}
	return s
}

func (s *Server) pactl(args ...string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "pactl", args...)
	cmd.Env = append(append(os.Environ(), s.Env...), "LC_ALL=C") // sinkLatency reads its words
	out, err := cmd.CombinedOutput()
	if err != nil {
		return out, fmt.Errorf("pactl %s: %v: %s", strings.Join(args, " "), err, out)
	}
	return out, nil
}

// Setenv points this process's PulseAudio clients at the server for the rest of the test.
func (s *Server) Setenv(t testing.TB) {
	for _, kv := range s.Env {
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, v)
	}
}

// PID is the daemon's process id, as it wrote it (0 if unreadable).
func (s *Server) PID() int {
	b, err := os.ReadFile(filepath.Join(s.Dir, "pulse", "pid"))
	if err != nil {
		return 0
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil || pid <= 0 {
		return 0
	}
	return pid
}

// stop ends the daemon started by StartServer, by the process id it wrote.
func (s *Server) stop(t testing.TB) {
	pid := s.PID()
	if pid == 0 {
		return
	}
	_ = syscall.Kill(pid, syscall.SIGTERM)
	for i := 0; i < 100 && running(pid); i++ {
		time.Sleep(20 * time.Millisecond)
	}
	if running(pid) {
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
}

// running reports whether process pid exists and has not exited. The daemon (-D) is no child of
// this process but of PID 1, which reaps it when it will: an ended daemon stays a zombie, which
// kill(pid, 0) still finds, until then (a second or more under some inits, on every sound test's
// path). proc(5): the state is the field after the command's closing parenthesis in
// /proc/PID/stat, Z for a zombie.
func running(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return syscall.Kill(pid, 0) == nil // no procfs: as before
	}
	i := bytes.LastIndexByte(b, ')')
	return i < 0 || i+2 >= len(b) || b[i+2] != 'Z'
}

// Recording is a parec recording of the null sink's monitor in progress.
type Recording struct {
	cmd  *exec.Cmd
	file string
	w    *stamped
	// Ahead is how far ahead of its clock the null sink renders: its configured latency, the
	// smallest any client asks for (the recording's own), read from the server when it connected.
	Ahead time.Duration
}

// stamped writes parec's output to the file and notes when each piece arrived and how many sample
// frames it ended at. The null sink renders a block of its latency at a time, when its clock
// reaches the block's start (module-null-sink's process_render: it renders while its clock is less
// than now + the latency), and the monitor passes what it renders on at once: the last sample of a
// block is played that latency after it arrives, less the time it took to arrive.
type stamped struct {
	f      *os.File
	n      int64 // bytes so far
	pieces []arrival
}

// arrival is a piece of the recording: when it came and the sample frames up to its end.
type arrival struct {
	at  time.Time
	end int64
}

func (s *stamped) Write(b []byte) (int, error) {
	now := time.Now()
	n, err := s.f.Write(b)
	s.n += int64(n)
	s.pieces = append(s.pieces, arrival{now, s.n / (4 * Channels)})
	return n, err
}

// originWindow is how far (in sample frames, either side) SampleTime looks for the arrivals that
// date a sample: the sink's clock drifts from this process's (by ~75 ppm while a stream plays, see
// SampleTime), so one origin for the whole recording would misdate its far end by milliseconds a
// minute, while a second either side holds hundreds of pieces.
const originWindow = Rate

// SampleTime is when the sink played the recording's sample i (a frame index), on this process's
// monotonic clock. Each piece that ended at sample frame e and arrived at a says that sample 0
// was played at a − e/Rate + Ahead at the latest (its last sample was rendered at most Ahead before
// it is played, and arrived after it was rendered); the earliest of these over the pieces that
// ended within a second of i is the time taken, so it is late by the quickest arrival (tens of
// microseconds). Taken over the whole recording instead, that earliest was the end's: the null
// sink advances its clock by each rendered piece's duration in whole microseconds
// (pa_bytes_to_usec rounds down), and with a player's stream (pieces of any length) it renders
// ~75 ppm faster than this process's clock, 4.5 ms a minute (none without a stream: it then renders
// whole blocks). Call it after Stop.
func (r *Recording) SampleTime(i float64) time.Time {
	var origin time.Time
	for _, p := range r.w.pieces {
		if math.Abs(float64(p.end)-i) > originWindow {
			continue
		}
		if o := p.at.Add(-frames(p.end)); origin.IsZero() || o.Before(origin) {
			origin = o
		}
	}
	return origin.Add(r.Ahead + time.Duration(i/Rate*float64(time.Second)))
}

// frames is the duration of n sample frames.
func frames(n int64) time.Duration { return time.Duration(n) * time.Second / Rate }

// Record starts recording the null sink's monitor (float32 stereo 48 kHz, raw) into a file of dir,
// asking for 20 ms of latency.
func (s *Server) Record(t testing.TB, dir string) *Recording {
	t.Helper()
	return s.RecordLatency(t, dir, 20)
}

// RecordLatency is Record asking for ms of latency: the null sink then renders that far ahead of
// its clock (Recording.Ahead, which SampleTime takes into account), unless a client asks for less.
func (s *Server) RecordLatency(t testing.TB, dir string, ms int) *Recording {
	t.Helper()
	r := &Recording{file: filepath.Join(dir, "monitor.f32")}
	f, err := os.Create(r.file)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	r.w = &stamped{f: f}
	r.cmd = exec.Command("parec", "-d", SinkName+".monitor", "--raw", "--format=float32le",
		"--rate="+strconv.Itoa(Rate), "--channels="+strconv.Itoa(Channels), "--latency-msec="+strconv.Itoa(ms))
	r.cmd.Env = append(os.Environ(), s.Env...)
	r.cmd.Stdout = r.w
	var stderr bytes.Buffer
	r.cmd.Stderr = &stderr
	if err := r.cmd.Start(); err != nil {
		t.Fatalf("soundtest: parec: %v", err)
	}
	t.Cleanup(func() {
		if r.cmd.ProcessState == nil {
			_ = r.cmd.Process.Kill()
			_ = r.cmd.Wait()
		}
	})
	// parec has connected once the monitor source has an output.
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if out, err := s.pactl("list", "short", "source-outputs"); err == nil && len(bytes.TrimSpace(out)) > 0 {
			ahead, err := s.sinkLatency()
			if err != nil {
				t.Fatal(err)
			}
			r.Ahead = ahead
			return r
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("soundtest: parec did not connect: %s; %s", stderr.String(), s.state())
	return nil
}

// state says whether the daemon still runs and ends with its log's last lines: what a client that
// could not connect needs beside its own error (the log goes with the test's folder).
func (s *Server) state() string {
	st := "the server is gone"
	if pid := s.PID(); pid != 0 && running(pid) {
		st = fmt.Sprintf("the server (pid %d) runs", pid)
	}
	log, _ := os.ReadFile(filepath.Join(s.Dir, "log"))
	lines := strings.Split(strings.TrimSpace(string(log)), "\n")
	return st + "; its log ends:\n" + strings.Join(lines[max(0, len(lines)-8):], "\n")
}

// sinkLatency is the null sink's configured latency, from pactl list sinks ("Latency: N usec,
// configured M usec").
func (s *Server) sinkLatency() (time.Duration, error) {
	out, err := s.pactl("list", "sinks")
	if err != nil {
		return 0, err
	}
	for _, line := range strings.Split(string(out), "\n") {
		_, after, ok := strings.Cut(line, "configured ")
		if !ok || !strings.Contains(line, "Latency:") {
			continue
		}
		us, err := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(after), " usec"))
		if err != nil {
			return 0, fmt.Errorf("soundtest: the sink's latency in %q: %w", line, err)
		}
		return time.Duration(us) * time.Microsecond, nil
	}
	return 0, fmt.Errorf("soundtest: no configured latency in pactl list sinks: %s", out)
}

// Stop ends the recording (SIGINT: parec writes what it has and exits) and returns its samples.
func (r *Recording) Stop(t testing.TB) []float32 {
	t.Helper()
	_ = r.cmd.Process.Signal(syscall.SIGINT)
	done := make(chan error, 1)
	go func() { done <- r.cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		_ = r.cmd.Process.Kill()
		<-done
	}
	raw, err := os.ReadFile(r.file)
	if err != nil {
		t.Fatal(err)
	}
	return Floats(raw)
}

// Onsets returns the times (seconds from the first sample) where channel 0 of x rises above
// threshold after at least gap seconds below it: the beeps' starts.
func Onsets(x []float32, channels, rate int, threshold float32, gap float64) []float64 {
	var out []float64
	quiet := int(gap * float64(rate))
	last := -quiet - 1
	for i := 0; i*channels < len(x); i++ {
		v := x[i*channels]
		if v > threshold || v < -threshold {
			if i-last > quiet {
				out = append(out, float64(i)/float64(rate))
			}
			last = i
		}
	}
	return out
}

// Align finds where ref starts in rec (interleaved, the same channel count): the lag in sample
// frames, near guess (± search frames), that maximises the correlation of the first window frames of
// ref with rec. It returns the lag and the Pearson correlation of ref with rec at that lag over their
// whole overlap.
func Align(rec, ref []float32, channels, guess, search, window int) (lag int, r float64) {
	best, bestLag := math.Inf(-1), guess
	n := min(window, len(ref)/channels)
	for l := guess - search; l <= guess+search; l++ {
		if l < 0 || (l+n)*channels > len(rec) {
			continue
		}
		var s float64
		for i := 0; i < n*channels; i += channels {
			s += float64(rec[l*channels+i]) * float64(ref[i])
		}
		if s > best {
			best, bestLag = s, l
		}
	}
	m := min(len(ref), len(rec)-bestLag*channels)
	return bestLag, Pearson(rec[bestLag*channels:bestLag*channels+m], ref[:m])
}

// Pearson is the correlation coefficient of a and b (the same length).
func Pearson(a, b []float32) float64 {
	n := float64(len(a))
	if n == 0 {
		return 0
	}
	var sa, sb, saa, sbb, sab float64
	for i := range a {
		x, y := float64(a[i]), float64(b[i])
		sa, sb, saa, sbb, sab = sa+x, sb+y, saa+x*x, sbb+y*y, sab+x*y
	}
	cov := sab - sa*sb/n
	va, vb := saa-sa*sa/n, sbb-sb*sb/n
	if va <= 0 || vb <= 0 {
		return 0
	}
	return cov / math.Sqrt(va*vb)
}
