package wall

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/ycbcrkit/ycbcrkit/internal/testkit/vktest"
)

// TestGrid: a clock started on a step that came late (after a stall, the ticker's missed tick at
// once) starts on the steps' grid, not on that step.
func TestGrid(t *testing.T) {
	const p = 10 * time.Millisecond
	t0 := time.Unix(100, 0)
	at := func(periods float64) time.Time { return t0.Add(time.Duration(periods * float64(p))) }
	var g grid
	var prev time.Time
	for _, s := range []float64{0, 1, 2.02, 3} { // regular steps, one 0.2 ms late
		g.step(at(s), prev, p)
		prev = at(s)
	}
	if got := g.next(at(3), p); !got.Equal(at(3)) {
		t.Fatalf("on a regular step: next %v, want the step itself", got.Sub(t0))
	}
	g.step(at(8.4), prev, p) // a stall of 5.4 periods: this step is off the grid
	if got, want := g.next(at(8.4), p), at(9); !got.Equal(want) {
		t.Fatalf("after a stall: next %v, want %v (on the grid)", got.Sub(t0), want.Sub(t0))
	}
	if got, want := g.next(at(8.4).Add(23*time.Millisecond), p), at(11); !got.Equal(want) {
		t.Fatalf("after a stall, 23 ms of drawing: next %v, want %v", got.Sub(t0), want.Sub(t0))
	}
	g.step(at(9), at(8.4), p) // 0.6 periods after the late one: still not a regular step
	g.step(at(10), at(9), p)
	if got, want := g.next(at(10), p), at(10); !got.Equal(want) {
		t.Fatalf("regular again: next %v, want %v", got.Sub(t0), want.Sub(t0))
	}
}

// TestPrepare: Prepare takes each stream's first picture and configures its stream for it, so that
// the first timed step makes no conversion (Stream.Generation counts the configurations) and no
// picture's images (Stream.PrepareAll; Stream.Live counts them).
func TestPrepare(t *testing.T) {
	w := openClocked(t, 2, false)
	if err := w.Prepare(20 * time.Second); err != nil {
		t.Fatal(err)
	}
	gens := make([]int, len(w.tiles))
	made := make([]int, len(w.tiles)) // the pictures' Vulkan objects (Live less what slots hold)
	for i, tl := range w.tiles {
		if tl.next == nil {
			t.Fatalf("tile %d: no first picture after Prepare", i)
		}
		if gens[i] = tl.st.Generation(); gens[i] == 0 {
			t.Fatalf("tile %d: not configured by Prepare", i)
		}
		if made[i] = tl.st.Live() - tl.st.Ring.Pending(); made[i] == 0 {
			t.Errorf("tile %d: no picture's images made by Prepare", i)
		}
	}
	if n, err := w.Tick(time.Now()); err != nil || n != len(w.tiles) {
		t.Fatalf("first step: %d tiles drawn, %v; want %d", n, err, len(w.tiles))
	}
	for i, tl := range w.tiles {
		if g := tl.st.Generation(); g != gens[i] {
			t.Errorf("tile %d: configured again in the first step (generation %d, then %d)", i, gens[i], g)
		}
		if m := tl.st.Live() - tl.st.Ring.Pending(); m != made[i] {
			t.Errorf("tile %d: the first step made pictures' objects (%d after Prepare, %d after it)", i, made[i], m)
		}
	}
}

// TestWaitSampler: a step's thread asleep (here parked in Go: its locked thread waits on a futex)
// shows in the sampler's figures under the step's phase; syscallName reads /proc's syscall lines.
func TestWaitSampler(t *testing.T) {
	if got := syscallName([]byte("202 0x1fce9f00 0x80 0x0 0x0 0x0 0x0 0x7ffd 0x4f5301\n")); got != "futex@0x1fce9f00" {
		t.Errorf("syscallName(futex) = %q", got)
	}
	if got := syscallName([]byte("16 0x5 0xc020462a 0x7ffd 0x0 0x0 0x0 0x7ffd 0x4f5301\n")); got != "ioctl" {
		t.Errorf("syscallName(ioctl) = %q", got)
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var ph phases
	ph.start()
	ph.lap(phaseRecord, phaseFlush)
	s := startWaitSampler(&ph, nil)
	s.inStep.Store(true)
	time.Sleep(200 * time.Millisecond)
	s.inStep.Store(false)
	out := s.stop()
	var asleep float64
	for k, v := range out {
		if strings.HasPrefix(k, "flush futex@") {
			asleep += v
		}
	}
	if asleep < 5 { // a sample a millisecond, fewer on a loaded machine
		t.Fatalf("200 ms parked in the flush phase: %.0f ms asleep on a futex in flush sampled (%v)", asleep, out)
	}
	// The parked thread's callers are the Go runtime's, in this test binary: its stack was read.
	exe, _ := os.Executable()
	found := false
	for k := range out {
		found = found || strings.HasPrefix(k, "chain step: ") && strings.Contains(k, " < "+filepath.Base(exe)+"+")
	}
	if !found {
		t.Errorf("no caller in %s among the parked thread's chains: %v", filepath.Base(exe), out)
	}
}

// TestGatherUnderValidation: a wall gathers a step's frames into one submission, except on a
// device with both the validation layer and Vulkan Video decoding, where each frame is submitted
// on its own (newWall says why). vktest's device has the layer; Video.Enabled is set here as a
// Vulkan Video device has it (lavapipe decodes nothing).
func TestGatherUnderValidation(t *testing.T) {
	dev := vktest.Open(t)
	if !dev.Validation {
		t.Fatal("the test device has no validation layer")
	}
	for _, video := range []bool{false, true} {
		enabled := dev.Video.Enabled
		dev.Video.Enabled = video
		w, err := newWall(dev, Options{}, 1)
		dev.Video.Enabled = enabled
		if err != nil {
			t.Fatal(err)
		}
		if gathered := w.gather != nil; gathered == video {
			t.Errorf("validation, Vulkan Video %v: gathered %v, want %v", video, gathered, !video)
		}
		w.Close()
	}
}
