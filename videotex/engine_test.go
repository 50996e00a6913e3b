package videotex_test

import (
	"fmt"
	"image"
	"io"
	"math"
	"os"
	"path/filepath"
	"testing"
	"time"
	"unsafe"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/gpu"
	"github.com/ycbcrkit/ycbcrkit/internal/vkx"
	"github.com/ycbcrkit/ycbcrkit/shaders"
	"github.com/ycbcrkit/ycbcrkit/testvectors/media"
	"github.com/ycbcrkit/ycbcrkit/videotex"
)

const mediaDir = "../testvectors/media"

// engineDevice lends a gpu.Device's objects the way an engine lends its own.
func engineDevice(d *gpu.Device) videotex.EngineDevice {
	var exts []string
	for e := range d.Extensions {
		exts = append(exts, e)
	}
	return videotex.EngineDevice{Instance: d.Instance, Physical: d.Physical, Device: d.Device,
		Queue: d.Queue, QueueFamily: d.QueueFamily, Extensions: exts}
}

// defaultClip writes the bundled clip to a file FFmpeg can open.
func defaultClip(t testing.TB) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "default.mkv")
	if err := os.WriteFile(p, media.DefaultClip, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// testEngine is the smallest engine: it draws the texture over a whole offscreen target with a
// full-screen triangle, two frames in flight, its own pipeline layout built from the texture's
// binding. It implements the listing's renderer.
type testEngine struct {
	dev      *gpu.Device
	target   *gpu.Offscreen
	cbs      [2]vk.CommandBuffer
	fences   [2]vk.Fence
	used     [2]bool
	layout   vk.PipelineLayout
	pipe     vk.Pipeline
	readback bool // copy the next recorded frame into the target's readback buffer
	builds   int
	gone     bool
}

func newTestEngine(t testing.TB, dev *gpu.Device, w, h int) *testEngine {
	t.Helper()
	e := &testEngine{dev: dev}
	var err error
	if e.target, err = dev.NewOffscreen(w, h); err != nil {
		t.Fatal(err)
	}
	for i := range e.cbs {
		if e.cbs[i], err = dev.NewCommandBuffer(); err != nil {
			t.Fatal(err)
		}
		if e.fences[i], err = dev.NewFence(false); err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(e.destroy)
	return e
}

func (e *testEngine) destroy() {
	if e.gone {
		return
	}
	e.gone = true
	d := e.dev.Device
	vk.DeviceWaitIdle(d)
	e.dropPipeline()
	for i := range e.cbs {
		e.dev.FreeCommandBuffer(e.cbs[i])
		vk.DestroyFence(d, e.fences[i], nil)
	}
	e.target.Destroy()
}

func (e *testEngine) dropPipeline() {
	if e.pipe != vk.NullPipeline {
		vk.DestroyPipeline(e.dev.Device, e.pipe, nil)
		e.pipe = vk.NullPipeline
	}
	if e.layout != vk.NullPipelineLayout {
		vk.DestroyPipelineLayout(e.dev.Device, e.layout, nil)
		e.layout = vk.NullPipelineLayout
	}
}

func (e *testEngine) WaitSlot(i int) error {
	if !e.used[i] {
		return nil
	}
	e.used[i] = false
	return e.dev.WaitFence(e.fences[i])
}

func (e *testEngine) Fence(i int) vk.Fence {
	e.used[i] = true
	return e.fences[i]
}

// BuildPipelines makes the pipeline layout (the texture's set layout + the uvScale push constant
// of shaders/sampler.frag) and the full-screen pipeline.
func (e *testEngine) BuildPipelines(setLayout vk.DescriptorSetLayout) error {
	d := e.dev.Device
	e.dropPipeline()
	e.builds++
	lci := &vk.PipelineLayoutCreateInfo{SType: vk.StructureTypePipelineLayoutCreateInfo, SetLayoutCount: 1,
		PSetLayouts: []vk.DescriptorSetLayout{setLayout}, PushConstantRangeCount: 1,
		PPushConstantRanges: []vk.PushConstantRange{{StageFlags: vk.ShaderStageFlags(vk.ShaderStageFragmentBit), Size: 8}}}
	var layout vk.PipelineLayout
	err := vkx.Check(vk.CreatePipelineLayout(d, lci, nil, &layout), "vkCreatePipelineLayout")
	lci.Free()
	if err != nil {
		return err
	}
	e.layout = layout
	vs, err := vkx.ShaderModule(d, shaders.FullscreenVert)
	if err != nil {
		return err
	}
	defer vk.DestroyShaderModule(d, vs, nil)
	fs, err := vkx.ShaderModule(d, shaders.SamplerFrag)
	if err != nil {
		return err
	}
	defer vk.DestroyShaderModule(d, fs, nil)
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
		PRasterizationState: &vk.PipelineRasterizationStateCreateInfo{SType: vk.StructureTypePipelineRasterizationStateCreateInfo,
			PolygonMode: vk.PolygonModeFill, CullMode: vk.CullModeFlags(vk.CullModeNone), FrontFace: vk.FrontFaceCounterClockwise, LineWidth: 1},
		PMultisampleState: &vk.PipelineMultisampleStateCreateInfo{SType: vk.StructureTypePipelineMultisampleStateCreateInfo, RasterizationSamples: vk.SampleCount1Bit},
		PColorBlendState: &vk.PipelineColorBlendStateCreateInfo{SType: vk.StructureTypePipelineColorBlendStateCreateInfo, AttachmentCount: 1,
			PAttachments: []vk.PipelineColorBlendAttachmentState{{ColorWriteMask: vk.ColorComponentFlags(
				vk.ColorComponentRBit | vk.ColorComponentGBit | vk.ColorComponentBBit | vk.ColorComponentABit)}}},
		PDynamicState: &vk.PipelineDynamicStateCreateInfo{SType: vk.StructureTypePipelineDynamicStateCreateInfo, DynamicStateCount: 2,
			PDynamicStates: []vk.DynamicState{vk.DynamicStateViewport, vk.DynamicStateScissor}},
		Layout:     layout,
		RenderPass: e.target.RenderPass,
	}}
	pipes := make([]vk.Pipeline, 1)
	var r vk.Result // see ycbcrcube's engine: vulkan-go's create info must survive the call
	vkx.NoGC(func() { r = vk.CreateGraphicsPipelines(d, vk.NullPipelineCache, 1, ci, nil, pipes) })
	err = vkx.Check(r, "vkCreateGraphicsPipelines")
	ci[0].Free()
	e.pipe = pipes[0]
	return err
}

