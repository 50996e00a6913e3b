package wall

import (
	"fmt"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/gpu"
	"github.com/ycbcrkit/ycbcrkit/internal/vkx"
)

// The canvas, the image every tile is drawn or copied into, is a gpu.Offscreen of the Copied kind:
// it rests in TRANSFER_DST_OPTIMAL, where copies write it, so that placing a tile changes no layout
// of the whole image (tiles placed from different queues would otherwise be hazards of each other);
// a tile's pass loads it over the tile's rectangle alone (BeginArea) so that drawing one tile keeps
// the others, and its read-back and the display's copy take it to TRANSFER_SRC_OPTIMAL and back.

// newCanvas makes the w×h canvas, cleared by the wall's first submission (Offscreen.Begin).
func newCanvas(dev *gpu.Device, w, h int) (*gpu.Offscreen, error) {
	if err := dev.CheckImageSize(w, h); err != nil {
		return nil, fmt.Errorf("wall: canvas: %w: fewer or smaller videos", err)
	}
	c, err := dev.NewCopiedOffscreen(w, h)
	if err != nil {
		return nil, fmt.Errorf("wall: canvas: %w", err)
	}
	return c, nil
}

// beforeDraw records what a tile's pass waits for beyond its own dependencies: tiles copied into the
// canvas earlier (the same tile's previous picture, under the other variant).
func beforeDraw(cb vk.CommandBuffer) {
	vkx.CmdMemoryBarrier(cb, vk.PipelineStageTransferBit, vk.AccessTransferWriteBit,
		vk.PipelineStageColorAttachmentOutputBit, vk.AccessColorAttachmentReadBit|vk.AccessColorAttachmentWriteBit)
}

// beforeCopy records what a tile's copy into the canvas waits for: the canvas's earlier writes on
// the queue (the same tile's previous picture, drawn or copied). Its readers (read-back, the
// display's copy) hand it back with a barrier of their own (gpu.Offscreen.CopyOut).
func beforeCopy(cb vk.CommandBuffer) {
	vkx.CmdMemoryBarrier(cb, vk.PipelineStageColorAttachmentOutputBit|vk.PipelineStageTransferBit,
		vk.AccessColorAttachmentWriteBit|vk.AccessTransferWriteBit, vk.PipelineStageTransferBit, vk.AccessTransferWriteBit)
}
