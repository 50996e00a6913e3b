package ycbcr

import (
	"fmt"
	"sync"
	"unsafe"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/gpu"
	"github.com/ycbcrkit/ycbcrkit/internal/vkx"
	"github.com/ycbcrkit/ycbcrkit/shaders"
)

// newPipeline builds the full-screen-triangle pipeline with a fragment shader, for a render pass's
// first subpass. Viewport and scissor are dynamic so one pipeline serves every target size. It is
// made in C (vkx): vulkan-go's vkCreateGraphicsPipelines wrapper may free its arguments mid-call.
func newPipeline(d *gpu.Device, layout vk.PipelineLayout, rp vk.RenderPass, frag []byte, spec []int32) (vk.Pipeline, error) {
	dev := d.Device
	vs, err := vkx.ShaderModule(dev, shaders.FullscreenVert)
	if err != nil {
		return vk.NullPipeline, err
	}
	defer vk.DestroyShaderModule(dev, vs, nil)
	fs, err := vkx.ShaderModule(dev, frag)
	if err != nil {
		return vk.NullPipeline, err
	}
	defer vk.DestroyShaderModule(dev, fs, nil)
	return vkx.FullscreenPipeline(dev, d.PipelineCache(), layout, rp, vs, fs, spec)
}

// Target is where a conversion draws: a render pass in progress and its colour format.
type Target interface {
	Pass() (vk.RenderPass, vk.Format)
}

// pipelineKey identifies a pipeline of one layout and fragment shader. A pipeline works with any
// render pass compatible with the one it was made with, and the toolkit's one-attachment passes are
// compatible exactly when their formats match, so the format stands for the pass (render pass
// handles can be destroyed and reused). spec holds the specialization constants.
type pipelineKey struct {
	format vk.Format
	spec   Spec
}

// pipelines caches the pipelines of a layout and fragment shader by key. get fills in dither.glsl's
// constants (shaders.DitherConstant) for the target's format. Safe for concurrent use (streams on
// several goroutines share one Paths).
type pipelines struct {
	mu     sync.Mutex // guards byKey
	layout vk.PipelineLayout
	frag   []byte
	nspec  int // how many of key.spec the shader declares
	byKey  map[pipelineKey]vk.Pipeline
}

func (p *pipelines) get(dev *gpu.Device, t Target, spec Spec, d Dither) (vk.Pipeline, error) {
	rp, format := t.Pass()
	spec = withDither(spec, d, format)
	k := pipelineKey{format, spec}
	p.mu.Lock()
	defer p.mu.Unlock()
	if pl, ok := p.byKey[k]; ok {
		return pl, nil
	}
	pl, err := newPipeline(dev, p.layout, rp, p.frag, spec[:p.nspec])
	if err != nil {
		return vk.NullPipeline, fmt.Errorf("ycbcr: pipeline: %w", err)
	}
	if p.byKey == nil {
		p.byKey = map[pipelineKey]vk.Pipeline{}
	}
	p.byKey[k] = pl
	return pl, nil
}

func (p *pipelines) destroy(dev vk.Device) {
	for _, pl := range p.byKey {
		vk.DestroyPipeline(dev, pl, nil)
	}
	p.byKey = nil
	if p.layout != vk.NullPipelineLayout {
		vk.DestroyPipelineLayout(dev, p.layout, nil)
	}
}

// setPools hands out descriptor sets of combined image samplers from pools of setsPerPool sets,
// adding a pool when the ones it has are full: one conversion path may serve many streams (a wall
// of videos, each stream's slots and hardware frames holding a set each), which no fixed pool
// size covers. A set goes back to the pool it came from (Binding keeps it). Safe for concurrent use:
// a pool is externally synchronized (Vulkan spec, vkAllocateDescriptorSets, vkFreeDescriptorSets).
type setPools struct {
	mu    sync.Mutex // guards list, used and the pools' sets
	dev   *gpu.Device
	sizes []vk.DescriptorPoolSize // per pool: setsPerPool sets' worth of each type
	list  []vk.DescriptorPool
	// used counts the sets taken from list[i]: a pool is never asked for more than its maxSets,
	// which some drivers (lavapipe) hand out anyway and others (NVIDIA) refuse.
	used []int
}

// newSetPools makes the first pool of sets of descriptorsPerSet combined image samplers, so that a
// device that cannot make one fails at once.
func newSetPools(d *gpu.Device, descriptorsPerSet uint32) (*setPools, error) {
	return newSetPoolsOf(d, []vk.DescriptorPoolSize{{Type: vk.DescriptorTypeCombinedImageSampler, DescriptorCount: descriptorsPerSet}})
}

