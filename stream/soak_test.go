package stream_test

import (
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/internal/testkit/vktest"
	"github.com/ycbcrkit/ycbcrkit/stream"
	"github.com/ycbcrkit/ycbcrkit/testvectors/synth"
	"github.com/ycbcrkit/ycbcrkit/ycbcr"
)

// rssKiB is the process's resident set (Linux).
func rssKiB(t *testing.T) int {
	t.Helper()
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(b), "\n") {
		if f := strings.Fields(l); len(f) >= 2 && f[0] == "VmRSS:" {
			n, err := strconv.Atoi(f[1])
			if err != nil {
				t.Fatal(err)
			}
			return n
		}
	}
	t.Fatal("no VmRSS in /proc/self/status")
	return 0
}

// heapBytes is the Go heap in use after a collection.
func heapBytes() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// TestSoak runs 20 000 tiny frames through a Stream, changing configuration (layout, size, path)
// every 250 frames, so images, bindings and import caches are retired on fences again and again.
// What the stream holds (Live) and the process's RSS must stay flat, and every frame handed to a
// slot must be released exactly once, after its fence.
func TestSoak(t *testing.T) {
	const frames, every = 20000, 250
	dev := vktest.Open(t)
	s, err := stream.New(dev, stream.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	target, err := dev.NewOffscreen(16, 16)
	if err != nil {
		t.Fatal(err)
	}
	defer target.Destroy()

	p := ycbcr.Params{Matrix: formats.MatrixBT709, Range: formats.RangeLimited, ChromaLocation: formats.ChromaTopLeft}
	type variant struct {
		name   string
		w, h   int
		choice formats.Choice
	}
	variants := []variant{{"yuv420p", 16, 16, formats.ChooseAuto}, {"nv12", 16, 8, formats.ChooseAuto}, {"yuv420p", 16, 16, formats.ChooseShader}}
	// The conversion variant is measured per configuration (VariantAuto): at 16×16 either may win,
	// and a compute configuration holds its storage images too. Live may so differ between
	// configurations; it must not grow past what the warm-up saw.
	pics := map[int]*formats.Frame{}
	for i, v := range variants {
		pf, _ := formats.Lookup(v.name)
		f, err := synth.Noise(pf, v.w, v.h, uint64(i))
		if err != nil {
			t.Fatal(err)
		}
		pics[i] = f
	}

	const warm = 4000 // every configuration seen five times: the Go heap and the driver's pools have grown
	var samples []int // RSS every 2000 frames, KiB
	handed, released := 0, 0
	var liveMax, rssWarm int
	var heapWarm uint64
	start := time.Now()
	for n := 0; n < frames; n++ {
		vi := (n / every) % len(variants)
		v, pic := variants[vi], pics[vi]
		if _, err := s.Configure(stream.Config{Format: pic.Format, Width: v.w, Height: v.h, Params: p, Choice: v.choice}); err != nil {
			t.Fatal(err)
		}
		fr, err := s.Begin()
		if err != nil {
			t.Fatal(err)
		}
		handed++
		if _, err := fr.Load(pic, func() { released++ }); err != nil {
			t.Fatal(err)
		}
		convertDrawSubmit(t, fr, target)
		if inFlight := handed - released; inFlight > s.Ring.Len() {
			t.Fatalf("frame %d: %d frames not released with %d slots", n, inFlight, s.Ring.Len())
		}
		switch {
		case n < warm:
			liveMax = max(liveMax, s.Live())
		case n == warm:
			liveMax, rssWarm, heapWarm = max(liveMax, s.Live()), rssKiB(t), heapBytes()
		case s.Live() > liveMax:
			t.Fatalf("frame %d: the stream holds %d objects, at most %d until frame %d", n, s.Live(), liveMax, warm)
		}
		if n%2000 == 0 {
			samples = append(samples, rssKiB(t))
			vktest.Check(t, dev)
		}
	}
	if err := s.Ring.Drain(); err != nil {
		t.Fatal(err)
	}
	if released != handed {
		t.Fatalf("%d frames handed to slots, %d released after Drain", handed, released)
	}
	rss := rssKiB(t)
	t.Logf("%d frames in %s; live objects %d after Drain (at most %d while running); RSS %d KiB at frame %d, %d KiB at the end; every 2000 frames: %v",
		frames, time.Since(start).Round(time.Millisecond), s.Live(), liveMax, rssWarm, warm, rss, samples)
	// Flat, by the player soak's measure: lavapipe backs device memory and images with host
	// allocations, so leaked images show here; under 5 % (about 6 MiB: some 350 bytes per frame, or
	// one 16×16 picture's images and staging per configuration change). The Go heap must not grow.
	// Under the race detector RSS measures the detector's own bookkeeping: the bound is checked in
	// the plain build (make test runs both); live objects and the Go heap are checked in both.
	if growth := float64(rss)/float64(rssWarm) - 1; growth >= 0.05 && !raceDetector {
		t.Errorf("RSS grew by %.1f %% after warm-up (limit 5 %%)", growth*100)
	}
	if heap := heapBytes(); heap > heapWarm+1<<20 {
		t.Errorf("Go heap grew from %d to %d KiB", heapWarm>>10, heap>>10)
	}
	// Live Vulkan objects: vktest closes the device when the test ends, and the validation layer's
	// object tracker reports every child of the device still alive then
	// (VUID-vkDestroyDevice-device-00378) as a failure of this test.
}
