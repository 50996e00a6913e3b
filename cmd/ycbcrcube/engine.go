package main

import (
	"errors"
	"fmt"
	"image"
	"time"
	"unsafe"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/gpu"
	"github.com/ycbcrkit/ycbcrkit/internal/vkx"
	"github.com/ycbcrkit/ycbcrkit/present"
	"github.com/ycbcrkit/ycbcrkit/present/window"
	"github.com/ycbcrkit/ycbcrkit/videotex"
)

// This file is "the engine": its own render pass with a depth attachment, its targets, its
// pipelines (one per texture, built from the binding videotex gives it plus its own push constants)
// and its frame loop with two frames in flight. videotex only lends it textures.

const inFlight = 2

// frameSlot is what one frame in flight owns.
type frameSlot struct {
	cb       vk.CommandBuffer
	fence    vk.Fence
	used     bool              // the fence will signal: a submission is pending or done
	acquired vk.Semaphore      // swapchain image available
	held     []*videotex.Frame // one per texture, sampled by the slot's submission
}

// texState is one texture and what embeds its immutable sampler, rebuilt per generation. Each
// texture has its own: two videos may need different samplers (formats, matrices, paths).
type texState struct {
	tex        *videotex.Texture
	gen        uint64
	setLayout  vk.DescriptorSetLayout
	pool       vk.DescriptorPool
	sets       [inFlight]vk.DescriptorSet
	pipeLayout vk.PipelineLayout
	pipe       vk.Pipeline
}

type engine struct {
	dev  *gpu.Device
	cfg  config
	texs []*texState // face i shows texs[i%len(texs)]
	win  *window.Window
	swap *present.Swapchain

	colorFormat, depthFormat vk.Format
	finalLayout              vk.ImageLayout
	rp                       vk.RenderPass
	width, height            int
	colorImages              []vk.Image
	colorViews               []vk.ImageView
	fbs                      []vk.Framebuffer
	renderDone               []vk.Semaphore // per swapchain image

	// The headless target and the depth buffer (one: the render pass orders frames' depth use).
	offImage   vk.Image
	offMemory  vk.DeviceMemory
	offView    vk.ImageView
	depthImage vk.Image
	depthMem   vk.DeviceMemory
	depthView  vk.ImageView
	readback   *gpu.Buffer

	slots [inFlight]*frameSlot
}

func (e *engine) check(r vk.Result, call string) error {
	if err := vkx.Check(r, call); err != nil {
		return fmt.Errorf("engine: %w", err)
	}
	return nil
}

// pickDepthFormat takes the first depth format the device can attach (D16 is always there).
func (e *engine) pickDepthFormat() {
	for _, f := range []vk.Format{vk.FormatD32Sfloat, vk.FormatX8D24UnormPack32, vk.FormatD16Unorm} {
		var p vk.FormatProperties
		vk.GetPhysicalDeviceFormatProperties(e.dev.Physical, f, &p)
		p.Deref()
		if vk.FormatFeatureFlagBits(p.OptimalTilingFeatures)&vk.FormatFeatureDepthStencilAttachmentBit != 0 {
			e.depthFormat = f
			return
		}
	}
	e.depthFormat = vk.FormatD16Unorm
}

