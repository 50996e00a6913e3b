package player

import (
	"bufio"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ycbcrkit/ycbcrkit/internal/vkx"
)

// procSample is what a leak would grow: resident memory, Go heap, open descriptors, memory mappings
// and threads of this process.
type procSample struct {
	rss, heap          uint64
	fds, maps, threads int
}

func sampleProc(t testing.TB) procSample {
	t.Helper()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	s := procSample{heap: ms.HeapAlloc}
	f, err := os.Open("/proc/self/status")
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, _ := strings.Cut(sc.Text(), ":")
		n, _ := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
		switch k {
		case "VmRSS":
			s.rss = n << 10
		case "Threads":
			s.threads = int(n)
		}
	}
	f.Close()
	fds, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Fatal(err)
	}
	s.fds = len(fds)
	maps, err := os.ReadFile("/proc/self/maps")
	if err != nil {
		t.Fatal(err)
	}
	s.maps = strings.Count(string(maps), "\n")
	return s
}

// soakFrames is the soak's length; YCBCRKIT_SOAK_FRAMES changes it (docs/reliability.md has a run of
// 200 000).
func soakFrames(t *testing.T) int {
	n := 20000
	if v := os.Getenv("YCBCRKIT_SOAK_FRAMES"); v != "" {
		var err error
		if n, err = strconv.Atoi(v); err != nil || n < 2000 {
			t.Fatalf("YCBCRKIT_SOAK_FRAMES=%q: want a number ≥ 2000", v)
		}
	}
	return n
}

// TestSoak plays 20 000 frames headless and untimed (64×36 NV12, sampler path) with the validation
// layer on, and checks that nothing accumulates after a warm-up of 1000 frames:
//
//   - resident memory grows by less than 5 % (a leak of about 350 bytes per frame exceeds it), the Go
//     heap by less than 1 MiB, and the counts of open descriptors, memory mappings and threads stay
//     put (lavapipe backs device memory and images with host allocations, so leaked Vulkan memory or
//     images show here while the run goes on);
//   - no Vulkan object outlives playback: the validation layer's object tracker reports every child
//     of the device still alive at vkDestroyDevice (VUID-vkDestroyDevice-device-00378), so a clean
//     teardown proves the count of live objects returned to zero. Play checks the layer's messages
//     before its deferred teardown, so this test drains the teardown's messages itself.
func TestSoak(t *testing.T) {
	frames := soakFrames(t)
	const warm = 1000
	src := synthetic(t, "nv12", 64, 36, 0)
	vkx.Messages() // start from an empty queue
	var atWarm, atEnd procSample
	var warmAt, endAt time.Time
	start := time.Now()
	stats, err := Play(src, Config{GPU: GPUConfig{Device: -1, Validate: true}, Output: OutputConfig{Headless: true}, Playback: PlaybackConfig{Untimed: true, Frames: frames}, Hooks: Hooks{OnFrame: func(p *Player, n int) {
		switch n {
		case warm:
			atWarm, warmAt = sampleProc(t), time.Now()
		case frames:
			endAt = time.Now()
			atEnd = sampleProc(t)
		}
	}}})
	if err != nil {
		t.Fatal(err)
	}
	wall := time.Since(start)
	for _, m := range vkx.Messages() {
		t.Errorf("validation at teardown: %s", m.Text)
	}
	if stats.FramesPresented != frames || stats.FramesDecoded != frames {
		t.Fatalf("stats %+v: want %d frames", stats, frames)
	}
	t.Logf("%d frames in %.1fs (%.0f fps, %.0f fps after warm-up), path %s", frames, wall.Seconds(), stats.FPS,
		float64(frames-warm)/endAt.Sub(warmAt).Seconds(), stats.Path)
	t.Logf("at frame %d: RSS %.1f MiB, heap %.2f MiB, %d fds, %d mappings, %d threads", warm, mibs(atWarm.rss), mibs(atWarm.heap), atWarm.fds, atWarm.maps, atWarm.threads)
	t.Logf("at frame %d: RSS %.1f MiB, heap %.2f MiB, %d fds, %d mappings, %d threads", frames, mibs(atEnd.rss), mibs(atEnd.heap), atEnd.fds, atEnd.maps, atEnd.threads)
	if growth := float64(atEnd.rss)/float64(atWarm.rss) - 1; growth >= 0.05 {
		t.Errorf("RSS grew by %.1f %% after warm-up (limit 5 %%)", growth*100)
	}
	if atEnd.heap > atWarm.heap+1<<20 {
		t.Errorf("Go heap grew from %.2f to %.2f MiB", mibs(atWarm.heap), mibs(atEnd.heap))
	}
	// Small slack for mappings and threads: the Go runtime and glibc add an arena or a thread now and then.
	if atEnd.fds != atWarm.fds || atEnd.maps > atWarm.maps+8 || atEnd.threads > atWarm.threads+2 {
		t.Errorf("resources grew: fds %d → %d, mappings %d → %d, threads %d → %d",
			atWarm.fds, atEnd.fds, atWarm.maps, atEnd.maps, atWarm.threads, atEnd.threads)
	}
}

func mibs(b uint64) float64 { return float64(b) / (1 << 20) }

// TestLeakDetection shows that the teardown check above sees leaks: a device closed with a fence
// and a semaphore still alive gets one object-tracker message for each.
func TestLeakDetection(t *testing.T) {
	src := synthetic(t, "nv12", 64, 36, 3)
	vkx.Messages()
	leaked := 0
	var log strings.Builder
	_, err := Play(src, Config{GPU: GPUConfig{Device: -1, Validate: true}, Output: OutputConfig{Headless: true}, Playback: PlaybackConfig{Untimed: true}, Hooks: Hooks{Log: &log, OnFrame: func(p *Player, n int) {
		if n == 1 {
			if _, err := p.dev.NewFence(false); err == nil {
				leaked++
			}
			if _, err := p.dev.NewSemaphore(); err == nil {
				leaked++
			}
		}
	}}})
	// Play closes the device before it drains the messages, so the leak report is its error.
	if err == nil || !strings.Contains(err.Error(), "validation message") {
		t.Fatalf("Play returned %v: want the leak report as an error", err)
	}
	found := 0
	for _, line := range strings.Split(log.String(), "\n") { // one message per line
		if strings.Contains(line, "VUID-vkDestroyDevice-device-00378") {
			found++
		}
	}
	if leaked != 2 || found != 2 {
		t.Fatalf("leaked %d objects, the layer reported %d at vkDestroyDevice", leaked, found)
	}
}
