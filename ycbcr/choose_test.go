package ycbcr_test

import (
	"strings"
	"testing"

	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/internal/testkit/vktest"
	"github.com/ycbcrkit/ycbcrkit/ycbcr"
)

// TestChoose: the one path choice. Bottom chroma siting has no Vulkan chroma offset, so no
// device's sampler expresses it; top-left siting of yuv420p is expressed by every device that has
// Y′CbCr sampling of that format.
func TestChoose(t *testing.T) {
	dev := vktest.Open(t)
	pf, _ := formats.Lookup("yuv420p")
	bottom := ycbcr.Params{Matrix: formats.MatrixBT709, Range: formats.RangeLimited, ChromaLocation: formats.ChromaBottom}
	topLeft := bottom
	topLeft.ChromaLocation = formats.ChromaTopLeft

	d, err := ycbcr.Choose(dev, pf, bottom, formats.ChooseAuto)
	if err != nil || d.Path != formats.PathShader || d.SamplerErr == nil || !strings.Contains(d.Reason, "cannot express") {
		t.Errorf("auto, bottom siting: %+v, %v; want the shader path with the sampler's reason", d, err)
	}
	if _, err := ycbcr.Choose(dev, pf, bottom, formats.ChooseSampler); err == nil || !strings.Contains(err.Error(), "cannot express") {
		t.Errorf("sampler asked for, bottom siting: %v; want an error naming why", err)
	}
	if d, err := ycbcr.Choose(dev, pf, bottom, formats.ChooseShader); err != nil || d.Path != formats.PathShader || d.Reason != "asked for" {
		t.Errorf("shader asked for: %+v, %v", d, err)
	}
	d, err = ycbcr.Choose(dev, pf, topLeft, formats.ChooseAuto)
	if err != nil || d.Path != formats.PathSampler || d.Key.Format != pf.VkFormat {
		t.Errorf("auto, top-left siting: %+v, %v; want the sampler path and its key", d, err)
	}
}