// newRenderPass: colour (cleared, kept) and depth (cleared, dropped), one subpass.
func (e *engine) newRenderPass() error {
	ci := &vk.RenderPassCreateInfo{
		SType:           vk.StructureTypeRenderPassCreateInfo,
		AttachmentCount: 2,
		PAttachments: []vk.AttachmentDescription{{
			Format: e.colorFormat, Samples: vk.SampleCount1Bit,
			LoadOp: vk.AttachmentLoadOpClear, StoreOp: vk.AttachmentStoreOpStore,
			StencilLoadOp: vk.AttachmentLoadOpDontCare, StencilStoreOp: vk.AttachmentStoreOpDontCare,
			InitialLayout: vk.ImageLayoutUndefined, FinalLayout: e.finalLayout,
		}, {
			Format: e.depthFormat, Samples: vk.SampleCount1Bit,
			LoadOp: vk.AttachmentLoadOpClear, StoreOp: vk.AttachmentStoreOpDontCare,
			StencilLoadOp: vk.AttachmentLoadOpDontCare, StencilStoreOp: vk.AttachmentStoreOpDontCare,
			InitialLayout: vk.ImageLayoutUndefined, FinalLayout: vk.ImageLayoutDepthStencilAttachmentOptimal,
		}},
		SubpassCount: 1,
		PSubpasses: []vk.SubpassDescription{{
			PipelineBindPoint:       vk.PipelineBindPointGraphics,
			ColorAttachmentCount:    1,
			PColorAttachments:       []vk.AttachmentReference{{Attachment: 0, Layout: vk.ImageLayoutColorAttachmentOptimal}},
			PDepthStencilAttachment: &vk.AttachmentReference{Attachment: 1, Layout: vk.ImageLayoutDepthStencilAttachmentOptimal},
		}},
		DependencyCount: 2,
		PDependencies: []vk.SubpassDependency{{
			// The previous frame's depth writes and colour copy-out (screenshots), and the
			// swapchain's acquire (waited on at colour output), come before this frame's writes.
			SrcSubpass: vk.SubpassExternal, DstSubpass: 0,
			SrcStageMask: vk.PipelineStageFlags(vk.PipelineStageColorAttachmentOutputBit | vk.PipelineStageLateFragmentTestsBit |
				vk.PipelineStageTransferBit),
			DstStageMask:  vk.PipelineStageFlags(vk.PipelineStageColorAttachmentOutputBit | vk.PipelineStageEarlyFragmentTestsBit),
			SrcAccessMask: vk.AccessFlags(vk.AccessDepthStencilAttachmentWriteBit | vk.AccessTransferReadBit),
			DstAccessMask: vk.AccessFlags(vk.AccessColorAttachmentWriteBit | vk.AccessDepthStencilAttachmentReadBit |
				vk.AccessDepthStencilAttachmentWriteBit),
		}, {
			// The screenshot's copy-out after the pass reads the colour writes (and the transition
			// to the final layout); presentation waits on the frame's semaphore instead.
			SrcSubpass: 0, DstSubpass: vk.SubpassExternal,
			SrcStageMask:  vk.PipelineStageFlags(vk.PipelineStageColorAttachmentOutputBit),
			DstStageMask:  vk.PipelineStageFlags(vk.PipelineStageTransferBit),
			SrcAccessMask: vk.AccessFlags(vk.AccessColorAttachmentWriteBit),
			DstAccessMask: vk.AccessFlags(vk.AccessTransferReadBit),
		}},
	}
	var rp vk.RenderPass
	err := e.check(vk.CreateRenderPass(e.dev.Device, ci, nil, &rp), "vkCreateRenderPass")
	ci.Free()
	e.rp = rp
	return err
}

