package wall

import (
	"fmt"
	"image"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/gpu"
	"github.com/ycbcrkit/ycbcrkit/internal/vkx"
)

// canvas is the image every tile is drawn or copied into. It rests in TRANSFER_DST_OPTIMAL
// (canvasLayout), where copies write it, so that placing a tile changes no layout of the whole image
// (which would also make tiles placed from different queues hazards of each other); a reader (a
// read-back, a window's pass) takes it to its own layout and back (beginRead, endRead). A tile's
// pass loads it (LOAD_OP_LOAD) so that drawing one tile keeps the others, and the first pass clears
// it.
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

// canvasLayout is the layout the canvas rests in between passes and copies (GENERAL would do for
// every use, but the validation layer warns of it on copies: UNASSIGNED-CoreValidation-DrawState-
// InvalidImageLayout).
const canvasLayout = vk.ImageLayoutTransferDstOptimal

// tileWrites are the stages and accesses that place tiles: drawn (colour output) or copied.
const (
	tileWriteStages = vk.PipelineStageColorAttachmentOutputBit | vk.PipelineStageTransferBit
	tileWriteAccess = vk.AccessColorAttachmentWriteBit | vk.AccessTransferWriteBit
	// canvasReadStages are the canvas's readers: a read-back's copy, a window's scale pass.
	canvasReadStages = vk.PipelineStageTransferBit | vk.PipelineStageFragmentShaderBit | vk.PipelineStageComputeShaderBit
)

// canvasPass is what the clearing and the loading pass share: the toolkit's target pass (whose
// dependencies the conversions' pipelines are compatible with), resting in canvasLayout. Its
// dependencies order colour writes after the canvas's reads and earlier passes; copies into the
// canvas are ordered by the wall's own barriers (beforeCopy, beforeDraw).
func canvasPass() gpu.PassSpec { return gpu.TargetPass(gpu.TargetFormat, canvasLayout) }

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
	usage := vk.ImageUsageColorAttachmentBit | vk.ImageUsageSampledBit | vk.ImageUsageTransferSrcBit | vk.ImageUsageTransferDstBit
	if c.image, c.memory, c.view, err = d.NewImage2D(gpu.TargetFormat, c.w, c.h, usage); err != nil {
		return err
	}
	s := canvasPass()
	s.Clear = true
	if c.clear, err = d.NewPass(s); err != nil {
		return err
	}
	s = canvasPass()
	s.Load, s.InitialLayout = true, canvasLayout
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
	vkx.CmdBeginRenderArea(cb, c.load, c.fb, r.Min.X, r.Min.Y, r.Dx(), r.Dy())
	gpu.SetViewport(cb, r.Min.X, r.Min.Y, r.Dx(), r.Dy())
}

// beforeDraw records what a tile's pass waits for beyond its own dependencies: tiles copied into the
// canvas earlier (the same tile's previous picture, under the other variant).
func (c *canvas) beforeDraw(cb vk.CommandBuffer) {
	vkx.CmdMemoryBarrier(cb, vk.PipelineStageTransferBit, vk.AccessTransferWriteBit,
		vk.PipelineStageColorAttachmentOutputBit, vk.AccessColorAttachmentReadBit|vk.AccessColorAttachmentWriteBit)
}

// beforeCopy records what a tile's copy into the canvas waits for: the canvas's earlier writes (the
// same tile's previous picture) and reads (a read-back, a window's pass) on the queue.
func (c *canvas) beforeCopy(cb vk.CommandBuffer) {
	vkx.CmdMemoryBarrier(cb, tileWriteStages|canvasReadStages, tileWriteAccess, vk.PipelineStageTransferBit, vk.AccessTransferWriteBit)
}

// beginRead takes the canvas to layout for a reader at dstStage with dstAccess, after every tile
// placed before it on the queue, drawn or copied; endRead gives it back to the tiles.
func (c *canvas) beginRead(cb vk.CommandBuffer, layout vk.ImageLayout, dstStage vk.PipelineStageFlagBits, dstAccess vk.AccessFlagBits) {
	vkx.CmdBarrier(cb, tileWriteStages, dstStage, 0, 0,
		vkx.Transition{Image: c.image, From: canvasLayout, To: layout, SrcAccess: tileWriteAccess, DstAccess: dstAccess})
}

func (c *canvas) endRead(cb vk.CommandBuffer, layout vk.ImageLayout, srcStage vk.PipelineStageFlagBits) {
	vkx.CmdBarrier(cb, srcStage, tileWriteStages, 0, 0,
		vkx.Transition{Image: c.image, From: layout, To: canvasLayout, DstAccess: tileWriteAccess})
}

// recordReadback copies the canvas into the read-back buffer (made on first use).
func (c *canvas) recordReadback(cb vk.CommandBuffer) error {
	if c.readback == nil {
		var err error
		if c.readback, err = c.dev.NewBuffer(c.w*c.h*4, vk.BufferUsageTransferDstBit,
			vk.MemoryPropertyHostVisibleBit|vk.MemoryPropertyHostCoherentBit); err != nil {
			return err
		}
	}
	c.beginRead(cb, vk.ImageLayoutTransferSrcOptimal, vk.PipelineStageTransferBit, vk.AccessTransferReadBit)
	vkx.CmdCopyImageToBuffer(cb, c.image, vk.ImageLayoutTransferSrcOptimal, c.readback.Handle, c.w, c.h)
	vkx.CmdMemoryBarrier(cb, vk.PipelineStageTransferBit, vk.AccessTransferWriteBit, vk.PipelineStageHostBit, vk.AccessHostReadBit)
	c.endRead(cb, vk.ImageLayoutTransferSrcOptimal, vk.PipelineStageTransferBit)
	return nil
}

// recordCopyOut copies r of the canvas to the origin of dst (in TRANSFER_DST_OPTIMAL), after the
// tiles drawn before it on the queue, and leaves the canvas where the passes expect it: a window's
// display step takes what it shows so.
func (c *canvas) recordCopyOut(cb vk.CommandBuffer, r image.Rectangle, dst vk.Image) {
	c.beginRead(cb, vk.ImageLayoutTransferSrcOptimal, vk.PipelineStageTransferBit, vk.AccessTransferReadBit)
	vkx.CmdCopyImageRegion(cb, c.image, vk.ImageLayoutTransferSrcOptimal, r.Min.X, r.Min.Y, dst, vk.ImageLayoutTransferDstOptimal,
		0, 0, r.Dx(), r.Dy())
	c.endRead(cb, vk.ImageLayoutTransferSrcOptimal, vk.PipelineStageTransferBit)
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
