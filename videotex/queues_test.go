package videotex_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/decode"
	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/internal/avx"
	"github.com/ycbcrkit/ycbcrkit/videotex"
)

// TestQueueLockSelection: who locks the engine's queues, the package's one decision
// (videotex.QueueLocksOf). With a queue lock, the toolkit's submissions, FFmpeg's lock_queue for the
// engine's queue and DeviceWaitIdle take it, and DeviceWaitIdle every toolkit lock too; without one,
// hardware decoding is refused with the reason. With internally synchronized queues nothing is
// locked, whether a lock is given or not, and hardware decoding needs none. Then the call sites
// follow it: textures on the shared device (lavapipe, validation on) claimed internally synchronized
// (ClaimInternallySynchronized: lavapipe lacks the extension; the test's one goroutine submits, so
// no lock is needed) acquire, submit and wait idle without calling the engine's lock, which the
// same run without the claim takes.
func TestQueueLockSelection(t *testing.T) {
	lock := &countingLock{}
	for _, c := range []struct {
		name string
		ed   videotex.EngineDevice
		want videotex.QueueLocks
		hw   bool // hardware decoding allowed as far as locks go
	}{
		{"a queue lock", videotex.EngineDevice{QueueLock: lock},
			videotex.QueueLocks{Submit: lock, FFmpeg: lock, WaitIdle: lock, WaitIdleAll: true}, true},
		{"no lock", videotex.EngineDevice{}, videotex.QueueLocks{WaitIdleAll: true}, false},
		{"internally synchronized, a lock given", videotex.EngineDevice{QueueLock: lock, InternallySynchronizedQueues: true},
			videotex.QueueLocks{FFmpegNone: true}, true},
		{"internally synchronized, no lock", videotex.EngineDevice{InternallySynchronizedQueues: true},
			videotex.QueueLocks{FFmpegNone: true}, true},
	} {
		got := videotex.QueueLocksOf(c.ed)
		hw := got.HWReason == ""
		got.HWReason = ""
		if got != c.want || hw != c.hw {
			t.Errorf("%s: %+v (hardware decoding allowed: %v); want %+v (%v)", c.name, got, hw, c.want, c.hw)
		}
	}
	if r := videotex.QueueLocksOf(videotex.EngineDevice{}).HWReason; !strings.Contains(r, "EngineDevice.QueueLock is nil") ||
		!strings.Contains(r, "InternallySynchronizedQueues") {
		t.Errorf("hardware decoding without a lock: %q; want the reason, naming both ways", r)
	}

	dev := testDevice(t)
	play := func(isq bool) int {
		t.Helper()
		l := &countingLock{}
		ed := engineDevice(dev)
		ed.QueueLock, ed.InternallySynchronizedQueues = l, isq
		if isq {
			ed.Extensions = append(ed.Extensions, videotex.ExtInternallySynchronizedQueues)
		}
		w := newWaiter(t, dev)
		tex, err := videotex.Open(ed, defaultClip(t), videotex.Options{Path: formats.ChooseShader}) // its draws submit too
		if err != nil {
			t.Fatal(err)
		}
		for i := range 3 {
			f, err := tex.Acquire(time.Duration(i) * 40 * time.Millisecond)
			if err != nil {
				t.Fatal(err)
			}
			w.consume(f)
		}
		if err := videotex.DeviceWaitIdle(ed); err != nil {
			t.Fatal(err)
		}
		if err := tex.Close(); err != nil {
			t.Fatal(err)
		}
		l.Mutex.Lock()
		defer l.Mutex.Unlock()
		return l.n
	}
	if n := play(false); n < 4 {
		t.Errorf("with a lock: taken %d times for 3 acquires and a wait; want 4 or more", n)
	}
	restore := videotex.ClaimInternallySynchronized()
	defer restore()
	if n := play(true); n != 0 {
		t.Errorf("internally synchronized: the engine's lock was taken %d times; want never", n)
	}
}

// TestInternallySynchronizedRefused: on a device without VK_KHR_internally_synchronized_queues
// (lavapipe: its extension list, read here apart from the toolkit, lacks it) Requirements says so,
// naming the extension, and an EngineDevice claiming internally synchronized queues is refused by
// NewEngine and Open in one line naming it, with or without the extension in Extensions.
func TestInternallySynchronizedRefused(t *testing.T) {
	dev := testDevice(t)
	var n uint32
	vk.EnumerateDeviceExtensionProperties(dev.Physical, "", &n, nil)
	props := make([]vk.ExtensionProperties, n)
	vk.EnumerateDeviceExtensionProperties(dev.Physical, "", &n, props)
	for _, p := range props[:n] {
		p.Deref()
		if vk.ToString(p.ExtensionName[:]) == videotex.ExtInternallySynchronizedQueues {
			t.Skipf("%s offers %s: TestInternallySynchronizedQueues runs there", dev.Info.Name, videotex.ExtInternallySynchronizedQueues)
		}
	}
	req, err := videotex.Requirements(dev.Instance, dev.Physical)
	if err != nil {
		t.Fatal(err)
	}
	if o := req.InternallySynchronized; o.Offered || !strings.Contains(o.Missing, videotex.ExtInternallySynchronizedQueues) ||
		!strings.Contains(o.Missing, dev.Info.Name) {
		t.Errorf("Requirements on %s: %+v; want not offered, naming the device and the extension", dev.Info.Name, o)
	}
	for _, listed := range []bool{false, true} {
		ed := engineDevice(dev)
		ed.InternallySynchronizedQueues = true
		if listed {
			ed.Extensions = append(ed.Extensions, videotex.ExtInternallySynchronizedQueues)
		}
		eng, err := videotex.NewEngine(ed)
		if err == nil {
			eng.Close()
		}
		_, oerr := videotex.Open(ed, defaultClip(t), videotex.Options{})
		for _, e := range []error{err, oerr} {
			if e == nil || !strings.Contains(e.Error(), "does not offer "+videotex.ExtInternallySynchronizedQueues) ||
				!strings.Contains(e.Error(), "InternallySynchronizedQueues") || strings.Contains(e.Error(), "\n") {
				t.Errorf("extension listed %v: %v; want a refusal in one line naming the extension", listed, e)
			}
		}
		if listed {
			t.Logf("refused: %v", err)
		}
	}
}

