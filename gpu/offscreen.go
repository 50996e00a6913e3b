package gpu

import (
	"fmt"
	"image"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/internal/vkx"
)

// TargetFormat is the colour format of every render target. Y′CbCr conversion yields non-linear
// R′G′B′, so targets are UNORM: an _SRGB target would encode the gamma a second time.
const TargetFormat = vk.FormatR8g8b8a8Unorm

// Offscreen is a render target in device memory that can be read back: headless runs and tests draw
// into it with the same code that draws into a swapchain image.
type Offscreen struct {
	Width, Height int
	// Sampled targets end their pass in SHADER_READ_ONLY_OPTIMAL, for a later pass to sample them
	// (the compare modes); others end in TRANSFER_SRC_OPTIMAL, ready to be read back.
	Sampled bool
	// Storage targets can also be written by compute shaders (STORAGE usage); LoadPass then draws
	// over what they wrote (NewLoadPass), with Framebuffer.
	Storage bool
	// Copied targets are put together from parts drawn and copied into them (the wall's canvas:
	// TRANSFER_DST usage). They rest in TRANSFER_DST_OPTIMAL (CopiedLayout), where copies write them,
	// so that placing one part changes no layout of the whole image (which would make parts placed
	// from different queues hazards of each other): RenderPass clears into that layout, LoadPass
	// draws over one part (BeginArea) from it and back, and RecordReadback and CopyOut take the
	// image to TRANSFER_SRC_OPTIMAL and back. Their read-back buffer is made on first need
	// (PrepareReadback): such a canvas may be large, and only a screenshot reads it. Copied targets
	// that are also Storage rest in GENERAL instead (Rest), where compute shaders write their parts
	// straight into them (the wall's canvas, its computed tiles: stream.Config.Into); nothing is
	// copied into those (the validation layer warns of copies into GENERAL).
	Copied      bool
	LoadPass    vk.RenderPass
	Image       vk.Image
	Memory      vk.DeviceMemory
	View        vk.ImageView
	RenderPass  vk.RenderPass
	Framebuffer vk.Framebuffer
	readback    *Buffer
	dev         *Device
}

// PassSpec describes the toolkit's render passes: one subpass, one colour attachment.
type PassSpec struct {
	Format vk.Format
	// Clear clears the attachment at load; otherwise its contents are DONT_CARE (the conversion's
	// full-screen triangle writes every pixel, and a clear would be a pass of its own on some GPUs).
	Clear bool
	// Load keeps what the image holds (LOAD_OP_LOAD), in InitialLayout: a pass that draws over what
	// compute shaders wrote into the image before it (the scale pass written into the target).
	Load          bool
	InitialLayout vk.ImageLayout
	FinalLayout   vk.ImageLayout
	// AttachmentRead makes the earlier writes visible to colour attachment reads too: LOAD_OP_LOAD
	// reads the attachment in COLOR_ATTACHMENT_OUTPUT with COLOR_ATTACHMENT_READ (Vulkan spec, "Load
	// Operations"). Load sets it; a cleared pass sets it to stay compatible with a loading one.
	AttachmentRead bool
	// Before: what earlier uses of the image (beyond colour output) must finish before the pass
	// writes it. After: the uses that follow the pass and must see its colour writes.
	BeforeStages vk.PipelineStageFlagBits
	BeforeAccess vk.AccessFlagBits
	AfterStages  vk.PipelineStageFlagBits
	AfterAccess  vk.AccessFlagBits
}