// newSetPoolsOf makes the first pool of sets holding perSet's descriptors each.
func newSetPoolsOf(d *gpu.Device, perSet []vk.DescriptorPoolSize) (*setPools, error) {
	p := &setPools{dev: d}
	for _, s := range perSet {
		p.sizes = append(p.sizes, vk.DescriptorPoolSize{Type: s.Type, DescriptorCount: setsPerPool * s.DescriptorCount})
	}
	if err := p.grow(); err != nil {
		return nil, err
	}
	return p, nil
}

func (p *setPools) grow() error {
	pool, err := p.dev.NewDescriptorPool(setsPerPool, p.sizes, true)
	if err == nil {
		p.list = append(p.list, pool)
		p.used = append(p.used, 0)
	}
	return err
}

// allocate takes a set of layout from the first pool that has room, or from a new pool when none
// has (VK_ERROR_OUT_OF_POOL_MEMORY, or VK_ERROR_FRAGMENTED_POOL after frees: Vulkan spec,
// vkAllocateDescriptorSets), and returns the pool it came from.
func (p *setPools) allocate(layout vk.DescriptorSetLayout) (vk.DescriptorSet, vk.DescriptorPool, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for i := 0; ; i++ {
		if i == len(p.list) {
			if err := p.grow(); err != nil {
				return nil, vk.NullDescriptorPool, err
			}
		}
		if p.used[i] >= setsPerPool {
			continue
		}
		ai := &vk.DescriptorSetAllocateInfo{SType: vk.StructureTypeDescriptorSetAllocateInfo, DescriptorPool: p.list[i],
			DescriptorSetCount: 1, PSetLayouts: []vk.DescriptorSetLayout{layout}}
		var set vk.DescriptorSet
		res := vk.AllocateDescriptorSets(p.dev.Device, ai, &set)
		ai.Free()
		switch res {
		case vk.Success:
			p.used[i]++
			return set, p.list[i], nil
		case vk.ErrorOutOfPoolMemory, vk.ErrorFragmentedPool:
			continue
		}
		return nil, vk.NullDescriptorPool, vkx.Check(res, "vkAllocateDescriptorSets")
	}
}

// free gives set back to pool, one of p's.
func (p *setPools) free(pool vk.DescriptorPool, set vk.DescriptorSet) {
	p.mu.Lock()
	defer p.mu.Unlock()
	vk.FreeDescriptorSets(p.dev.Device, pool, 1, &set)
	for i, q := range p.list {
		if q == pool {
			p.used[i]--
		}
	}
}

// destroy frees every pool (and so every set). The GPU must be done with them.
func (p *setPools) destroy() {
	if p == nil {
		return
	}
	for _, pool := range p.list {
		vk.DestroyDescriptorPool(p.dev.Device, pool, nil)
	}
	p.list, p.used = nil, nil
}

func writeImages(dev vk.Device, set vk.DescriptorSet, views []vk.ImageView, sampler vk.Sampler) {
	vkx.WriteImages(dev, set, views, sampler, vk.ImageLayoutShaderReadOnlyOptimal)
}

func draw(cb vk.CommandBuffer, pipe vk.Pipeline, layout vk.PipelineLayout, set vk.DescriptorSet, push []byte) {
	vk.CmdBindPipeline(cb, vk.PipelineBindPointGraphics, pipe)
	vk.CmdBindDescriptorSets(cb, vk.PipelineBindPointGraphics, layout, 0, 1, []vk.DescriptorSet{set}, 0, nil)
	if len(push) > 0 {
		vk.CmdPushConstants(cb, layout, vk.ShaderStageFlags(vk.ShaderStageFragmentBit), 0, uint32(len(push)), unsafe.Pointer(&push[0]))
	}
	vk.CmdDraw(cb, 3, 1, 0, 0)
}

// textureBindings are n combined-image-sampler bindings 0..n−1 for the given stage.
func textureBindings(n int, stage vk.ShaderStageFlagBits) []vk.DescriptorSetLayoutBinding {
	b := make([]vk.DescriptorSetLayoutBinding, n)
	for i := range b {
		b[i] = vk.DescriptorSetLayoutBinding{Binding: uint32(i), DescriptorType: vk.DescriptorTypeCombinedImageSampler,
			DescriptorCount: 1, StageFlags: vk.ShaderStageFlags(stage)}
	}
	return b
}
