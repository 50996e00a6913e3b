package videotex_test

import (
	"fmt"
	"log"
	"path/filepath"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/gpu"
	"github.com/ycbcrkit/ycbcrkit/videotex"
)

// Example plays a small test vector as a texture on a device that stands in for an engine's
// (gpu.Open enables what Requirements asks for; validation on, as while developing), acquires its first frame and submits the wait
// an engine's draw would carry. It runs headless (lavapipe will do). The vector's top-left chroma
// siting is one every Y′CbCr device samples exactly (COSITED is mandatory), so the sampler path is
// used; the bundled clip's "left" siting needs MIDPOINT vertically, which lavapipe lacks, and goes
// through the shader path there.
func Example() {
	dev, err := gpu.Open(gpu.Options{Index: -1, Validation: true})
	if err != nil {
		log.Fatal(err)
	}
	defer dev.Close()
	req, err := videotex.Requirements(dev.Instance, dev.Physical)
	if err != nil {
		log.Fatal(err)
	}
	var enabled []string
	for e := range dev.Extensions {
		enabled = append(enabled, e)
	}
	if missing := req.Missing(enabled, true); len(missing) > 0 {
		log.Fatalf("the device lacks %v", missing)
	}

	clip := filepath.Join("..", "testvectors", "media", "yuv420p_topleft.mkv")
	tex, err := videotex.Open(videotex.EngineDevice{Instance: dev.Instance, Physical: dev.Physical,
		Device: dev.Device, Queue: dev.Queue, QueueFamily: dev.QueueFamily, Extensions: enabled}, clip, videotex.Options{})
	if err != nil {
		log.Fatal(err)
	}
	defer tex.Close()

	f, err := tex.Acquire(0)
	if err != nil {
		log.Fatal(err)
	}
	path, _ := tex.Path()
	fmt.Printf("path %s, %dx%d, generation %d, pts %v\n", path, f.Width, f.Height, f.Generation, f.PTS)

	// The engine's submission that samples f waits on f.Wait; here it only waits.
	fence, err := dev.NewFence(false)
	if err != nil {
		log.Fatal(err)
	}
	defer vk.DestroyFence(dev.Device, fence, nil)
	si := []vk.SubmitInfo{{SType: vk.StructureTypeSubmitInfo, WaitSemaphoreCount: 1,
		PWaitSemaphores: []vk.Semaphore{f.Wait}, PWaitDstStageMask: []vk.PipelineStageFlags{f.WaitStage}}}
	if r := vk.QueueSubmit(dev.Queue, 1, si, fence); r != vk.Success {
		log.Fatalf("vkQueueSubmit: %d", r)
	}
	si[0].Free()
	if err := dev.WaitFence(fence); err != nil {
		log.Fatal(err)
	}
	f.Done() // the submission has completed: the image may be recycled
	// Output: path sampler, 64x48, generation 1, pts 0s
}