// NewPass makes the render pass s describes.
func (d *Device) NewPass(s PassSpec) (vk.RenderPass, error) {
	load := vk.AttachmentLoadOpDontCare
	switch {
	case s.Load:
		load, s.AttachmentRead = vk.AttachmentLoadOpLoad, true
	case s.Clear:
		load = vk.AttachmentLoadOpClear
	}
	dstAccess := vk.AccessColorAttachmentWriteBit
	if s.AttachmentRead {
		dstAccess |= vk.AccessColorAttachmentReadBit
	}
	initial := vk.ImageLayoutUndefined
	if s.Load {
		initial = s.InitialLayout
	}
	ci := &vk.RenderPassCreateInfo{
		SType:           vk.StructureTypeRenderPassCreateInfo,
		AttachmentCount: 1,
		PAttachments: []vk.AttachmentDescription{{
			Format: s.Format, Samples: vk.SampleCount1Bit,
			LoadOp: load, StoreOp: vk.AttachmentStoreOpStore,
			StencilLoadOp: vk.AttachmentLoadOpDontCare, StencilStoreOp: vk.AttachmentStoreOpDontCare,
			InitialLayout: initial, FinalLayout: s.FinalLayout,
		}},
		SubpassCount: 1,
		PSubpasses: []vk.SubpassDescription{{
			PipelineBindPoint:    vk.PipelineBindPointGraphics,
			ColorAttachmentCount: 1,
			PColorAttachments:    []vk.AttachmentReference{{Attachment: 0, Layout: vk.ImageLayoutColorAttachmentOptimal}},
		}},
		DependencyCount: 2,
		PDependencies: []vk.SubpassDependency{{
			SrcSubpass: vk.SubpassExternal, DstSubpass: 0,
			SrcStageMask:  vk.PipelineStageFlags(vk.PipelineStageColorAttachmentOutputBit | s.BeforeStages),
			DstStageMask:  vk.PipelineStageFlags(vk.PipelineStageColorAttachmentOutputBit),
			SrcAccessMask: vk.AccessFlags(s.BeforeAccess),
			DstAccessMask: vk.AccessFlags(dstAccess),
		}, {
			SrcSubpass: 0, DstSubpass: vk.SubpassExternal,
			SrcStageMask:  vk.PipelineStageFlags(vk.PipelineStageColorAttachmentOutputBit),
			DstStageMask:  vk.PipelineStageFlags(s.AfterStages),
			SrcAccessMask: vk.AccessFlags(vk.AccessColorAttachmentWriteBit),
			DstAccessMask: vk.AccessFlags(s.AfterAccess),
		}},
	}
	var rp vk.RenderPass
	err := vkx.Check(vk.CreateRenderPass(d.Device, ci, nil, &rp), "vkCreateRenderPass")
	ci.Free()
	return rp, err
}

// NewRenderPass makes the pass of offscreen targets and swapchain images: cleared, left in
// finalLayout; the previous frame's copy-out, sampling, colour writes and compute writes of the same
// image finish first, and what follows (a copy-out, or a later pass sampling the image) sees the
// colour writes.
func (d *Device) NewRenderPass(format vk.Format, finalLayout vk.ImageLayout) (vk.RenderPass, error) {
	s := TargetPass(format, finalLayout)
	s.Clear = true
	return d.NewPass(s)
}

// NewLoadPass makes the pass that follows compute shaders' writes into a target image (the scale
// pass written into it, in GENERAL layout): it loads what they wrote instead of clearing, for the
// on-screen display to draw over it, and leaves the image in finalLayout for what follows, as
// NewRenderPass's does. The two differ only in the load operation and the initial layout, so they
// are compatible (Vulkan spec, "Render Pass Compatibility"; their subpass dependencies must be
// identical, VUID-VkRenderPassBeginInfo-renderPass-00904): the same pipelines serve both, and
// framebuffers made with either.
func (d *Device) NewLoadPass(format vk.Format, finalLayout vk.ImageLayout) (vk.RenderPass, error) {
	s := TargetPass(format, finalLayout)
	s.Load, s.InitialLayout = true, vk.ImageLayoutGeneral
	return d.NewPass(s)
}

// TargetPass is what NewRenderPass's and NewLoadPass's passes share: a pass of the caller's that the
// conversions' pipelines draw in (they are made for whichever pass of the format comes first) must
// start from it, since passes with other subpass dependencies are not compatible
// (VUID-vkCmdDraw-renderPass-02684).
func TargetPass(format vk.Format, finalLayout vk.ImageLayout) PassSpec {
	return PassSpec{Format: format, FinalLayout: finalLayout, AttachmentRead: true,
		BeforeStages: vk.PipelineStageTransferBit | vk.PipelineStageFragmentShaderBit | vk.PipelineStageComputeShaderBit,
		BeforeAccess: vk.AccessTransferReadBit | vk.AccessColorAttachmentWriteBit | vk.AccessShaderReadBit | vk.AccessShaderWriteBit,
		AfterStages:  vk.PipelineStageTransferBit | vk.PipelineStageFragmentShaderBit,
		AfterAccess:  vk.AccessTransferReadBit | vk.AccessShaderReadBit}
}

