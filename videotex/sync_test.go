package videotex_test

import (
	"errors"
	"runtime"
	"testing"
	"time"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/internal/testkit/vktest"
	"github.com/ycbcrkit/ycbcrkit/internal/vkx"
	"github.com/ycbcrkit/ycbcrkit/videotex"
)

// TestTimelineAcquireGPURelease: frames acquired through a timeline semaphore of the engine's
// (SignalTimeline) and given back only through semaphores the engine's submissions signal
// (ReleaseAfter), alternately a timeline value and a binary semaphore, never with Done. The engine's
// submission waits on the timeline value, so it completes only if the toolkit signalled it; with a
// ring of 3 images, decoding goes on past the third picture only if the GPU releases give the images
// back (TestRingOwnership shows decoding stops while the engine holds every image). Validation on.
func TestTimelineAcquireGPURelease(t *testing.T) {
	e := newHWEngine(t) // a Vulkan 1.3 device: timeline semaphores
	d := e.ed.Device
	tex, err := videotex.Open(e.ed, defaultClip(t), videotex.Options{Images: 3})
	if err != nil {
		t.Fatal(err)
	}
	acquire, err := vkx.NewTimelineSemaphore(d, 0)
	if err != nil {
		t.Fatal(err)
	}
	done, err := vkx.NewTimelineSemaphore(d, 0)
	if err != nil {
		t.Fatal(err)
	}
	var binary [2]vk.Semaphore
	for i := range binary {
		if binary[i], err = e.helper.NewSemaphore(); err != nil {
			t.Fatal(err)
		}
	}
	var fences [2]vk.Fence
	for i := range fences {
		if fences[i], err = e.helper.NewFence(false); err != nil {
			t.Fatal(err)
		}
	}
	defer func() {
		vk.DeviceWaitIdle(d)
		tex.Close()
		for _, s := range append(binary[:], acquire, done) {
			vk.DestroySemaphore(d, s, nil)
		}
		for _, f := range fences {
			vk.DestroyFence(d, f, nil)
		}
	}()
	const frames = 8
	for n := 0; n < frames; n++ {
		if err := tex.WaitReady(5 * time.Second); err != nil {
			t.Fatalf("frame %d: %v (the GPU releases did not give the images back)", n, err)
		}
		f, err := tex.Step()
		if err != nil {
			t.Fatal(err)
		}
		if f.Index != int64(n) {
			t.Fatalf("frame %d: picture %d", n, f.Index)
		}
		v := uint64(n + 1)
		if err := f.SignalTimeline(acquire, v); err != nil {
			t.Fatal(err)
		}
		if err := f.SignalTimeline(acquire, v+100); err == nil {
			t.Fatal("a second SignalTimeline of one frame was accepted")
		}
		// The engine's sampling submission: waits on the acquire value, signals its release.
		slot := n % 2
		if n >= 2 {
			if err := e.helper.WaitFence(fences[slot]); err != nil {
				t.Fatalf("frame %d: the engine's submission never ran (the acquire value was not signalled): %v", n, err)
			}
			vk.ResetFences(d, 1, []vk.Fence{fences[slot]})
		}
		rel, relValue := done, v
		if n%2 == 1 {
			rel, relValue = binary[slot], 0
		}
		err = vkx.QueueSubmitBatches(e.ed.Queue, []vkx.Batch{{
			Waits:   []vkx.SubmitSemaphore{{Semaphore: acquire, Value: v, Stage: f.WaitStage}},
			Signals: []vkx.SubmitSemaphore{{Semaphore: rel, Value: relValue}}}}, fences[slot])
		if err != nil {
			t.Fatal(err)
		}
		if err := f.ReleaseAfter(rel, relValue); err != nil {
			t.Fatal(err)
		}
	}
	if err := vkx.WaitSemaphore(d, acquire, frames, 5*time.Second); err != nil {
		t.Fatalf("the acquire timeline did not reach %d: %v", frames, err)
	}
	if st := tex.Stats(); st.Shown != frames {
		t.Errorf("shown %d, want %d", st.Shown, frames)
	}
	vk.DeviceWaitIdle(d)
	e.checkValidation(t)
}

// TestDeviceLost: once fence queries and waits report VK_ERROR_DEVICE_LOST (injected:
// vkx.InjectFault, sticky as a lost device is), Acquire, Step, SignalTimeline's and ReleaseAfter's submissions and Discard
// return errors that match ErrDeviceLost, every call after the first too; Close returns promptly
// and the texture's goroutines end.
func TestDeviceLost(t *testing.T) {
	dev := testDevice(t)
	before := runtime.NumGoroutine()
	tex, err := videotex.Open(engineDevice(dev), defaultClip(t), videotex.Options{Images: 3})
	if err != nil {
		t.Fatal(err)
	}
	w := newWaiter(t, dev)
	for n := 0; n < 2; n++ {
		if err := tex.WaitReady(5 * time.Second); err != nil {
			t.Fatal(err)
		}
		f, err := tex.Step()
		if err != nil {
			t.Fatal(err)
		}
		w.consume(f)
	}
	vk.DeviceWaitIdle(dev.Device)                              // the fault below is only reported: let the GPU's work be done
	vkx.InjectFault("vkGetFenceStatus", vk.ErrorDeviceLost, 0) // a lost device's fences: none signalled
	vkx.InjectFault("vkWaitForFences", vk.ErrorDeviceLost, 0)
	defer vkx.ClearFaults()
	var lost error
	for i := 0; i < 8 && lost == nil; i++ { // until a call waits on one of the ring's fences
		f, err := tex.Acquire(time.Duration(i) * time.Second)
		if err != nil {
			lost = err
			break
		}
		if err := f.Discard(); err != nil {
			lost = err
		}
	}
	if !errors.Is(lost, videotex.ErrDeviceLost) {
		t.Fatalf("after the device was lost: %v, want ErrDeviceLost", lost)
	}
	for i := 0; i < 3; i++ {
		if _, err := tex.Step(); !errors.Is(err, videotex.ErrDeviceLost) {
			t.Fatalf("call %d after the loss: %v, want ErrDeviceLost", i, err)
		}
	}
	closed := make(chan error, 1)
	go func() { closed <- tex.Close() }()
	select {
	case err := <-closed:
		if err != nil && !errors.Is(err, videotex.ErrDeviceLost) {
			t.Errorf("Close: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Close hangs after the device was lost")
	}
	vkx.ClearFaults()
	vk.DeviceWaitIdle(dev.Device)
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		t.Errorf("%d goroutines after Close, %d before Open", n, before)
	}
	vktest.Check(t, dev)
}
