package bench

import (
	"fmt"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/gpu"
	"github.com/ycbcrkit/ycbcrkit/internal/vkx"
)

// newDrawPass makes the render pass the conversion is timed in. It differs from gpu.Offscreen's
// pass in one way: the attachment's load op is DONT_CARE, not CLEAR. The conversion's full-screen
// triangle writes every pixel, so a clear would only add a pass over the target that is not part of
// converting (and that some GPUs do for free and others not, which would blur the comparison).
// Pipelines are compatible with it: compatibility ignores load and store ops.
func newDrawPass(d *gpu.Device) (vk.RenderPass, error) {
	rp, err := d.NewPass(gpu.PassSpec{Format: gpu.TargetFormat, FinalLayout: vk.ImageLayoutTransferSrcOptimal,
		// An earlier frame's read-back and colour writes to the same image finish first; the sanity
		// read-back copies the image right after the pass.
		BeforeStages: vk.PipelineStageTransferBit, BeforeAccess: vk.AccessTransferReadBit | vk.AccessColorAttachmentWriteBit,
		AfterStages: vk.PipelineStageTransferBit, AfterAccess: vk.AccessTransferReadBit})
	if err != nil {
		return vk.NullRenderPass, fmt.Errorf("bench: render pass: %w", err)
	}
	return rp, nil
}

// target is an RGBA8 image of the frame's size that the conversion draws into. Unlike
// gpu.Offscreen it carries no read-back buffer: a run keeps many of them, and a 4320p read-back
// buffer is 133 MB of host memory each.
type target struct {
	w, h  int
	image vk.Image
	mem   vk.DeviceMemory
	view  vk.ImageView
	fb    vk.Framebuffer
	rp    vk.RenderPass
	dev   *gpu.Device
}

// Pass implements ycbcr.Target.
func (t *target) Pass() (vk.RenderPass, vk.Format) { return t.rp, gpu.TargetFormat }

func newTarget(d *gpu.Device, rp vk.RenderPass, w, h int) (*target, error) {
	t := &target{w: w, h: h, rp: rp, dev: d}
	if err := t.init(); err != nil {
		t.destroy()
		return nil, fmt.Errorf("bench: target %dx%d: %w", w, h, err)
	}
	return t, nil
}

func (t *target) init() error {
	d := t.dev
	var err error
	if t.image, t.mem, t.view, err = d.NewImage2D(gpu.TargetFormat, t.w, t.h,
		vk.ImageUsageColorAttachmentBit|vk.ImageUsageTransferSrcBit); err != nil {
		return err
	}
	t.fb, err = d.NewFramebuffer(t.rp, t.w, t.h, t.view)
	return err
}

// begin starts the render pass over the whole target with a full-size viewport.
func (t *target) begin(cb vk.CommandBuffer) {
	gpu.BeginPass(cb, t.rp, t.fb, t.w, t.h) // its clear value is ignored: the load op is DONT_CARE
	gpu.SetViewport(cb, 0, 0, t.w, t.h)
}

// recordReadback copies the image (TRANSFER_SRC after the pass) into buf and makes it visible to
// the host.
func (t *target) recordReadback(cb vk.CommandBuffer, buf *gpu.Buffer) {
	vkx.CmdCopyImageToBuffer(cb, t.image, vk.ImageLayoutTransferSrcOptimal, buf.Handle, t.w, t.h)
	vkx.CmdMemoryBarrier(cb, vk.PipelineStageTransferBit, vk.AccessTransferWriteBit, vk.PipelineStageHostBit, vk.AccessHostReadBit)
}

func (t *target) destroy() {
	dev := t.dev.Device
	if t.fb != vk.NullFramebuffer {
		vk.DestroyFramebuffer(dev, t.fb, nil)
	}
	t.dev.DestroyImage2D(t.image, t.mem, t.view)
}