// StorageFormat says whether compute shaders can write images of format with optimal tiling
// (VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT in optimalTilingFeatures; VUID-VkImageCreateInfo-usage-00002
// asks it of STORAGE usage): R8G8B8A8_UNORM has it on every device (Vulkan spec, "Required Format
// Support"), B8G8R8A8_UNORM, a common swapchain format, often does not.
func (d *Device) StorageFormat(format vk.Format) bool {
	return vkx.FormatProperties(d.Physical, uint32(format)).Optimal&vk.FormatFeatureFlags(vk.FormatFeatureStorageImageBit) != 0
}

// NewOffscreen creates a width×height TargetFormat image, its render pass and framebuffer, and a
// host-visible buffer to read it back.
func (d *Device) NewOffscreen(width, height int) (*Offscreen, error) {
	return d.newOffscreen(&Offscreen{Width: width, Height: height})
}

// NewSampledOffscreen is NewOffscreen for a target a later pass samples (no readback).
func (d *Device) NewSampledOffscreen(width, height int) (*Offscreen, error) {
	return d.newOffscreen(&Offscreen{Width: width, Height: height, Sampled: true})
}

// NewStorageOffscreen is NewOffscreen for a target compute shaders write (it can still be read back).
func (d *Device) NewStorageOffscreen(width, height int) (*Offscreen, error) {
	return d.newOffscreen(&Offscreen{Width: width, Height: height, Storage: true})
}

// NewCopiedOffscreen is NewOffscreen for a target put together from parts drawn and copied into it
// (Copied); its read-back buffer is made by PrepareReadback. Its first use is RenderPass (Begin),
// which clears it and leaves it in CopiedLayout, where everything after expects it.
func (d *Device) NewCopiedOffscreen(width, height int) (*Offscreen, error) {
	return d.newOffscreen(&Offscreen{Width: width, Height: height, Copied: true})
}

// NewComputedOffscreen is NewCopiedOffscreen for a target whose parts are drawn or written by
// compute shaders (Copied and Storage): it rests in GENERAL (Rest).
func (d *Device) NewComputedOffscreen(width, height int) (*Offscreen, error) {
	return d.newOffscreen(&Offscreen{Width: width, Height: height, Copied: true, Storage: true})
}

func (d *Device) newOffscreen(o *Offscreen) (*Offscreen, error) {
	o.dev = d
	if err := o.init(); err != nil {
		o.Destroy()
		return nil, fmt.Errorf("gpu: offscreen %dx%d: %w", o.Width, o.Height, err)
	}
	return o, nil
}

// CopiedLayout is the layout Copied targets rest in between passes and copies (GENERAL would do
// for every use, but the validation layer warns of it on copies: UNASSIGNED-CoreValidation-DrawState-
// InvalidImageLayout).
const CopiedLayout = vk.ImageLayoutTransferDstOptimal

// Rest is the layout a Copied target rests in between passes, copies and compute writes:
// CopiedLayout, or GENERAL for one that is also Storage, where compute shaders write it.
func (o *Offscreen) Rest() vk.ImageLayout {
	if o.Storage {
		return vk.ImageLayoutGeneral
	}
	return CopiedLayout
}

// What writes a Copied target's parts: passes (colour output), copies and compute shaders.
const (
	copiedWriteStages = vk.PipelineStageColorAttachmentOutputBit | vk.PipelineStageTransferBit | vk.PipelineStageComputeShaderBit
	copiedWriteAccess = vk.AccessColorAttachmentWriteBit | vk.AccessTransferWriteBit | vk.AccessShaderWriteBit
)

