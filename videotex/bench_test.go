package videotex_test

import (
	"testing"
	"time"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/internal/vkx"
	"github.com/ycbcrkit/ycbcrkit/videotex"
)

// BenchmarkFrameCalls measures the per-frame calls an engine makes, on the CPU: Acquire at a fixed
// time (after the first picture, the current one comes back with an empty submission that signals
// its semaphore) and Done once the engine's submission that waits on the frame has completed. Only
// the two calls are timed (call-us/frame); the engine's submission and fence wait are not. The C
// example's -bench N makes the same calls through libycbcrkit (yk_texture_acquire,
// yk_frame_release), so the two figures compare the C ABI's cost with the Go API's.
func BenchmarkFrameCalls(b *testing.B) {
	dev := shared
	tex, err := videotex.Open(engineDevice(dev), "../testvectors/media/default.mkv", videotex.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer tex.Close()
	fence, err := dev.NewFence(false)
	if err != nil {
		b.Fatal(err)
	}
	defer vk.DestroyFence(dev.Device, fence, nil)
	var calls time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		f, err := tex.Acquire(0)
		calls += time.Since(t0)
		if err != nil {
			b.Fatal(err)
		}
		err = vkx.QueueSubmitBatches(dev.Queue, []vkx.Batch{{Waits: []vkx.SubmitSemaphore{{Semaphore: f.Wait, Stage: f.WaitStage}}}}, fence)
		if err == nil {
			err = dev.WaitFence(fence)
		}
		if err != nil {
			b.Fatal(err)
		}
		t0 = time.Now()
		f.Done()
		calls += time.Since(t0)
	}
	b.ReportMetric(float64(calls.Nanoseconds())/1e3/float64(b.N), "call-us/frame")
}
