package gpu_test

import (
	"testing"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/internal/testkit/vktest"
)

// TestGPUTimerEvery: a one-slot timer of Every 3 over seven frames (each its own submission, waited
// for) measures frames 1, 4 and 7 (three intervals, each at least 0 ms); of Every 0, all seven.
func TestGPUTimerEvery(t *testing.T) {
	dev := vktest.Open(t)
	for _, c := range []struct{ every, want int }{{3, 3}, {0, 7}} {
		timer, err := dev.NewGPUTimer(1)
		if err != nil || timer == nil {
			t.Fatalf("no GPU timer on %s: %v", dev.Info, err)
		}
		timer.Every = c.every
		for range 7 {
			if err := dev.Submit(func(cb vk.CommandBuffer) { timer.Start(cb, 0); timer.Stop(cb, 0) }); err != nil {
				t.Fatal(err)
			}
		}
		timer.Finish()
		if timer.Count != c.want || timer.Total < 0 {
			t.Errorf("Every %d: %d intervals (%.3f ms in all) of 7 frames, want %d", c.every, timer.Count, timer.Total, c.want)
		}
		timer.Destroy()
	}
}
