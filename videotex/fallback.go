package videotex

import (
	"fmt"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/gpu"
)

// rgbaFormat holds the fallback path's converted pictures: UNORM, like the sampler path's output,
// so that the engine gets the same non-linear R′G′B′ values from either path.
const rgbaFormat = vk.FormatR8g8b8a8Unorm

// newRGBAPass is the render pass of the fallback conversion: the full-screen draw covers every
// pixel (no load), and the pass leaves the picture ready for the engine's fragment shaders.
func newRGBAPass(d *gpu.Device) (vk.RenderPass, error) {
	// The engine's earlier reads are complete (it gave the frame back after its fence): only the
	// layout transition must precede the writes. Later submissions on the same queue sample it; the
	// upload semaphore covers other queues.
	return d.NewPass(gpu.PassSpec{Format: rgbaFormat, FinalLayout: vk.ImageLayoutShaderReadOnlyOptimal,
		AfterStages: vk.PipelineStageFragmentShaderBit, AfterAccess: vk.AccessShaderReadBit})
}

// rgbaTarget is one converted picture of the fallback path: an image the conversion draws into and
// the engine samples.
type rgbaTarget struct {
	width, height int
	image         vk.Image
	memory        vk.DeviceMemory
	view          vk.ImageView
	fb            vk.Framebuffer
	rp            vk.RenderPass // the Engine's, shared
	dev           vk.Device
}

// Pass makes the target a ycbcr.Target for the shader path's pipeline.
func (r *rgbaTarget) Pass() (vk.RenderPass, vk.Format) { return r.rp, rgbaFormat }

func (t *Texture) newRGBA(width, height int) (*rgbaTarget, error) {
	r := &rgbaTarget{width: width, height: height, rp: t.eng.rgbaRP, dev: t.dev.Device}
	if err := r.init(t); err != nil {
		r.destroy()
		return nil, fmt.Errorf("videotex: RGBA image %dx%d: %w", width, height, err)
	}
	return r, nil
}

func (r *rgbaTarget) init(t *Texture) error {
	d := t.dev
	// TRANSFER_SRC lets an engine (or a test) copy the converted picture out.
	var err error
	if r.image, r.memory, r.view, err = d.NewImage2D(rgbaFormat, r.width, r.height,
		vk.ImageUsageColorAttachmentBit|vk.ImageUsageSampledBit|vk.ImageUsageTransferSrcBit); err != nil {
		return err
	}
	r.fb, err = d.NewFramebuffer(r.rp, r.width, r.height, r.view)
	return err
}

func (r *rgbaTarget) destroy() {
	if r.fb != vk.NullFramebuffer {
		vk.DestroyFramebuffer(r.dev, r.fb, nil)
	}
	if r.view != vk.NullImageView {
		vk.DestroyImageView(r.dev, r.view, nil)
	}
	if r.image != vk.NullImage {
		vk.DestroyImage(r.dev, r.image, nil)
	}
	if r.memory != vk.NullDeviceMemory {
		vk.FreeMemory(r.dev, r.memory, nil)
	}
}