// newImage makes a device-local 2D image with its memory and view.
func (e *engine) newImage(format vk.Format, usage vk.ImageUsageFlagBits, aspect vk.ImageAspectFlagBits) (vk.Image, vk.DeviceMemory, vk.ImageView, error) {
	d := e.dev
	ci := &vk.ImageCreateInfo{SType: vk.StructureTypeImageCreateInfo, ImageType: vk.ImageType2d, Format: format,
		Extent:    vk.Extent3D{Width: uint32(e.width), Height: uint32(e.height), Depth: 1},
		MipLevels: 1, ArrayLayers: 1, Samples: vk.SampleCount1Bit, Tiling: vk.ImageTilingOptimal,
		Usage: vk.ImageUsageFlags(usage), SharingMode: vk.SharingModeExclusive, InitialLayout: vk.ImageLayoutUndefined}
	var img vk.Image
	err := e.check(vk.CreateImage(d.Device, ci, nil, &img), "vkCreateImage")
	ci.Free()
	if err != nil {
		return nil, nil, nil, err
	}
	var req vk.MemoryRequirements
	vk.GetImageMemoryRequirements(d.Device, img, &req)
	req.Deref()
	mem, err := d.Allocate(req.Size, req.MemoryTypeBits, vk.MemoryPropertyDeviceLocalBit)
	if err != nil {
		vk.DestroyImage(d.Device, img, nil)
		return nil, nil, nil, fmt.Errorf("engine: %w", err)
	}
	if err := e.check(vk.BindImageMemory(d.Device, img, mem, 0), "vkBindImageMemory"); err != nil {
		vk.DestroyImage(d.Device, img, nil)
		d.Free(mem)
		return nil, nil, nil, err
	}
	view, err := d.NewView(img, format, aspect, nil)
	if err != nil {
		vk.DestroyImage(d.Device, img, nil)
		d.Free(mem)
		return nil, nil, nil, fmt.Errorf("engine: %w", err)
	}
	return img, mem, view, nil
}

// buildTargets makes the depth buffer and a framebuffer per colour view, for the current size.
func (e *engine) buildTargets() error {
	var err error
	if e.depthImage, e.depthMem, e.depthView, err = e.newImage(e.depthFormat, vk.ImageUsageDepthStencilAttachmentBit,
		vk.ImageAspectDepthBit); err != nil {
		return err
	}
	for _, v := range e.colorViews {
		fb, err := e.dev.NewFramebuffer(e.rp, e.width, e.height, v, e.depthView)
		if err != nil {
			return fmt.Errorf("engine: %w", err)
		}
		e.fbs = append(e.fbs, fb)
	}
	if e.readback == nil && e.cfg.screenshot != "" || e.readback != nil && e.readback.Size != e.width*e.height*4 {
		e.readback.Destroy()
		e.readback, err = e.dev.NewBuffer(e.width*e.height*4, vk.BufferUsageTransferDstBit,
			vk.MemoryPropertyHostVisibleBit|vk.MemoryPropertyHostCoherentBit)
		if err != nil {
			return fmt.Errorf("engine: %w", err)
		}
	}
	return nil
}

func (e *engine) destroyTargets() {
	d := e.dev.Device
	for _, fb := range e.fbs {
		vk.DestroyFramebuffer(d, fb, nil)
	}
	e.fbs = nil
	if e.depthView != vk.NullImageView {
		vk.DestroyImageView(d, e.depthView, nil)
		vk.DestroyImage(d, e.depthImage, nil)
		e.dev.Free(e.depthMem)
		e.depthView, e.depthImage, e.depthMem = vk.NullImageView, vk.NullImage, vk.NullDeviceMemory
	}
}

// openOutput makes the window and swapchain, or the offscreen target, with the render pass.
func (e *engine) openOutput() error {
	e.pickDepthFormat()
	e.width, e.height = e.cfg.width, e.cfg.height
	if e.cfg.headless {
		e.colorFormat, e.finalLayout = vk.FormatR8g8b8a8Unorm, vk.ImageLayoutTransferSrcOptimal
		if err := e.newRenderPass(); err != nil {
			return err
		}
		var err error
		if e.offImage, e.offMemory, e.offView, err = e.newImage(e.colorFormat,
			vk.ImageUsageColorAttachmentBit|vk.ImageUsageTransferSrcBit, vk.ImageAspectColorBit); err != nil {
			return err
		}
		e.colorImages, e.colorViews = []vk.Image{e.offImage}, []vk.ImageView{e.offView}
		return e.buildTargets()
	}
	// The swapchain's own one-attachment render pass and framebuffers go unused: the engine draws
	// with depth, through its own pass and framebuffers over the swapchain's views.
	var err error
	if e.win, e.swap, err = present.OpenWindow(e.dev, present.WindowParams{Title: "ycbcrcube", Width: e.width, Height: e.height}); err != nil {
		return err
	}
	e.colorFormat, e.finalLayout = e.swap.Format, vk.ImageLayoutPresentSrc
	if err := e.newRenderPass(); err != nil {
		return err
	}
	return e.adoptSwapchain()
}