func (o *Offscreen) init() error {
	d := o.dev
	if err := d.CheckImageSize(o.Width, o.Height); err != nil {
		return err
	}
	usage := vk.ImageUsageColorAttachmentBit | vk.ImageUsageTransferSrcBit
	final := vk.ImageLayoutTransferSrcOptimal
	if o.Storage {
		usage |= vk.ImageUsageStorageBit
	}
	if o.Sampled {
		usage |= vk.ImageUsageSampledBit
		final = vk.ImageLayoutShaderReadOnlyOptimal
	}
	if o.Copied {
		usage |= vk.ImageUsageTransferDstBit
		final = o.Rest()
	}
	var err error
	if o.Image, o.Memory, o.View, err = d.NewImage2D(TargetFormat, o.Width, o.Height, usage); err != nil {
		return err
	}
	if o.RenderPass, err = d.NewRenderPass(TargetFormat, final); err != nil {
		return err
	}
	if o.Framebuffer, err = d.NewFramebuffer(o.RenderPass, o.Width, o.Height, o.View); err != nil {
		return err
	}
	switch {
	case o.Storage:
		o.LoadPass, err = d.NewLoadPass(TargetFormat, final)
	case o.Copied:
		s := TargetPass(TargetFormat, final)
		s.Load, s.InitialLayout = true, final
		o.LoadPass, err = d.NewPass(s)
	}
	if err != nil || o.Sampled || o.Copied {
		return err
	}
	return o.PrepareReadback()
}

// PrepareReadback makes the read-back buffer if the target has none: Copied targets make it here,
// on first need; the others but sampled ones (never read back) have it from the start.
func (o *Offscreen) PrepareReadback() error {
	if o.readback != nil {
		return nil
	}
	var err error
	o.readback, err = o.dev.NewBuffer(o.Width*o.Height*4, vk.BufferUsageTransferDstBit,
		vk.MemoryPropertyHostVisibleBit|vk.MemoryPropertyHostCoherentBit)
	return err
}

// NewView creates a 2D image view; pNext carries a Y′CbCr conversion info when there is one.
func (d *Device) NewView(img vk.Image, format vk.Format, aspect vk.ImageAspectFlagBits, pNext *vkx.ConversionInfo) (vk.ImageView, error) {
	ci := &vk.ImageViewCreateInfo{
		SType: vk.StructureTypeImageViewCreateInfo, Image: img, ViewType: vk.ImageViewType2d, Format: format,
		Components: vk.ComponentMapping{R: vk.ComponentSwizzleIdentity, G: vk.ComponentSwizzleIdentity,
			B: vk.ComponentSwizzleIdentity, A: vk.ComponentSwizzleIdentity},
		SubresourceRange: vk.ImageSubresourceRange{AspectMask: vk.ImageAspectFlags(aspect), LevelCount: 1, LayerCount: 1},
	}
	if pNext != nil {
		ci.PNext = pNext.Pointer()
	}
	var v vk.ImageView
	err := vkx.Check(vk.CreateImageView(d.Device, ci, nil, &v), "vkCreateImageView")
	ci.Free()
	return v, err
}

// Pass is the render pass drawing into the target and its colour format.
func (o *Offscreen) Pass() (vk.RenderPass, vk.Format) { return o.RenderPass, TargetFormat }

// Begin starts the target's render pass on cb, cleared to black, with a full-size viewport.
func (o *Offscreen) Begin(cb vk.CommandBuffer) {
	BeginPass(cb, o.RenderPass, o.Framebuffer, o.Width, o.Height)
	SetViewport(cb, 0, 0, o.Width, o.Height)
}

// BeginPass begins a render pass over the whole framebuffer, clearing to black.
func BeginPass(cb vk.CommandBuffer, rp vk.RenderPass, fb vk.Framebuffer, w, h int) {
	vkx.CmdBeginRenderPass(cb, rp, fb, w, h, [4]float32{0, 0, 0, 1})
}

// SetViewport sets the viewport and scissor to a rectangle (letterboxing uses a smaller one).
func SetViewport(cb vk.CommandBuffer, x, y, w, h int) {
	vkx.SetViewport(cb, x, y, w, h, x, y, w, h)
}

// End ends the render pass and copies the image into the readback buffer.
func (o *Offscreen) End(cb vk.CommandBuffer) {
	vk.CmdEndRenderPass(cb)
	o.RecordReadback(cb)
}

