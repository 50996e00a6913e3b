package videotex_test

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/gpu"
	"github.com/ycbcrkit/ycbcrkit/internal/testkit/pictest"
	"github.com/ycbcrkit/ycbcrkit/internal/vkx"
	"github.com/ycbcrkit/ycbcrkit/videotex"
)

// TestDrawInto: DrawInto draws a frame into an engine-owned storage image of another size, waiting
// on a binary semaphore of the engine's and signalling another, which the engine's read-back
// submission waits on; the picture is within 1/255 of ycbcrplay's window (-headless -geometry) of
// the same picture: 640×360 8-bit letterboxed into 320×240 (scaled down), 64×48 10-bit
// pillarboxed into 200×100 (scaled up). Validation on.
func TestDrawInto(t *testing.T) {
	dev := testDevice(t)
	play := pictest.Ycbcrplay(t, t.TempDir())
	var err error
	var sems [2]vk.Semaphore
	for i := range sems {
		if sems[i], err = dev.NewSemaphore(); err != nil {
			t.Fatal(err)
		}
		defer vk.DestroySemaphore(dev.Device, sems[i], nil)
	}
	var cbs [2]vk.CommandBuffer // the engine's earlier use of its image, its read-back
	for i := range cbs {
		if cbs[i], err = dev.NewCommandBuffer(); err != nil {
			t.Fatal(err)
		}
		defer dev.FreeCommandBuffer(cbs[i])
	}
	cb := cbs[1]
	fence, err := dev.NewFence(false)
	if err != nil {
		t.Fatal(err)
	}
	defer vk.DestroyFence(dev.Device, fence, nil)
	for _, c := range []struct {
		clip string
		w, h int
	}{{"default.mkv", 320, 240}, {"yuv420p10le.mkv", 200, 100}} {
		t.Run(c.clip, func(t *testing.T) {
			clip := filepath.Join("../testvectors/media", c.clip)
			ref := filepath.Join(t.TempDir(), "ref.png")
			if out, err := exec.Command(play, "-headless", "-untimed", "-no-audio", "-frames", "1", "-dither", "off", "-screenshot-window", "-geometry",
				fmt.Sprintf("%dx%d", c.w, c.h), "-screenshot", ref, clip).CombinedOutput(); err != nil {
				t.Fatalf("ycbcrplay: %v\n%s", err, out)
			}
			o, err := dev.NewStorageOffscreen(c.w, c.h)
			if err != nil {
				t.Fatal(err)
			}
			defer o.Destroy()
			tex, err := videotex.Open(engineDevice(dev), clip, videotex.Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer tex.Close()
			if err := tex.WaitReady(5 * time.Second); err != nil {
				t.Fatal(err)
			}
			f, err := tex.Step()
			if err != nil {
				t.Fatal(err)
			}
			// The engine's earlier use of its image, which the draw waits for: a submission (empty
			// here) signalling sems[0].
			if err := gpu.Begin(cbs[0]); err != nil {
				t.Fatal(err)
			}
			if err := vkx.Check(vk.EndCommandBuffer(cbs[0]), "vkEndCommandBuffer"); err != nil {
				t.Fatal(err)
			}
			if err := vkx.QueueSubmit(dev.Queue, cbs[0], vk.NullSemaphore, 0, sems[0], vk.NullFence); err != nil {
				t.Fatal(err)
			}
			if err := f.DrawInto(videotex.DrawTarget{Image: o.Image, View: o.View, Format: gpu.TargetFormat, Width: c.w, Height: c.h,
				FinalLayout: vk.ImageLayoutTransferSrcOptimal, Wait: sems[0], Signal: sems[1]}); err != nil {
				t.Fatal(err)
			}
			if err := f.DrawInto(videotex.DrawTarget{Image: o.Image, View: o.View, Format: gpu.TargetFormat, Width: c.w, Height: c.h}); err == nil {
				t.Error("a frame drawn twice")
			}
			if err := gpu.Begin(cb); err != nil {
				t.Fatal(err)
			}
			o.RecordReadback(cb)
			if err := vkx.Check(vk.EndCommandBuffer(cb), "vkEndCommandBuffer"); err != nil {
				t.Fatal(err)
			}
			if err := vkx.QueueSubmit(dev.Queue, cb, sems[1], vk.PipelineStageFlags(vk.PipelineStageTransferBit), vk.NullSemaphore, fence); err != nil {
				t.Fatal(err)
			}
			if err := dev.WaitFence(fence); err != nil {
				t.Fatal(err)
			}
			if d := pictest.MaxDiff(t, o.RGBA(), pictest.ReadPNG(t, ref)); d > 1 {
				t.Errorf("drawn %dx%d: %.0f/255 from ycbcrplay's picture", c.w, c.h, d)
			}
		})
	}
}