func (e *testEngine) Record(i int, set vk.DescriptorSet, uvScale [2]float32) (vk.CommandBuffer, error) {
	cb := e.cbs[i]
	if err := gpu.Begin(cb); err != nil {
		return nil, err
	}
	e.target.Begin(cb)
	vk.CmdBindPipeline(cb, vk.PipelineBindPointGraphics, e.pipe)
	vk.CmdBindDescriptorSets(cb, vk.PipelineBindPointGraphics, e.layout, 0, 1, []vk.DescriptorSet{set}, 0, nil)
	vk.CmdPushConstants(cb, e.layout, vk.ShaderStageFlags(vk.ShaderStageFragmentBit), 0, 8, unsafe.Pointer(&uvScale[0]))
	vk.CmdDraw(cb, 3, 1, 0, 0)
	if e.readback {
		e.target.End(cb)
	} else {
		vk.CmdEndRenderPass(cb)
	}
	return cb, vkx.Check(vk.EndCommandBuffer(cb), "vkEndCommandBuffer")
}

// Picture is what the last frame recorded with readback drew, once its fence has signalled.
func (e *testEngine) Picture() *image.RGBA { return e.target.RGBA() }

// maxDiff is the largest per-channel difference in 8-bit steps between two same-size pictures.
func maxDiff(a, b image.Image) (float64, error) {
	if a.Bounds() != b.Bounds() {
		return 0, fmt.Errorf("sizes differ: %v vs %v", a.Bounds(), b.Bounds())
	}
	worst := 0.0
	r := a.Bounds()
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			ar, ag, ab, _ := a.At(x, y).RGBA()
			br, bg, bb, _ := b.At(x, y).RGBA()
			for _, d := range []float64{float64(ar>>8) - float64(br>>8), float64(ag>>8) - float64(bg>>8), float64(ab>>8) - float64(bb>>8)} {
				worst = math.Max(worst, math.Abs(d))
			}
		}
	}
	return worst, nil
}

// clock picks frames at media times one video frame apart (1/fps), from 0.
func clock(fps float64) func(tex *videotex.Texture) (*videotex.Frame, error) {
	n := -1
	return func(tex *videotex.Texture) (*videotex.Frame, error) {
		n++
		return tex.Acquire(time.Duration(float64(n) / fps * float64(time.Second)))
	}
}

// step picks every picture in order, waiting for each to be decoded (deterministic, for tests).
func step(tex *videotex.Texture) (*videotex.Frame, error) {
	if err := tex.WaitReady(10 * time.Second); err != nil && err != io.EOF {
		return nil, err
	}
	return tex.Step()
}

// waiter stands in for an engine's submissions that sample frames: each waits on the frame's
// semaphore, with a fence that says when the frame can be given back.
type waiter struct {
	t      testing.TB
	dev    *gpu.Device
	fences map[*videotex.Frame]vk.Fence
}

func newWaiter(t testing.TB, dev *gpu.Device) *waiter {
	w := &waiter{t: t, dev: dev, fences: map[*videotex.Frame]vk.Fence{}}
	t.Cleanup(func() {
		vk.DeviceWaitIdle(dev.Device)
		for _, f := range w.fences {
			vk.DestroyFence(dev.Device, f, nil)
		}
	})
	return w
}

// submit submits a wait on f.Wait.
func (w *waiter) submit(f *videotex.Frame) {
	w.t.Helper()
	fence, err := w.dev.NewFence(false)
	if err != nil {
		w.t.Fatal(err)
	}
	si := []vk.SubmitInfo{{SType: vk.StructureTypeSubmitInfo, WaitSemaphoreCount: 1,
		PWaitSemaphores: []vk.Semaphore{f.Wait}, PWaitDstStageMask: []vk.PipelineStageFlags{f.WaitStage}}}
	if err := vkx.Check(vk.QueueSubmit(w.dev.Queue, 1, si, fence), "vkQueueSubmit"); err != nil {
		w.t.Fatal(err)
	}
	si[0].Free()
	w.fences[f] = fence
}

// finish waits for f's submission and gives f back.
func (w *waiter) finish(f *videotex.Frame) {
	w.t.Helper()
	fence := w.fences[f]
	if err := w.dev.WaitFence(fence); err != nil {
		w.t.Fatal(err)
	}
	vk.DestroyFence(w.dev.Device, fence, nil)
	delete(w.fences, f)
	f.Done()
}

func (w *waiter) consume(f *videotex.Frame) {
	w.submit(f)
	w.finish(f)
}

func (w *waiter) doneAll() {
	for f := range w.fences {
		w.finish(f)
	}
}