// RecordReadback copies the image (in TRANSFER_SRC layout, as the render pass leaves it, or, for a
// Copied target, after every part placed before it on the queue) into the readback buffer for RGBA.
func (o *Offscreen) RecordReadback(cb vk.CommandBuffer) {
	o.beginRead(cb)
	vkx.CmdCopyImageToBuffer(cb, o.Image, vk.ImageLayoutTransferSrcOptimal, o.readback.Handle, o.Width, o.Height)
	vkx.CmdMemoryBarrier(cb, vk.PipelineStageTransferBit, vk.AccessTransferWriteBit, vk.PipelineStageHostBit, vk.AccessHostReadBit)
	o.endRead(cb)
}

// CopyOut copies r of a Copied target to the origin of dst (in TRANSFER_DST_OPTIMAL), after every
// part placed before it on the queue, and gives the target back to its parts.
func (o *Offscreen) CopyOut(cb vk.CommandBuffer, r image.Rectangle, dst vk.Image) {
	o.beginRead(cb)
	vkx.CmdCopyImageRegion(cb, o.Image, vk.ImageLayoutTransferSrcOptimal, r.Min.X, r.Min.Y, dst, vk.ImageLayoutTransferDstOptimal,
		0, 0, r.Dx(), r.Dy())
	o.endRead(cb)
}

// BeforeCopyIn records what a copy into a Copied target (a part placed, in CopiedLayout) waits for:
// the target's earlier writes on the queue, drawn or copied. Its readers (RecordReadback, CopyOut)
// give the image back with a barrier of their own.
func (o *Offscreen) BeforeCopyIn(cb vk.CommandBuffer) {
	vkx.CmdMemoryBarrier(cb, copiedWriteStages, copiedWriteAccess, vk.PipelineStageTransferBit, vk.AccessTransferWriteBit)
}

// beginRead takes a Copied target from CopiedLayout to TRANSFER_SRC_OPTIMAL for a copy out of it,
// after every part drawn or copied before it on the queue; endRead gives it back to the parts. Other
// targets are read where their render pass leaves them.
func (o *Offscreen) beginRead(cb vk.CommandBuffer) {
	if o.Copied {
		o.layoutBarrier(cb, o.Rest(), vk.ImageLayoutTransferSrcOptimal, copiedWriteAccess, vk.AccessTransferReadBit,
			copiedWriteStages, vk.PipelineStageTransferBit)
	}
}

func (o *Offscreen) endRead(cb vk.CommandBuffer) {
	if o.Copied {
		o.layoutBarrier(cb, vk.ImageLayoutTransferSrcOptimal, o.Rest(), 0, copiedWriteAccess,
			vk.PipelineStageTransferBit, copiedWriteStages)
	}
}

// BeginArea begins LoadPass over r alone, keeping the rest of the image, with r as viewport and
// scissor: one part of a Copied target drawn. It waits first for the parts copied or computed in
// before it on the queue (the same part's previous picture), which the pass's own dependencies do
// not cover.
func (o *Offscreen) BeginArea(cb vk.CommandBuffer, r image.Rectangle) {
	vkx.CmdMemoryBarrier(cb, vk.PipelineStageTransferBit|vk.PipelineStageComputeShaderBit, vk.AccessTransferWriteBit|vk.AccessShaderWriteBit,
		vk.PipelineStageColorAttachmentOutputBit, vk.AccessColorAttachmentReadBit|vk.AccessColorAttachmentWriteBit)
	vkx.CmdBeginRenderArea(cb, o.LoadPass, o.Framebuffer, r.Min.X, r.Min.Y, r.Dx(), r.Dy())
	SetViewport(cb, r.Min.X, r.Min.Y, r.Dx(), r.Dy())
}

// RGBA returns what the last submitted End copied back, once its submission has completed.
func (o *Offscreen) RGBA() *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, o.Width, o.Height))
	copy(img.Pix, o.readback.Bytes())
	return img
}

// BeginCompute makes the image writable by compute shaders (GENERAL layout), discarding its contents.
func (o *Offscreen) BeginCompute(cb vk.CommandBuffer) {
	o.layoutBarrier(cb, vk.ImageLayoutUndefined, vk.ImageLayoutGeneral, 0, vk.AccessShaderWriteBit,
		vk.PipelineStageTopOfPipeBit, vk.PipelineStageComputeShaderBit)
}

