package wall

import (
	"path/filepath"
	"testing"

	"github.com/ycbcrkit/ycbcrkit/decode"
	"github.com/ycbcrkit/ycbcrkit/gpu"
	"github.com/ycbcrkit/ycbcrkit/internal/testkit/vktest"
	"github.com/ycbcrkit/ycbcrkit/stream"
)

// TestReplayGivesBackItsCommandBuffers: a wall replaying hardware frames (stream.Options.Replay,
// here FFmpeg's Vulkan frames made by uploading) through two size changes (changes.h264: 64×48,
// 96×64, 64×48 pictures, so three configurations whose pictures retire with their recordings)
// gives back, once closed, every command buffer it took from the device.
func TestReplayGivesBackItsCommandBuffers(t *testing.T) {
	dev := vktest.OpenWith(t, gpu.Options{Frames: true})
	before := dev.CommandBuffers()
	w, err := Open(dev, []Input{{URL: filepath.Join("..", "testvectors", "media", "changes.h264")}},
		Options{Upload: true, HWDec: decode.HWDecNo, Route: stream.RouteCopy, Variant: stream.VariantCompute})
	if err != nil {
		t.Fatal(err)
	}
	for !w.Ended() {
		if _, err := w.Step(); err != nil {
			w.Close()
			t.Fatal(err)
		}
	}
	replayed, recorded := w.tiles[0].st.ReplayCounts()
	gens := w.tiles[0].st.Generation()
	w.Close()
	if replayed == 0 || recorded == 0 || gens < 3 {
		t.Fatalf("%d frames replayed from %d recordings over %d configurations: want some of each, three configurations", replayed, recorded, gens)
	}
	if after := dev.CommandBuffers(); after != before {
		t.Errorf("%d command buffers before the wall, %d after it closed", before, after)
	}
}