// TestInternallySynchronizedQueues runs where a device offers VK_KHR_internally_synchronized_queues
// (scripts/device/run.sh isq; it logs, for each device, whether it does, and skips where none does).
// The engine creates its queues with the flag (its family's and the decode family's), fetches its
// own with vkGetDeviceQueue2, lends its queue lock anyway and submits its draws without it: no
// queue lock is taken by anyone while textures decode and draw. Pictures go through FFmpeg's Vulkan
// frames (Hooks.HWUpload: FFmpeg's vkQueueSubmit2 to the engine's queue from the decoder's thread,
// beside the engine's and the toolkit's submissions), hevc-1080p is decoded by Vulkan Video where
// the device decodes and $YCBCRKIT_HWDEC_CLIPS is set (FFmpeg's submissions to the decode queues
// too) and compared with software, and DeviceWaitIdle runs while two textures submit. Throughout,
// the engine's lock is never called and FFmpeg's lock_queue takes no lock (avx.QueueLocksTaken).
// Validation on where the layer knows the extension (the log says when it is off).
func TestInternallySynchronizedQueues(t *testing.T) {
	e := newHWEngineWith(t, hwOptions{isq: true})
	if !e.req.Features.TimelineSemaphore || !e.req.Features.Synchronization2 {
		t.Fatalf("%+v: the device lacks what FFmpeg's Vulkan frames need", e.req)
	}
	before := avx.QueueLocksTaken()
	checkLocks := func(what string) {
		t.Helper()
		if _, all := e.lock.counts(); all != 0 {
			t.Errorf("%s: the engine's queue lock was called %d times; want never", what, all)
		}
		if n := avx.QueueLocksTaken() - before; n != 0 {
			t.Errorf("%s: FFmpeg's lock_queue took %d locks; want none", what, n)
		}
		if e.valid {
			e.checkValidation(t)
		}
	}
	const frames = 30
	got, pics, err := e.play(t, defaultClip(t), videotex.Options{Loop: true}, videotex.Hooks{HWUpload: true}, frames, 64, 36, step,
		map[int]bool{frames - 1: true})
	if err != nil {
		t.Fatal(err)
	}
	if got.HWCopied != frames || pics[frames-1] == nil {
		t.Errorf("FFmpeg's Vulkan frames: %+v; want %d copied and drawn", got, frames)
	}
	checkLocks("FFmpeg's Vulkan frames")

	if dir := os.Getenv("YCBCRKIT_HWDEC_CLIPS"); dir != "" && e.req.Available {
		clip := filepath.Join(dir, "hevc-1080p.mkv")
		grab := map[int]bool{frames - 1: true}
		hw, hwPics, err := e.play(t, clip, videotex.Options{HWDec: decode.HWDecVulkan}, videotex.Hooks{}, frames, 1920, 1080, step, grab)
		if err != nil {
			t.Fatalf("hardware: %v (%+v)", err, hw)
		}
		if !hw.Decode.HW || hw.HWCopied != frames {
			t.Fatalf("hardware decoding (asked for, no QueueLock needed): %+v", hw)
		}
		checkLocks("Vulkan Video decoding")
		_, swPics, err := e.play(t, clip, videotex.Options{HWDec: decode.HWDecNo}, videotex.Hooks{}, frames, 1920, 1080, step, grab)
		if err != nil {
			t.Fatalf("software: %v", err)
		}
		if d, err := maxDiff(hwPics[frames-1], swPics[frames-1]); err != nil || d > 1 {
			t.Errorf("frame %d: hardware vs software: %.0f LSB (%v); want ≤ 1", frames-1, d, err)
		}
		t.Logf("hardware: %s, %d frames, frame %d as software's", hw.Decoding, frames, frames-1)
	} else {
		t.Logf("Vulkan Video decoding not tried (YCBCRKIT_HWDEC_CLIPS %q, %s)", dir, e.req.Missing)
	}

	stepWaitingIdle(t, e, 2, 10)
	checkLocks("DeviceWaitIdle")
	t.Logf("no queue lock taken; validation %v", e.valid)
}