// adoptSwapchain takes the swapchain's images and size, after creation or Recreate.
func (e *engine) adoptSwapchain() error {
	e.destroyTargets()
	e.width, e.height = e.swap.Width, e.swap.Height
	e.colorImages, e.colorViews = e.swap.Images, e.swap.Views
	for len(e.renderDone) < len(e.swap.Images) {
		s, err := e.dev.NewSemaphore()
		if err != nil {
			return fmt.Errorf("engine: %w", err)
		}
		e.renderDone = append(e.renderDone, s)
	}
	if e.width == 0 || e.height == 0 {
		return nil // minimised: nothing to draw into until it is back
	}
	return e.buildTargets()
}

func (e *engine) recreate() error {
	w, h := e.win.Size()
	vk.DeviceWaitIdle(e.dev.Device) // the engine's frames in flight draw into the old images
	if err := e.swap.Recreate(w, h); err != nil {
		return err
	}
	return e.adoptSwapchain()
}

func (e *engine) newSlots() error {
	for i := range e.slots {
		s := &frameSlot{}
		e.slots[i] = s
		var err error
		if s.cb, err = e.dev.NewCommandBuffer(); err != nil {
			return fmt.Errorf("engine: %w", err)
		}
		if s.fence, err = e.dev.NewFence(false); err != nil {
			return fmt.Errorf("engine: %w", err)
		}
		if s.acquired, err = e.dev.NewSemaphore(); err != nil {
			return fmt.Errorf("engine: %w", err)
		}
	}
	return nil
}

