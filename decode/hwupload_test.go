package decode

import (
	"testing"

	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/gpu"
	"github.com/ycbcrkit/ycbcrkit/internal/vkx"
	"github.com/ycbcrkit/ycbcrkit/testvectors/synth"
)

// TestVulkanContextsShareDevice: two of FFmpeg's device contexts on one VkDevice (two decoders, or a
// decoder and an uploader), the first closed while the second goes on: the second still creates
// its images (FFmpeg takes vkCreateImage through the toolkit's get_proc_addr, whose per-device
// entry must outlive the first context).
func TestVulkanContextsShareDevice(t *testing.T) {
	dev, err := gpu.Open(gpu.Options{Index: -1, Validation: true, Frames: true})
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	t.Cleanup(func() {
		dev.Close()
		if msgs := vkx.Messages(); len(msgs) > 0 {
			t.Errorf("validation: %v", msgs)
		}
	})
	pf, _ := formats.Lookup("nv12")
	pic, err := synth.Noise(pf, 32, 16, 1)
	if err != nil {
		t.Fatal(err)
	}
	first, err := NewUploader(dev)
	if err != nil {
		t.Fatal(err)
	}
	second, err := NewUploader(dev)
	if err != nil {
		t.Fatal(err)
	}
	defer second.Close()
	f, err := first.Upload(pic)
	if err != nil {
		t.Fatal(err)
	}
	f.Release()
	first.Close()
	// A new frames context, so new images, on the second context.
	g, err := second.Upload(pic)
	if err != nil {
		t.Fatalf("after the first context closed: %v", err)
	}
	if g.HW == nil || g.HW.CodedWidth != 32 || g.HW.CodedHeight != 16 {
		t.Fatalf("upload: %+v", g.HW)
	}
	g.Release()
}
