package wall

import (
	"fmt"
	"image"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/gpu"
	"github.com/ycbcrkit/ycbcrkit/internal/vkx"
)

// canvas is the image every tile is drawn into. Between passes it rests in SHADER_READ_ONLY_OPTIMAL,
// where a window's scale pass samples it; a tile's pass loads it (LOAD_OP_LOAD) so that drawing one
// tile keeps the others, and the first pass clears it.
type canvas struct {
	dev         *gpu.Device
	w, h        int
	image       vk.Image
	memory      vk.DeviceMemory
	view        vk.ImageView
	clear, load vk.RenderPass
	fb          vk.Framebuffer
	readback    *gpu.Buffer
}

// canvasPass is what the clearing and the loading pass share, so that they are compatible (Vulkan
// spec, "Render Pass Compatibility"): the earlier passes' colour writes, a read-back's copy and a
// window's scale pass (compute and fragment reads) finish before a pass writes; what follows sees
// its writes.
func canvasPass() gpu.PassSpec {
	return gpu.PassSpec{Format: gpu.TargetFormat, FinalLayout: vk.ImageLayoutShaderReadOnlyOptimal, AttachmentRead: true,
		BeforeStages: vk.PipelineStageTransferBit | vk.PipelineStageFragmentShaderBit | vk.PipelineStageComputeShaderBit,
		BeforeAccess: vk.AccessTransferReadBit | vk.AccessColorAttachmentWriteBit | vk.AccessShaderReadBit,
		AfterStages:  vk.PipelineStageTransferBit | vk.PipelineStageFragmentShaderBit | vk.PipelineStageComputeShaderBit,
		AfterAccess:  vk.AccessTransferReadBit | vk.AccessShaderReadBit}
}

func newCanvas(dev *gpu.Device, w, h int) (*canvas, error) {
	c := &canvas{dev: dev, w: w, h: h}
	if err := c.init(); err != nil {
		c.destroy()
		return nil, fmt.Errorf("wall: canvas %dx%d: %w", w, h, err)
	}
	return c, nil
}

func (c *canvas) init() error {
	if lim := int(c.dev.Limits.MaxImageDimension2D); lim > 0 && (c.w > lim || c.h > lim) {
		return fmt.Errorf("larger than the device's maxImageDimension2D (%d): fewer or smaller videos", lim)
	}
	d := c.dev
	var err error
	usage := vk.ImageUsageColorAttachmentBit | vk.ImageUsageSampledBit | vk.ImageUsageTransferSrcBit
	if c.image, c.memory, c.view, err = d.NewImage2D(gpu.TargetFormat, c.w, c.h, usage); err != nil {
		return err
	}
	s := canvasPass()
	s.Clear = true
	if c.clear, err = d.NewPass(s); err != nil {
		return err
	}
	s = canvasPass()
	s.Load, s.InitialLayout = true, vk.ImageLayoutShaderReadOnlyOptimal
	if c.load, err = d.NewPass(s); err != nil {
		return err
	}
	c.fb, err = d.NewFramebuffer(c.clear, c.w, c.h, c.view)
	return err
}

// Pass is the loading pass the tiles are drawn in (ycbcr.Target: the pipelines are made for its
// format).
func (c *canvas) Pass() (vk.RenderPass, vk.Format) { return c.load, gpu.TargetFormat }

// recordClear clears the whole canvas to black.
func (c *canvas) recordClear(cb vk.CommandBuffer) {
	gpu.BeginPass(cb, c.clear, c.fb, c.w, c.h)
	vk.CmdEndRenderPass(cb)
}

// beginTile begins the loading pass over r alone, with r as viewport and scissor.
func (c *canvas) beginTile(cb vk.CommandBuffer, r image.Rectangle) {
	bi := &vk.RenderPassBeginInfo{SType: vk.StructureTypeRenderPassBeginInfo, RenderPass: c.load, Framebuffer: c.fb,
		RenderArea: vk.Rect2D{Offset: vk.Offset2D{X: int32(r.Min.X), Y: int32(r.Min.Y)},
			Extent: vk.Extent2D{Width: uint32(r.Dx()), Height: uint32(r.Dy())}}}
	vk.CmdBeginRenderPass(cb, bi, vk.SubpassContentsInline)
	bi.Free()
	gpu.SetViewport(cb, r.Min.X, r.Min.Y, r.Dx(), r.Dy())
}