// rebuild makes what embeds f's immutable sampler for ts: the set layout with videotex's binding, the
// pipeline layout (plus the engine's push constants), the pipeline and the descriptor pool sized
// by combinedImageSamplerDescriptorCount. The GPU is idle (the engine waited).
func (e *engine) rebuild(ts *texState, f *videotex.Frame) error {
	d := e.dev.Device
	ts.destroy(d)
	lci := &vk.DescriptorSetLayoutCreateInfo{SType: vk.StructureTypeDescriptorSetLayoutCreateInfo, BindingCount: 1,
		PBindings: []vk.DescriptorSetLayoutBinding{f.LayoutBinding(0, vk.ShaderStageFlags(vk.ShaderStageFragmentBit))}}
	var sl vk.DescriptorSetLayout
	err := e.check(vk.CreateDescriptorSetLayout(d, lci, nil, &sl), "vkCreateDescriptorSetLayout")
	lci.Free()
	if err != nil {
		return err
	}
	ts.setLayout = sl
	pci := &vk.DescriptorPoolCreateInfo{SType: vk.StructureTypeDescriptorPoolCreateInfo, MaxSets: inFlight,
		PoolSizeCount: 1, PPoolSizes: []vk.DescriptorPoolSize{f.PoolSize(inFlight)}}
	var pool vk.DescriptorPool
	err = e.check(vk.CreateDescriptorPool(d, pci, nil, &pool), "vkCreateDescriptorPool")
	pci.Free()
	if err != nil {
		return err
	}
	ts.pool = pool
	for i := range ts.sets {
		ai := &vk.DescriptorSetAllocateInfo{SType: vk.StructureTypeDescriptorSetAllocateInfo, DescriptorPool: pool,
			DescriptorSetCount: 1, PSetLayouts: []vk.DescriptorSetLayout{sl}}
		var set vk.DescriptorSet
		err := e.check(vk.AllocateDescriptorSets(d, ai, &set), "vkAllocateDescriptorSets")
		ai.Free()
		if err != nil {
			return err
		}
		ts.sets[i] = set
	}
	plci := &vk.PipelineLayoutCreateInfo{SType: vk.StructureTypePipelineLayoutCreateInfo, SetLayoutCount: 1,
		PSetLayouts: []vk.DescriptorSetLayout{sl}, PushConstantRangeCount: 1,
		PPushConstantRanges: []vk.PushConstantRange{{StageFlags: vk.ShaderStageFlags(vk.ShaderStageVertexBit), Size: pushSize}}}
	var pl vk.PipelineLayout
	err = e.check(vk.CreatePipelineLayout(d, plci, nil, &pl), "vkCreatePipelineLayout")
	plci.Free()
	if err != nil {
		return err
	}
	ts.pipeLayout = pl
	vs, err := vkx.ShaderModule(d, cubeVert)
	if err != nil {
		return fmt.Errorf("engine: %w", err)
	}
	defer vk.DestroyShaderModule(d, vs, nil)
	fs, err := vkx.ShaderModule(d, cubeFrag)
	if err != nil {
		return fmt.Errorf("engine: %w", err)
	}
	defer vk.DestroyShaderModule(d, fs, nil)
	depthTest := vk.Bool32(vk.True)
	if !e.cfg.depth {
		depthTest = vk.False
	}
	ci := []vk.GraphicsPipelineCreateInfo{{
		SType:      vk.StructureTypeGraphicsPipelineCreateInfo,
		StageCount: 2,
		PStages: []vk.PipelineShaderStageCreateInfo{
			{SType: vk.StructureTypePipelineShaderStageCreateInfo, Stage: vk.ShaderStageVertexBit, Module: vs, PName: "main\x00"},
			{SType: vk.StructureTypePipelineShaderStageCreateInfo, Stage: vk.ShaderStageFragmentBit, Module: fs, PName: "main\x00"},
		},
		PVertexInputState:   &vk.PipelineVertexInputStateCreateInfo{SType: vk.StructureTypePipelineVertexInputStateCreateInfo},
		PInputAssemblyState: &vk.PipelineInputAssemblyStateCreateInfo{SType: vk.StructureTypePipelineInputAssemblyStateCreateInfo, Topology: vk.PrimitiveTopologyTriangleList},
		PViewportState:      &vk.PipelineViewportStateCreateInfo{SType: vk.StructureTypePipelineViewportStateCreateInfo, ViewportCount: 1, ScissorCount: 1},
		// No culling: hidden faces are removed by the depth test alone (the tests prove it does).
		PRasterizationState: &vk.PipelineRasterizationStateCreateInfo{SType: vk.StructureTypePipelineRasterizationStateCreateInfo,
			PolygonMode: vk.PolygonModeFill, CullMode: vk.CullModeFlags(vk.CullModeNone), FrontFace: vk.FrontFaceCounterClockwise, LineWidth: 1},
		PMultisampleState: &vk.PipelineMultisampleStateCreateInfo{SType: vk.StructureTypePipelineMultisampleStateCreateInfo, RasterizationSamples: vk.SampleCount1Bit},
		PDepthStencilState: &vk.PipelineDepthStencilStateCreateInfo{SType: vk.StructureTypePipelineDepthStencilStateCreateInfo,
			DepthTestEnable: depthTest, DepthWriteEnable: depthTest, DepthCompareOp: vk.CompareOpLess, MaxDepthBounds: 1},
		PColorBlendState: &vk.PipelineColorBlendStateCreateInfo{SType: vk.StructureTypePipelineColorBlendStateCreateInfo, AttachmentCount: 1,
			PAttachments: []vk.PipelineColorBlendAttachmentState{{ColorWriteMask: vk.ColorComponentFlags(
				vk.ColorComponentRBit | vk.ColorComponentGBit | vk.ColorComponentBBit | vk.ColorComponentABit)}}},
		PDynamicState: &vk.PipelineDynamicStateCreateInfo{SType: vk.StructureTypePipelineDynamicStateCreateInfo, DynamicStateCount: 2,
			PDynamicStates: []vk.DynamicState{vk.DynamicStateViewport, vk.DynamicStateScissor}},
		Layout:     pl,
		RenderPass: e.rp,
	}}
	pipes := make([]vk.Pipeline, 1)
	// vulkan-go frees the C copy of the create info in a finalizer that a garbage collection
	// completing during the call can run: no collection while it runs (vkx.NoGC).
	var r vk.Result
	vkx.NoGC(func() { r = vk.CreateGraphicsPipelines(d, vk.NullPipelineCache, 1, ci, nil, pipes) })
	err = e.check(r, "vkCreateGraphicsPipelines")
	ci[0].Free()
	if err != nil {
		return err
	}
	ts.pipe = pipes[0]
	ts.gen = f.Generation
	return nil
}

