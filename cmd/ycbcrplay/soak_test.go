package main

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ycbcrkit/ycbcrkit/decode"
	"github.com/ycbcrkit/ycbcrkit/internal/vkx"
	"github.com/ycbcrkit/ycbcrkit/player"
	"github.com/ycbcrkit/ycbcrkit/present/window"
)

// soakDuration is the windowed soak's length: YCBCRKIT_SOAK (a Go duration, at least 10 s; 10m is the
// run docs/reliability.md reports), or 25 s.
func soakDuration(t *testing.T) time.Duration {
	v := os.Getenv("YCBCRKIT_SOAK")
	if v == "" {
		return 25 * time.Second
	}
	d, err := time.ParseDuration(v)
	if err != nil || d < 10*time.Second {
		t.Fatalf("YCBCRKIT_SOAK=%q: want a duration of at least 10s", v)
	}
	return d
}

// soakKeys are the keys the soak presses, with their weights: everything but quit and the list's
// next and previous. 9, 0 and m act on the sound, which this soak has not (the clip has none); they
// must be harmless then.
var soakKeys = []struct {
	k      window.Key
	weight int
}{
	{window.KeySpace, 3}, {window.KeyLeft, 3}, {window.KeyRight, 3}, {window.KeyUp, 1}, {window.KeyDown, 1},
	{window.KeyPeriod, 3}, {window.KeyComma, 2}, {window.KeyP, 3}, {window.KeyC, 3}, {window.KeyI, 1},
	{window.KeyF, 1}, {window.KeyZ, 3}, {window.Key1, 1}, {window.KeyS, 1}, {window.KeySlower, 1},
	{window.KeyFaster, 1}, {window.KeyBackspace, 1}, {window.Key9, 1}, {window.Key0, 1}, {window.KeyM, 1},
	{window.KeyHelp, 1},
}

// procState is what a leak grows: resident memory, Go heap, descriptors and threads of this process.
type procState struct {
	rss, heap     uint64
	fds, threads  int
	at            time.Duration // since the first frame
	frames, lives int64         // frames presented so far and player.Live then
}

func sampleState(t0 time.Time) procState {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	s := procState{heap: ms.HeapAlloc, at: time.Since(t0)}
	if b, err := os.ReadFile("/proc/self/status"); err == nil {
		for _, l := range strings.Split(string(b), "\n") {
			f := strings.Fields(l)
			if len(f) < 2 {
				continue
			}
			n, _ := strconv.ParseUint(f[1], 10, 64)
			switch f[0] {
			case "VmRSS:":
				s.rss = n << 10
			case "Threads:":
				s.threads = int(n)
			}
		}
	}
	if fds, err := os.ReadDir("/proc/self/fd"); err == nil {
		s.fds = len(fds)
	}
	return s
}

