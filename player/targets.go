package player

import (
	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/gpu"
	"github.com/ycbcrkit/ycbcrkit/present"
	"github.com/ycbcrkit/ycbcrkit/ycbcr"
)

// Target is a render target the renderer draws a frame into.
type Target interface {
	ycbcr.Target
	// begin starts the render pass on cb and returns the target's size.
	begin(cb vk.CommandBuffer) (w, h int)
	// beginLoad starts the pass that loads what the scale pass wrote into the image from compute
	// (gpu.Device.NewLoadPass) instead of clearing it.
	beginLoad(cb vk.CommandBuffer)
	// storage is the image as compute shaders write it (ycbcr.StorageTarget), or why it cannot be:
	// the scale pass is then drawn.
	storage() (ycbcr.StorageTarget, string)
	size() (w, h int)
	end(cb vk.CommandBuffer)
	// semaphores are what the submission waits on and signals: a swapchain image's acquisition and
	// its rendering's end (null for an offscreen target).
	semaphores() (wait, signal vk.Semaphore)
}

// offscreenTarget draws into a gpu.Offscreen (headless playback).
type offscreenTarget struct{ o *gpu.Offscreen }

func (t offscreenTarget) Pass() (vk.RenderPass, vk.Format) { return t.o.Pass() }
func (t offscreenTarget) begin(cb vk.CommandBuffer) (int, int) {
	gpu.BeginPass(cb, t.o.RenderPass, t.o.Framebuffer, t.o.Width, t.o.Height)
	return t.o.Width, t.o.Height
}
func (t offscreenTarget) beginLoad(cb vk.CommandBuffer) {
	gpu.BeginPass(cb, t.o.LoadPass, t.o.Framebuffer, t.o.Width, t.o.Height)
}
func (t offscreenTarget) end(cb vk.CommandBuffer) { vk.CmdEndRenderPass(cb) }
func (t offscreenTarget) semaphores() (vk.Semaphore, vk.Semaphore) {
	return vk.NullSemaphore, vk.NullSemaphore
}
func (t offscreenTarget) size() (int, int) { return t.o.Width, t.o.Height }
func (t offscreenTarget) storage() (ycbcr.StorageTarget, string) {
	if !t.o.Storage {
		return ycbcr.StorageTarget{}, "the device has no storage images of the target's format"
	}
	return ycbcr.StorageTarget{Image: t.o.Image, View: t.o.View, Format: gpu.TargetFormat, Width: t.o.Width, Height: t.o.Height}, ""
}

// swapchainTarget draws into one acquired swapchain image, after wait (its acquisition), and
// signals signal (rendering done) for the presentation.
type swapchainTarget struct {
	s            *present.Swapchain
	idx          int
	wait, signal vk.Semaphore
}

func (t swapchainTarget) Pass() (vk.RenderPass, vk.Format) { return t.s.Pass() }
func (t swapchainTarget) begin(cb vk.CommandBuffer) (int, int) {
	gpu.BeginPass(cb, t.s.RenderPass, t.s.Framebuffers[t.idx], t.s.Width, t.s.Height)
	return t.s.Width, t.s.Height
}
func (t swapchainTarget) beginLoad(cb vk.CommandBuffer) {
	gpu.BeginPass(cb, t.s.LoadPass, t.s.Framebuffers[t.idx], t.s.Width, t.s.Height)
}
func (t swapchainTarget) end(cb vk.CommandBuffer)                  { vk.CmdEndRenderPass(cb) }
func (t swapchainTarget) semaphores() (vk.Semaphore, vk.Semaphore) { return t.wait, t.signal }
func (t swapchainTarget) size() (int, int)                         { return t.s.Width, t.s.Height }
func (t swapchainTarget) storage() (ycbcr.StorageTarget, string) {
	if !t.s.Storage {
		return ycbcr.StorageTarget{}, t.s.NoStorage
	}
	return ycbcr.StorageTarget{Image: t.s.Images[t.idx], View: t.s.Views[t.idx], Format: t.s.Format,
		Width: t.s.Width, Height: t.s.Height}, ""
}