func (ts *texState) destroy(d vk.Device) {
	if ts.pipe != vk.NullPipeline {
		vk.DestroyPipeline(d, ts.pipe, nil)
	}
	if ts.pipeLayout != vk.NullPipelineLayout {
		vk.DestroyPipelineLayout(d, ts.pipeLayout, nil)
	}
	if ts.pool != vk.NullDescriptorPool {
		vk.DestroyDescriptorPool(d, ts.pool, nil) // frees the sets
	}
	if ts.setLayout != vk.NullDescriptorSetLayout {
		vk.DestroyDescriptorSetLayout(d, ts.setLayout, nil)
	}
	ts.pipe, ts.pipeLayout, ts.pool, ts.setLayout = vk.NullPipeline, vk.NullPipelineLayout, vk.NullDescriptorPool, vk.NullDescriptorSetLayout
}

// waitSlot waits for slot s's last submission and gives back the frames it sampled.
func (e *engine) waitSlot(s *frameSlot) error {
	if s.used {
		if err := e.dev.WaitFence(s.fence); err != nil {
			return fmt.Errorf("engine: %w", err)
		}
		s.used = false
	}
	for _, f := range s.held {
		f.Done()
	}
	s.held = nil
	return nil
}

// result is what the loop reports.
type result struct {
	frames int
	last   *videotex.Frame // the first texture's picture in the last frame drawn (given back; fields only)
	shot   *image.RGBA
}

// loop draws cfg.frames frames (0: until the window closes).
func (e *engine) loop() (result, error) {
	var res result
	start := time.Now()
	for n := 0; e.cfg.frames == 0 || n < e.cfg.frames; {
		if e.win != nil {
			for _, k := range e.win.Poll() {
				if k == window.KeyQuit || k == window.KeyEscape {
					return res, nil
				}
			}
		}
		s := e.slots[n%inFlight]
		if err := e.waitSlot(s); err != nil {
			return res, err
		}
		img := 0
		if e.swap != nil {
			if e.win.Resized() || e.swap.Suboptimal {
				if err := e.recreate(); err != nil {
					return res, err
				}
			}
			var err error
			img, err = e.swap.Acquire(s.acquired)
			if errors.Is(err, present.ErrOutOfDate) {
				time.Sleep(10 * time.Millisecond) // minimised or resizing: try again
				if err := e.recreate(); err != nil {
					return res, err
				}
				continue
			}
			if err != nil {
				return res, err
			}
		}
		frames, err := e.acquire(start)
		if err != nil {
			return res, err
		}
		t := time.Since(start).Seconds()
		if e.cfg.headless {
			t = frames[0].PTS.Seconds()
		}
		last := e.cfg.frames > 0 && n == e.cfg.frames-1
		if err := e.draw(s, frames, img, t, last); err != nil {
			if s.held == nil {
				for _, f := range frames {
					f.Discard()
				}
			}
			return res, err
		}
		res.frames++
		res.last = frames[0]
		n++
	}
	for _, s := range e.slots {
		if err := e.waitSlot(s); err != nil {
			return res, err
		}
	}
	if e.cfg.screenshot != "" && res.frames > 0 {
		res.shot = e.readPixels()
	}
	return res, nil
}

