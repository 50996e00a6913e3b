package gpu

import (
	"testing"

	vk "github.com/vulkan-go/vulkan"
)

// TestGPUTimerEvery: a timer with Every 4 measures frames 0 and 4 of 8 (one slot, each frame
// submitted and waited for), and records no query in the others; with Every 0 it measures all 8.
func TestGPUTimerEvery(t *testing.T) {
	d := openValidated(t)
	for _, c := range []struct{ every, want int }{{4, 2}, {0, 8}} {
		tm, err := d.NewGPUTimer(1)
		if err != nil {
			t.Fatal(err)
		}
		if tm == nil {
			t.Fatalf("the device's queue has no timestamps (%s)", d.Info.Name)
		}
		tm.Every = c.every
		for range 8 {
			if err := d.Submit(func(cb vk.CommandBuffer) { tm.Start(cb, 0); tm.Stop(cb, 0) }); err != nil {
				t.Fatal(err)
			}
		}
		tm.Finish()
		tm.Destroy()
		if tm.Count != c.want {
			t.Errorf("Every %d: %d of 8 frames measured, want %d", c.every, tm.Count, c.want)
		}
	}
}
