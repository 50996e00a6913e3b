package vkx_test

import (
	"testing"
	"time"

	vk "github.com/vulkan-go/vulkan"
	"github.com/ycbcrkit/ycbcrkit/gpu"
	"github.com/ycbcrkit/ycbcrkit/internal/testkit/vktest"
	"github.com/ycbcrkit/ycbcrkit/internal/vkx"
)

// TestSemaphoreChecksAllocateNothing: the checks a wall's display loop makes for every held picture
// on every step (SemaphoresReached) and a pump's host wait (WaitSemaphores) put nothing on Go's
// heap: an untimed 16 HEVC wall collected its 2-5 MB heap 60 times a second, these calls a
// quarter of the allocations (row slow47's CPU profile).
func TestSemaphoreChecksAllocateNothing(t *testing.T) {
	d := vktest.OpenWith(t, gpu.Options{Frames: true}) // timeline semaphores (FFmpeg's frames)
	a, err := vkx.NewTimelineSemaphore(d.Device, 5)
	if err != nil {
		t.Fatal(err)
	}
	defer vk.DestroySemaphore(d.Device, a, nil)
	b, err := vkx.NewTimelineSemaphore(d.Device, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer vk.DestroySemaphore(d.Device, b, nil)
	s, v := []vk.Semaphore{a, b}, []uint64{5, 2}
	var reached bool
	if n := testing.AllocsPerRun(100, func() { reached, err = vkx.SemaphoresReached(d.Device, s, v) }); n != 0 || err != nil || reached {
		t.Errorf("SemaphoresReached: %v allocations a call, %v, reached %v; want none, no error, not reached (b at 1 of 2)", n, err, reached)
	}
	v[1] = 1
	if n := testing.AllocsPerRun(100, func() { err = vkx.WaitSemaphores(d.Device, s, v, time.Second) }); n != 0 || err != nil {
		t.Errorf("WaitSemaphores: %v allocations a call, %v; want none, no error", n, err)
	}
	if ok, err := vkx.SemaphoresReached(d.Device, s, v); !ok || err != nil {
		t.Errorf("SemaphoresReached at the values: %v, %v; want reached", ok, err)
	}
}