// acquire takes each texture's frame for the next engine frame. Headless runs step through the
// pictures in order (deterministic screenshots); a window follows the wall clock and never waits
// for decoding.
func (e *engine) acquire(start time.Time) ([]*videotex.Frame, error) {
	var frames []*videotex.Frame
	for _, ts := range e.texs {
		var f *videotex.Frame
		var err error
		if e.cfg.headless {
			if err = ts.tex.WaitReady(10 * time.Second); err == nil || errors.Is(err, errEOF) {
				f, err = ts.tex.Step()
			}
		} else {
			f, err = ts.tex.Acquire(time.Since(start))
		}
		if err != nil {
			for _, f := range frames {
				f.Discard() // acquired, never waited on
			}
			return nil, err
		}
		frames = append(frames, f)
	}
	return frames, nil
}

// draw records and submits one frame showing frames (one per texture) into colour image img, and
// presents it.
func (e *engine) draw(s *frameSlot, frames []*videotex.Frame, img int, t float64, last bool) error {
	d := e.dev.Device
	for k, ts := range e.texs {
		if frames[k].Generation != ts.gen {
			vk.DeviceWaitIdle(d) // the engine's frames in flight use the old pipeline and sets
			if err := e.rebuild(ts, frames[k]); err != nil {
				return err
			}
		}
	}
	si := 0
	for i := range e.slots {
		if e.slots[i] == s {
			si = i
		}
	}
	// The pictures' images change from frame to frame: write each into this slot's set each time.
	for k, ts := range e.texs {
		ii := frames[k].ImageInfo()
		vkx.WriteImages(d, ts.sets[si], []vk.ImageView{ii.ImageView}, ii.Sampler, ii.ImageLayout)
	}

	cb := s.cb
	if err := gpu.Begin(cb); err != nil {
		return fmt.Errorf("engine: %w", err)
	}
	vkx.CmdBeginRenderPass(cb, e.rp, e.fbs[img], e.width, e.height, background, 1)
	gpu.SetViewport(cb, 0, 0, e.width, e.height)
	// Face by face, front first and back last (cube.vert's order: with the depth test off the back
	// face is drawn over the front one), each with its texture's pipeline, set and UV scale.
	var bound *texState
	for face := 0; face < cubeVertices/6; face++ {
		k := face % len(e.texs)
		if ts := e.texs[k]; ts != bound {
			bound = ts
			vk.CmdBindPipeline(cb, vk.PipelineBindPointGraphics, ts.pipe)
			vk.CmdBindDescriptorSets(cb, vk.PipelineBindPointGraphics, ts.pipeLayout, 0, 1, []vk.DescriptorSet{ts.sets[si]}, 0, nil)
			push := scene(t, e.cfg.spin, e.width, e.height, frames[k].UVScale)
			vk.CmdPushConstants(cb, ts.pipeLayout, vk.ShaderStageFlags(vk.ShaderStageVertexBit), 0, pushSize, unsafe.Pointer(&push[0]))
		}
		vk.CmdDraw(cb, 6, 1, uint32(6*face), 0)
	}
	vk.CmdEndRenderPass(cb)
	if last && e.readback != nil {
		e.recordReadback(cb, e.colorImages[img])
	}
	if err := e.check(vk.EndCommandBuffer(cb), "vkEndCommandBuffer"); err != nil {
		return err
	}
	// Wait for each texture's upload before the fragment shader samples (each Frame's semaphore
	// exactly once), and (windowed) for the swapchain image before writing colour.
	b := vkx.Batch{CB: cb}
	for _, f := range frames {
		b.Waits = append(b.Waits, vkx.SubmitSemaphore{Semaphore: f.Wait, Stage: f.WaitStage})
	}
	if e.swap != nil {
		b.Waits = append(b.Waits, vkx.SubmitSemaphore{Semaphore: s.acquired, Stage: vk.PipelineStageFlags(vk.PipelineStageColorAttachmentOutputBit)})
		b.Signals = []vkx.SubmitSemaphore{{Semaphore: e.renderDone[img]}}
	}
	if err := vkx.QueueSubmitBatches(e.dev.Queue, []vkx.Batch{b}, s.fence); err != nil {
		return fmt.Errorf("ycbcrcube: %w", err)
	}
	s.used, s.held = true, frames // keep the frames until this submission's fence signals
	if e.swap != nil {
		if err := e.swap.Present(img, e.renderDone[img]); err != nil && !errors.Is(err, present.ErrOutOfDate) {
			return err
		}
	}
	return nil
}

