package main

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
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
	at            time.Duration
	frames, lives int64
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

// TestSoakWindow plays a 4 s clip (H.264 320×180, top-left sited 4:2:0, looped) timed in a window with the
// validation layer on, for YCBCRKIT_SOAK (25 s by default), pressing seeded random keys: seeks,
// pause, step forward and back, path and compare modes, zoom, full screen, screenshots, speed, the
// info and help overlays. The first third is the warm-up; it starts by visiting every path × compare
// × zoom state, so that the renderer has held each state's objects once. Required:
//
//   - no validation message (sync validation on), teardown included: nothing outlives the device;
//   - resident memory at the end within 5 % of the end of the warm-up;
//   - the renderer's live Vulkan objects (player.Live) never above the warm-up's largest count: each
//     state holds a fixed set, so a leak (an image, binding or release per seek, step or mode change)
//     shows as growth;
//   - open descriptors at most 2 more than after the warm-up (screenshots and the decoder's file
//     come and go).
//
// YCBCRKIT_SOAK_SEED changes the key sequence (default 1). It runs in the plain build only (make
// test skips ^TestSoak under the race detector, whose own mappings grow).
func TestSoakWindow(t *testing.T) {
	if !window.Available() {
		t.Fatal("no display: run under xvfb-run")
	}
	dur := soakDuration(t)
	warm := dur / 3
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
		t0                  time.Time
		frames, pressed     atomic.Int64
		lives               atomic.Int64    // the latest player.Live
		liveWarm, liveAfter int             // largest Live before and after the warm-up (main thread)
		liveSeen            = map[int]int{} // frames presented with each Live count
		atWarm, atEnd       procState
		samples             []procState
		keysDone            = make(chan struct{})
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
	keys := func(w *window.Window) {
		defer close(keysDone)
		rng := rand.New(rand.NewPCG(seed, 0))
		total := 0
		for _, k := range soakKeys {
			total += k.weight
		}
		// Every path × compare × zoom state once (z cycles fit → 1:1 → 2:1, c off → split → diff,
		// p auto → sampler → shader), a few frames each.
		for range 3 {
			for range 3 {
				for range 3 {
					press(w, window.KeyZ)
					time.Sleep(150 * time.Millisecond)
				}
				press(w, window.KeyC)
			}
			press(w, window.KeyP)
		}
		// Pauses last a second at most (space, or a step, which pauses): the soak is mostly playback.
		paused, pausedAt := false, time.Time{}
		next := time.Now()
		nextSample := time.Now()
		for {
			select {
			case <-stop:
				return
			default:
			}
			now := time.Now()
			if now.After(nextSample) {
				s := sampleState(t0)
				s.frames, s.lives = frames.Load(), lives.Load()
				samples = append(samples, s)
				if atWarm.rss == 0 && s.at >= warm {
					atWarm = s
				}
				nextSample = now.Add(dur / 20)
			}
			if time.Since(t0) >= dur {
				atEnd = sampleState(t0)
				atEnd.frames, atEnd.lives = frames.Load(), lives.Load()
				close(stop)
				return
			}
			if paused && now.Sub(pausedAt) > time.Second {
				press(w, window.KeySpace)
				paused = false
			} else if now.After(next) {
				r := rng.IntN(total)
				for _, k := range soakKeys {
					if r -= k.weight; r < 0 {
						press(w, k.k)
						switch {
						case k.k == window.KeySpace && paused:
							paused = false
						case k.k == window.KeySpace || (k.k == window.KeyPeriod || k.k == window.KeyComma) && !paused:
							paused, pausedAt = true, now
						}
						break
					}
				}
				next = now.Add(time.Duration(100+rng.IntN(300)) * time.Millisecond)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	// The window is not the video's size: fitting scales (a scale pass), 1:1 and 2:1 do not.
	cfg := player.Config{Width: 480, Height: 270, Loop: -1, Validate: true, ShotDir: shots, Stop: stop,
		OnFrame: func(p *player.Player, n int) {
			frames.Store(int64(n))
			l := p.Live()
			lives.Store(int64(l))
			liveSeen[l]++
			if n == 1 {
				t0 = time.Now()
				go keys(p.Window())
				return
			}
			if time.Since(t0) < warm {
				liveWarm = max(liveWarm, l)
			} else {
				liveAfter = max(liveAfter, l)
			}
		}}
	st, err := player.Play(src, cfg)
	if t0.IsZero() {
		t.Fatalf("no frame presented: %v", err)
	}
	<-keysDone
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
	t.Logf("warm-up ends %.1fs: RSS %.1f MiB, %d fds; end %.1fs: RSS %.1f MiB (%+.1f %%), %d fds; live objects at most %d in the warm-up, %d after",
		atWarm.at.Seconds(), mib(atWarm.rss), atWarm.fds, atEnd.at.Seconds(), mib(atEnd.rss),
		(float64(atEnd.rss)/float64(atWarm.rss)-1)*100, atEnd.fds, liveWarm, liveAfter)
	t.Logf("live objects: frames presented with each count: %v", liveSeen)
	if st.End != player.EndQuit || atWarm.rss == 0 || atEnd.rss == 0 || st.FramesPresented < 50 {
		t.Fatalf("end %v, %d frames presented, samples at warm-up %v and end %v: want a full soak ended by Stop",
			st.End, st.FramesPresented, atWarm.rss != 0, atEnd.rss != 0)
	}
	if growth := float64(atEnd.rss)/float64(atWarm.rss) - 1; growth >= 0.05 {
		t.Errorf("RSS grew by %.1f %% after the warm-up (limit 5 %%)", growth*100)
	}
	if liveAfter > liveWarm {
		t.Errorf("the renderer held %d Vulkan objects after the warm-up, at most %d during it", liveAfter, liveWarm)
	}
	if atEnd.fds > atWarm.fds+2 {
		t.Errorf("open descriptors grew from %d to %d", atWarm.fds, atEnd.fds)
	}
}