// EndCompute makes the compute shaders' writes ready for RecordReadback (TRANSFER_SRC layout).
func (o *Offscreen) EndCompute(cb vk.CommandBuffer) {
	o.layoutBarrier(cb, vk.ImageLayoutGeneral, vk.ImageLayoutTransferSrcOptimal, vk.AccessShaderWriteBit, vk.AccessTransferReadBit,
		vk.PipelineStageComputeShaderBit, vk.PipelineStageTransferBit)
}

func (o *Offscreen) layoutBarrier(cb vk.CommandBuffer, from, to vk.ImageLayout, src, dst vk.AccessFlagBits, srcStage, dstStage vk.PipelineStageFlagBits) {
	vkx.CmdBarrier(cb, srcStage, dstStage, 0, 0, vkx.Transition{Image: o.Image, From: from, To: to, SrcAccess: src, DstAccess: dst})
}

// Destroy releases everything the target owns.
func (o *Offscreen) Destroy() {
	dev := o.dev.Device
	o.readback.Destroy()
	if o.Framebuffer != vk.NullFramebuffer {
		vk.DestroyFramebuffer(dev, o.Framebuffer, nil)
	}
	for _, rp := range []vk.RenderPass{o.RenderPass, o.LoadPass} {
		if rp != vk.NullRenderPass {
			vk.DestroyRenderPass(dev, rp, nil)
		}
	}
	o.dev.DestroyImage2D(o.Image, o.Memory, o.View)
}

// NewFramebuffer makes a w×h framebuffer of rp over views (the attachments, in order).
func (d *Device) NewFramebuffer(rp vk.RenderPass, w, h int, views ...vk.ImageView) (vk.Framebuffer, error) {
	fci := &vk.FramebufferCreateInfo{SType: vk.StructureTypeFramebufferCreateInfo, RenderPass: rp,
		AttachmentCount: uint32(len(views)), PAttachments: views, Width: uint32(w), Height: uint32(h), Layers: 1}
	var fb vk.Framebuffer
	err := vkx.Check(vk.CreateFramebuffer(d.Device, fci, nil, &fb), "vkCreateFramebuffer")
	fci.Free()
	return fb, err
}

// DrawOver draws over a picture on the GPU: img is copied into a target of its size, draw records
// into that target's pass (LoadPass, over the picture, with the full-size viewport) and the result
// is read back, in one submission it waits for. Screenshots draw their overlays so, through the
// passes that draw them on screen, rather than a CPU copy of those passes.
func (d *Device) DrawOver(img *image.RGBA, draw func(cb vk.CommandBuffer, t *Offscreen) error) (*image.RGBA, error) {
	w, h := img.Rect.Dx(), img.Rect.Dy()
	t, err := d.NewCopiedOffscreen(w, h)
	if err != nil {
		return nil, err
	}
	defer t.Destroy()
	if err := t.PrepareReadback(); err != nil {
		return nil, err
	}
	src, err := d.NewBuffer(4*w*h, vk.BufferUsageTransferSrcBit, vk.MemoryPropertyHostVisibleBit|vk.MemoryPropertyHostCoherentBit)
	if err != nil {
		return nil, fmt.Errorf("gpu: draw over a picture: %w", err)
	}
	defer src.Destroy()
	dst := src.Bytes()
	for y := range h {
		copy(dst[4*w*y:4*w*(y+1)], img.Pix[y*img.Stride:])
	}
	var drawErr error
	err = d.Submit(func(cb vk.CommandBuffer) {
		t.Begin(cb) // a Copied target's first use: cleared into CopiedLayout
		vk.CmdEndRenderPass(cb)
		t.BeforeCopyIn(cb)
		vkx.CmdCopyBufferToImage(cb, src.Handle, t.Image, CopiedLayout, w, h)
		t.BeginArea(cb, image.Rect(0, 0, w, h))
		drawErr = draw(cb, t)
		vk.CmdEndRenderPass(cb)
		t.RecordReadback(cb)
	})
	if err == nil {
		err = drawErr
	}
	if err != nil {
		return nil, fmt.Errorf("gpu: draw over a picture: %w", err)
	}
	out := t.RGBA()
	out.Rect = img.Rect
	return out, nil
}