// recordReadback copies the colour image into the readback buffer, bringing it into
// TRANSFER_SRC and (windowed) back into PRESENT_SRC.
func (e *engine) recordReadback(cb vk.CommandBuffer, img vk.Image) {
	if e.finalLayout != vk.ImageLayoutTransferSrcOptimal {
		vkx.CmdBarrier(cb, vk.PipelineStageColorAttachmentOutputBit, vk.PipelineStageTransferBit, 0, 0,
			vkx.Transition{Image: img, From: e.finalLayout, To: vk.ImageLayoutTransferSrcOptimal,
				SrcAccess: vk.AccessColorAttachmentWriteBit, DstAccess: vk.AccessTransferReadBit})
	}
	vkx.CmdCopyImageToBuffer(cb, img, vk.ImageLayoutTransferSrcOptimal, e.readback.Handle, e.width, e.height)
	// The copy's writes to the host (a global barrier covers the buffer), and the image back to its
	// final layout.
	var back []vkx.Transition
	if e.finalLayout != vk.ImageLayoutTransferSrcOptimal {
		back = []vkx.Transition{{Image: img, From: vk.ImageLayoutTransferSrcOptimal, To: e.finalLayout, SrcAccess: vk.AccessTransferReadBit}}
	}
	vkx.CmdBarrier(cb, vk.PipelineStageTransferBit, vk.PipelineStageHostBit|vk.PipelineStageBottomOfPipeBit,
		vk.AccessTransferWriteBit, vk.AccessHostReadBit, back...)
}

// readPixels returns the read-back picture as RGBA (swapping B and R for BGRA swapchains).
func (e *engine) readPixels() *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, e.width, e.height))
	copy(img.Pix, e.readback.Bytes())
	if e.colorFormat == vk.FormatB8g8r8a8Unorm {
		for i := 0; i+3 < len(img.Pix); i += 4 {
			img.Pix[i], img.Pix[i+2] = img.Pix[i+2], img.Pix[i]
		}
	}
	for i := 3; i < len(img.Pix); i += 4 {
		img.Pix[i] = 255 // opaque whatever the target kept in alpha
	}
	return img
}

// close waits for the GPU and frees the engine's objects (the texture and device are closed by
// the caller, the texture first).
func (e *engine) close() {
	d := e.dev.Device
	vk.DeviceWaitIdle(d)
	for _, s := range e.slots {
		if s == nil {
			continue
		}
		for _, f := range s.held {
			f.Done()
		}
		e.dev.FreeCommandBuffer(s.cb)
		vk.DestroyFence(d, s.fence, nil)
		vk.DestroySemaphore(d, s.acquired, nil)
	}
	for _, ts := range e.texs {
		ts.destroy(d)
	}
	e.destroyTargets()
	e.readback.Destroy()
	if e.offView != vk.NullImageView {
		vk.DestroyImageView(d, e.offView, nil)
		vk.DestroyImage(d, e.offImage, nil)
		e.dev.Free(e.offMemory)
	}
	if e.rp != vk.NullRenderPass {
		vk.DestroyRenderPass(d, e.rp, nil)
	}
	for _, s := range e.renderDone {
		vk.DestroySemaphore(d, s, nil)
	}
	if e.swap != nil {
		e.swap.Destroy()
	}
	if e.win != nil {
		e.win.Destroy()
	}
}