// TestSoakWindow plays a 4 s clip (H.264 320×180, top-left sited 4:2:0, looped) timed in a window
// with the validation layer on, for YCBCRKIT_SOAK (25 s by default), pressing seeded random keys
// every 100–400 ms: seeks, pause, step forward and back, path and compare modes, zoom and pan, full
// screen, screenshots, speed, the info and help overlays, the volume keys. The warm-up (the first
// third, 10 s at least) starts by visiting every path × compare × zoom state in the window and on the
// full screen. At its end (checkpoint 1) and at the end of the soak (checkpoint 2) the keys return
// the player to its first state and measure it there. Required:
//
//   - no validation message (sync validation on), teardown included: nothing outlives the device;
//   - resident memory at checkpoint 2 within 5 % of checkpoint 1;
//   - the renderer's live Vulkan objects (player.Live) the same at both checkpoints: a leak (an
//     image, binding or release per seek, step or mode change) shows as growth;
//   - open descriptors at most 2 more (screenshots and the decoder's file come and go).
//
// YCBCRKIT_SOAK_SEED changes the key sequence (default 1). It runs in the plain build only (make
// test skips ^TestSoak under the race detector, whose own mappings grow).
func TestSoakWindow(t *testing.T) {
	if !window.Available() {
		t.Fatal("no display: run under xvfb-run")
	}
	dur := soakDuration(t)
	warm := max(dur/3, 10*time.Second) // at least the state sweep (6 s) and a few seconds more
	seed := uint64(1)
	if v := os.Getenv("YCBCRKIT_SOAK_SEED"); v != "" {
		var err error
		if seed, err = strconv.ParseUint(v, 10, 64); err != nil {
			t.Fatalf("YCBCRKIT_SOAK_SEED=%q: want a number", v)
		}
	}
	// Top-left sited 4:2:0, which lavapipe's Y′CbCr sampler expresses (the default clip is left
	// sited, which it cannot): p and c then reach every path and compare mode. A key frame each
	// second keeps seeks short.
	clip := filepath.Join(t.TempDir(), "soak.mkv")
	ffmpegCLI(t, "-f", "lavfi", "-i", "testsrc2=size=320x180:rate=25:duration=4", "-pix_fmt", "yuv420p",
		"-c:v", "libx264", "-preset", "ultrafast", "-g", "25", "-colorspace", "bt709", "-color_range", "tv",
		"-chroma_sample_location", "topleft", clip)
	d, err := decode.Open(clip, decode.Options{Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	src := &decoderSource{d: d, name: "soak.mkv"}
	shots := t.TempDir()
	stop := make(chan struct{})
	vkx.Messages() // start from an empty queue

	var (
		t0              time.Time
		frames, pressed atomic.Int64
		lives           atomic.Int64    // the latest player.Live
		liveSeen        = map[int]int{} // frames presented with each Live count (main thread)
		liveMax         [2]int          // largest Live before and after the warm-up (main thread)
		measuring       atomic.Int32    // 1, 2: a checkpoint's measuring window is open
		liveMin         = [3]int{0, 1 << 30, 1 << 30}
		checks          [3]procState // at the checkpoints 1 and 2
		samples         []procState
		done            sync.WaitGroup
	)
	press := func(w *window.Window, k window.Key) {
		w.Press(k)
		pressed.Add(1)
		if k == window.KeyS { // keep the last screenshot only: a long soak takes hundreds
			old, _ := filepath.Glob(filepath.Join(shots, "*.png"))
			for _, f := range old[:max(0, len(old)-1)] {
				os.Remove(f)
			}
		}
	}
	// sample records the process every dur/60 until the soak ends.
	sample := func() {
		defer done.Done()
		for {
			s := sampleState(t0)
			s.frames, s.lives = frames.Load(), lives.Load()
			samples = append(samples, s)
			select {
			case <-stop:
				return
			case <-time.After(dur / 60):
			}
		}
	}
	keys := func(w *window.Window) {
		defer done.Done()
		defer close(stop)
		rng := rand.New(rand.NewPCG(seed, 0))
		total := 0
		for _, k := range soakKeys {
			total += k.weight
		}
		// What the keys pressed so far have made of the player's state, to return to the first one:
		// p cycles auto → sampler → shader, c off → split → diff, z fit → 1:1 → 2:1, and 1 goes to
		// 1:1 or, from 1:1, back to fit (player.go).
		var path, compare, zoom int
		var full, paused, info, help bool
		var pausedAt time.Time
		do := func(k window.Key) {
			press(w, k)
			switch k {
			case window.KeyP:
				path = (path + 1) % 3
			case window.KeyC:
				compare = (compare + 1) % 3
			case window.KeyZ:
				zoom = (zoom + 1) % 3
			case window.Key1:
				zoom = map[bool]int{true: 1, false: 0}[zoom != 1]
			case window.KeyF:
				full = !full
			case window.KeyI:
				info = !info
			case window.KeyHelp:
				help = !help
			case window.KeySpace:
				paused, pausedAt = !paused, time.Now()
			case window.KeyPeriod, window.KeyComma: // a step pauses
				if !paused {
					paused, pausedAt = true, time.Now()
				}
			}
		}
		// checkpoint n returns to the first state (auto path, no compare, fit, in the window, playing
		// at speed 1, no overlays) and measures it: the least Live over 1.5 s and 40 frames (a release
		// waiting for its fence comes and goes) and the process. Checkpoints 1 and 2 so compare like
		// with like: resident memory swings with the state (a full-screen swapchain, a compare mode's
		// second path) by more than the 5 % limit.
		checkpoint := func(n int) {
			for path != 0 {
				do(window.KeyP)
			}
			for compare != 0 {
				do(window.KeyC)
			}
			for zoom != 0 {
				do(window.KeyZ)
			}
			for _, b := range []struct {
				on *bool
				k  window.Key
			}{{&full, window.KeyF}, {&paused, window.KeySpace}, {&info, window.KeyI}, {&help, window.KeyHelp}} {
				if *b.on {
					do(b.k)
				}
			}
			do(window.KeyBackspace)
			time.Sleep(500 * time.Millisecond)
			measuring.Store(int32(n))
			// 1.5 s and at least 40 frames (6 s at most): on a loaded machine 1.5 s held 20 frames,
			// too few for the least to be the resting count.
			for f0, t1 := frames.Load(), time.Now(); time.Since(t1) < 1500*time.Millisecond ||
				frames.Load()-f0 < 40 && time.Since(t1) < 6*time.Second; {
				time.Sleep(20 * time.Millisecond)
			}
			measuring.Store(0)
			checks[n] = sampleState(t0)
			checks[n].frames, checks[n].lives = frames.Load(), lives.Load()
		}
		// The warm-up starts with every path × compare × zoom state, in the window and on the full
		// screen, a few frames each, so that each has been built once.
		for range 2 {
			for range 3 {
				for range 3 {
					for range 3 {
						do(window.KeyZ)
						time.Sleep(100 * time.Millisecond)
					}
					do(window.KeyC)
				}
				do(window.KeyP)
			}
			do(window.KeyF)
		}
		random := func(until time.Duration) {
			next := time.Now()
			for time.Since(t0) < until {
				now := time.Now()
				if paused && now.Sub(pausedAt) > time.Second { // pauses last a second at most: mostly playback
					do(window.KeySpace)
				} else if now.After(next) {
					r := rng.IntN(total)
					for _, k := range soakKeys {
						if r -= k.weight; r < 0 {
							do(k.k)
							break
						}
					}
					next = now.Add(time.Duration(100+rng.IntN(300)) * time.Millisecond)
				}
				time.Sleep(20 * time.Millisecond)
			}
		}
		random(warm)
		checkpoint(1)
		random(dur - 2*time.Second)
		checkpoint(2)
	}
	// The window is not the video's size: fitting scales (a scale pass), 1:1 and 2:1 do not.
	cfg := player.Config{GPU: player.GPUConfig{Validate: true}, Output: player.OutputConfig{Width: 480, Height: 270, ShotDir: shots}, Playback: player.PlaybackConfig{Loop: -1}, Hooks: player.Hooks{Stop: stop, OnFrame: func(p *player.Player, n int) {
		frames.Store(int64(n))
		l := p.Live()
		lives.Store(int64(l))
		liveSeen[l]++
		if n == 1 {
			t0 = time.Now()
			done.Add(2)
			go keys(p.Window())
			go sample()
			return
		}
		if c := measuring.Load(); c != 0 {
			liveMin[c] = min(liveMin[c], l)
		}
		if time.Since(t0) < warm {
			liveMax[0] = max(liveMax[0], l)
		} else {
			liveMax[1] = max(liveMax[1], l)
		}
	}}}
	st, err := player.Play(src, cfg)
	if t0.IsZero() {
		t.Fatalf("no frame presented: %v", err)
	}
	done.Wait()
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range vkx.Messages() {
		t.Errorf("validation: %s", m.Text)
	}
	t.Logf("%s, seed %d: %d keys pressed, %d frames presented (%d dropped), end %v", dur, seed, pressed.Load(),
		st.FramesPresented, st.FramesDropped, st.End)
	for _, s := range samples {
		t.Logf("  %5.1fs: frame %6d, live %3d, RSS %6.1f MiB, heap %5.2f MiB, %2d fds, %2d threads",
			s.at.Seconds(), s.frames, s.lives, mib(s.rss), mib(s.heap), s.fds, s.threads)
	}
	c1, c2 := checks[1], checks[2]
	growth := float64(c2.rss)/float64(c1.rss) - 1
	t.Logf("checkpoint 1 (%.1fs, after the warm-up): RSS %.1f MiB, heap %.2f MiB, %d fds, %d threads, live %d",
		c1.at.Seconds(), mib(c1.rss), mib(c1.heap), c1.fds, c1.threads, liveMin[1])
	t.Logf("checkpoint 2 (%.1fs, the end): RSS %.1f MiB (%+.1f %%), heap %.2f MiB, %d fds, %d threads, live %d",
		c2.at.Seconds(), mib(c2.rss), growth*100, mib(c2.heap), c2.fds, c2.threads, liveMin[2])
	t.Logf("live objects: at most %d in the warm-up, %d after; frames presented with each count: %v", liveMax[0], liveMax[1], liveSeen)
	if st.End != player.EndQuit || c1.rss == 0 || c2.rss == 0 || c2.frames-c1.frames < 20 {
		t.Fatalf("end %v, %d frames presented, checkpoints at frames %d and %d: want a soak with playback, ended by Stop",
			st.End, st.FramesPresented, c1.frames, c2.frames)
	}
	if liveMin[1] == 1<<30 || liveMin[2] == 1<<30 {
		t.Fatalf("no frame presented during a checkpoint's window (live %d, %d)", liveMin[1], liveMin[2])
	}
	if growth >= 0.05 {
		t.Errorf("RSS grew by %.1f %% from checkpoint 1 to 2, in the same state (limit 5 %%)", growth*100)
	}
	if liveMin[2] != liveMin[1] {
		t.Errorf("the renderer held %d Vulkan objects at checkpoint 1, %d at checkpoint 2, in the same state", liveMin[1], liveMin[2])
	}
	if c2.fds > c1.fds+2 {
		t.Errorf("open descriptors grew from %d to %d", c1.fds, c2.fds)
	}
}