// recordReadback copies the canvas into the read-back buffer (made on first use) and leaves it
// where the passes expect it.
func (c *canvas) recordReadback(cb vk.CommandBuffer) error {
	if c.readback == nil {
		var err error
		if c.readback, err = c.dev.NewBuffer(c.w*c.h*4, vk.BufferUsageTransferDstBit,
			vk.MemoryPropertyHostVisibleBit|vk.MemoryPropertyHostCoherentBit); err != nil {
			return err
		}
	}
	vkx.CmdBarrier(cb, vk.PipelineStageColorAttachmentOutputBit, vk.PipelineStageTransferBit, 0, 0,
		vkx.Transition{Image: c.image, From: vk.ImageLayoutShaderReadOnlyOptimal, To: vk.ImageLayoutTransferSrcOptimal,
			SrcAccess: vk.AccessColorAttachmentWriteBit, DstAccess: vk.AccessTransferReadBit})
	vkx.CmdCopyImageToBuffer(cb, c.image, vk.ImageLayoutTransferSrcOptimal, c.readback.Handle, c.w, c.h)
	vkx.CmdMemoryBarrier(cb, vk.PipelineStageTransferBit, vk.AccessTransferWriteBit, vk.PipelineStageHostBit, vk.AccessHostReadBit)
	vkx.CmdBarrier(cb, vk.PipelineStageTransferBit, vk.PipelineStageFragmentShaderBit|vk.PipelineStageComputeShaderBit, 0, 0,
		vkx.Transition{Image: c.image, From: vk.ImageLayoutTransferSrcOptimal, To: vk.ImageLayoutShaderReadOnlyOptimal,
			SrcAccess: vk.AccessTransferReadBit, DstAccess: vk.AccessShaderReadBit})
	return nil
}

// recordCopyOut copies r of the canvas to the origin of dst (in TRANSFER_DST_OPTIMAL), after the
// tiles drawn before it on the queue, and leaves the canvas where the passes expect it: a window's
// display step takes what it shows so.
func (c *canvas) recordCopyOut(cb vk.CommandBuffer, r image.Rectangle, dst vk.Image) {
	vkx.CmdBarrier(cb, vk.PipelineStageColorAttachmentOutputBit|vk.PipelineStageTransferBit, vk.PipelineStageTransferBit, 0, 0,
		vkx.Transition{Image: c.image, From: vk.ImageLayoutShaderReadOnlyOptimal, To: vk.ImageLayoutTransferSrcOptimal,
			SrcAccess: vk.AccessColorAttachmentWriteBit, DstAccess: vk.AccessTransferReadBit})
	vkx.CmdCopyImageRegion(cb, c.image, vk.ImageLayoutTransferSrcOptimal, r.Min.X, r.Min.Y, dst, vk.ImageLayoutTransferDstOptimal,
		0, 0, r.Dx(), r.Dy())
	vkx.CmdBarrier(cb, vk.PipelineStageTransferBit, vk.PipelineStageFragmentShaderBit|vk.PipelineStageComputeShaderBit, 0, 0,
		vkx.Transition{Image: c.image, From: vk.ImageLayoutTransferSrcOptimal, To: vk.ImageLayoutShaderReadOnlyOptimal,
			SrcAccess: vk.AccessTransferReadBit, DstAccess: vk.AccessShaderReadBit})
}

// rgba is what the last submitted read-back copied, once its submission has completed.
func (c *canvas) rgba() *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, c.w, c.h))
	copy(img.Pix, c.readback.Bytes())
	return img
}

func (c *canvas) destroy() {
	d := c.dev.Device
	if c.readback != nil {
		c.readback.Destroy()
	}
	if c.fb != vk.NullFramebuffer {
		vk.DestroyFramebuffer(d, c.fb, nil)
	}
	for _, rp := range []vk.RenderPass{c.clear, c.load} {
		if rp != vk.NullRenderPass {
			vk.DestroyRenderPass(d, rp, nil)
		}
	}
	if c.image != vk.NullImage {
		c.dev.DestroyImage2D(c.image, c.memory, c.view)
	}
}
