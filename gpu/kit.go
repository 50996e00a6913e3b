package gpu

import (
	"fmt"
	"sync"
	"unsafe"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/internal/vkx"
)

// The pass kit: every GPU pass of the toolkit (the conversions' drawn and compute shaders, blit,
// diff, scale, deband, peak, the OSD and subtitle overlay) is made from one description, as
// libplacebo's pl_dispatch and FFmpeg's FFVulkanShader make theirs: one descriptor set layout, one
// pipeline layout with at most one push-constant block, descriptor sets from pools that grow, and
// its pipelines made on first use per shader, target format and specialization.

// ShaderKind says what pipeline a pass's shader makes.
type ShaderKind int

const (
	// Fullscreen: a fragment shader over the full-screen triangle of Shader.Vert, in the first
	// subpass of a one-attachment render pass, viewport and scissor dynamic.
	Fullscreen ShaderKind = iota
	// Blended: Fullscreen's shape with premultiplied-alpha blending (overlays).
	Blended
	// Compute: a compute shader.
	Compute
)

// Shader is one of a pass's shaders.
type Shader struct {
	Kind ShaderKind
	// Code is the fragment or compute shader's SPIR-V; Vert the vertex shader's (graphics kinds).
	Code, Vert []byte
}

// MaxSpec is how many specialization constants (constant_id 0..MaxSpec−1) a pipeline of a pass
// may set.
const MaxSpec = 32

// KitDesc describes a pass. Its zero value is a pass with no bindings, no push constants and no
// shader, which no one needs: a pass names at least its shaders.
type KitDesc struct {
	// Name is the pass's name in errors ("blit", "scale").
	Name string
	// Bindings are the set layout's bindings (immutable samplers included).
	Bindings []vk.DescriptorSetLayoutBinding
	// PushStages and PushBytes: one push-constant block at offset 0 (none when PushBytes is 0: a
	// range of size 0 is invalid, VUID-VkPushConstantRange-size-00296).
	PushStages vk.ShaderStageFlagBits
	PushBytes  uint32
	// Shaders are the pass's shaders, indexed by Pipeline's shader argument.
	Shaders []Shader
	// PerSet is what one set holds, by descriptor type, for sizing the pools; nil: the bindings'
	// counts. A binding of a Y′CbCr conversion's immutable sampler may take several descriptors
	// (VkSamplerYcbcrConversionImageFormatProperties::combinedImageSamplerDescriptorCount).
	PerSet []vk.DescriptorPoolSize
	// SetsPerPool is how many sets a pool holds before another is added (0: 16).
	SetsPerPool uint32
}

// Kit is a pass's layouts, sets and pipelines. Safe for concurrent use: streams on several
// goroutines share the conversion paths (a wall, an engine's textures); a descriptor pool is
// externally synchronized (Vulkan spec, vkAllocateDescriptorSets, vkFreeDescriptorSets).
type Kit struct {
	SetLayout vk.DescriptorSetLayout
	Layout    vk.PipelineLayout
	dev       *Device
	desc      KitDesc
	bind      vk.PipelineBindPoint
	mu        sync.Mutex // guards the pools and pipes
	sizes     []vk.DescriptorPoolSize
	pools     []vk.DescriptorPool
	// used counts the sets taken from pools[i]: a pool is never asked for more than its maxSets,
	// which some drivers (lavapipe) hand out anyway and others (NVIDIA) refuse.
	used  []uint32
	pipes map[pipeKey]vk.Pipeline
}

// Set is a descriptor set of a pass and the pool it came from.
type Set struct {
	Set  vk.DescriptorSet
	pool vk.DescriptorPool
}

// pipeKey identifies a pipeline of a pass. A pipeline works with any render pass compatible with
// the one it was made with, and the toolkit's one-attachment passes are compatible exactly when
// their formats match, so the format stands for the render pass (whose handles can be destroyed
// and reused).
type pipeKey struct {
	shader int
	format vk.Format
	spec   [MaxSpec]int32
	nspec  int
}

// NewKit makes desc's set layout, pipeline layout and first pool, so that a device that cannot
// make them fails at once. Its errors do not name the pass (the caller's wrapping does); those of
// Allocate and Pipeline do.
func (d *Device) NewKit(desc KitDesc) (*Kit, error) {
	p := &Kit{dev: d, desc: desc, pipes: map[pipeKey]vk.Pipeline{}, bind: vk.PipelineBindPointGraphics}
	if len(desc.Shaders) > 0 && desc.Shaders[0].Kind == Compute {
		p.bind = vk.PipelineBindPointCompute
	}
	if p.desc.SetsPerPool == 0 {
		p.desc.SetsPerPool = 16
	}
	if err := p.init(); err != nil {
		p.Destroy()
		return nil, err // the caller names the pass
	}
	return p, nil
}

func (p *Kit) init() error {
	var err error
	if p.SetLayout, err = p.dev.newSetLayout(p.desc.Bindings); err != nil {
		return err
	}
	if p.Layout, err = p.dev.newPipelineLayout(p.SetLayout, p.desc.PushStages, p.desc.PushBytes); err != nil {
		return err
	}
	per := p.desc.PerSet
	if per == nil {
		for _, b := range p.desc.Bindings {
			per = append(per, vk.DescriptorPoolSize{Type: b.DescriptorType, DescriptorCount: b.DescriptorCount})
		}
	}
	for _, s := range per {
		p.sizes = append(p.sizes, vk.DescriptorPoolSize{Type: s.Type, DescriptorCount: p.desc.SetsPerPool * s.DescriptorCount})
	}
	if len(p.sizes) == 0 {
		return nil // no bindings: no sets
	}
	return p.grow()
}

func (p *Kit) grow() error {
	pool, err := p.dev.newDescriptorPool(p.desc.SetsPerPool, p.sizes)
	if err == nil {
		p.pools = append(p.pools, pool)
		p.used = append(p.used, 0)
	}
	return err
}

// Allocate takes a set from the first pool that has room, or from a new pool when none has
// (VK_ERROR_OUT_OF_POOL_MEMORY, or VK_ERROR_FRAGMENTED_POOL after frees: Vulkan spec,
// vkAllocateDescriptorSets). One pass may serve many streams (a wall of videos, each stream's slots
// and hardware frames holding a set each), which no fixed pool size covers.
func (p *Kit) Allocate() (Set, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for i := 0; ; i++ {
		if i == len(p.pools) {
			if err := p.grow(); err != nil {
				return Set{}, fmt.Errorf("%s: %w", p.desc.Name, err)
			}
		}
		if p.used[i] >= p.desc.SetsPerPool {
			continue
		}
		// One create-info struct: vulkan-go's C copy of it and of its slice lives until Free
		// (docs/architecture.md, "Calling Vulkan").
		ai := &vk.DescriptorSetAllocateInfo{SType: vk.StructureTypeDescriptorSetAllocateInfo, DescriptorPool: p.pools[i],
			DescriptorSetCount: 1, PSetLayouts: []vk.DescriptorSetLayout{p.SetLayout}}
		var set vk.DescriptorSet
		res := vk.AllocateDescriptorSets(p.dev.Device, ai, &set)
		ai.Free()
		switch res {
		case vk.Success:
			p.used[i]++
			return Set{Set: set, pool: p.pools[i]}, nil
		case vk.ErrorOutOfPoolMemory, vk.ErrorFragmentedPool:
			continue
		}
		return Set{}, fmt.Errorf("%s: %w", p.desc.Name, vkx.Check(res, "vkAllocateDescriptorSets"))
	}
}

// Free gives s back to its pool. The GPU must be done with it.
func (p *Kit) Free(s Set) {
	if s.Set == vk.NullDescriptorSet {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	vk.FreeDescriptorSets(p.dev.Device, s.pool, 1, &s.Set)
	for i, q := range p.pools {
		if q == s.pool {
			p.used[i]--
		}
	}
}

// Pipeline is the pipeline of the pass's shader for a render pass of format (graphics; rp is any
// pass of that format, used only when the pipeline is made) with spec's specialization constants
// (constant_id 0..len(spec)−1), made on first use.
func (p *Kit) Pipeline(shader int, rp vk.RenderPass, format vk.Format, spec []int32) (vk.Pipeline, error) {
	if shader < 0 || shader >= len(p.desc.Shaders) || len(spec) > MaxSpec {
		return vk.NullPipeline, fmt.Errorf("%s: no shader %d with %d constants", p.desc.Name, shader, len(spec))
	}
	s := p.desc.Shaders[shader]
	k := pipeKey{shader: shader, nspec: len(spec)}
	if s.Kind != Compute {
		k.format = format
	}
	copy(k.spec[:], spec)
	p.mu.Lock()
	defer p.mu.Unlock()
	if pl, ok := p.pipes[k]; ok {
		return pl, nil
	}
	pl, err := p.makePipeline(s, rp, spec)
	if err != nil {
		return vk.NullPipeline, fmt.Errorf("%s: pipeline: %w", p.desc.Name, err)
	}
	p.pipes[k] = pl
	return pl, nil
}

func (p *Kit) makePipeline(s Shader, rp vk.RenderPass, spec []int32) (vk.Pipeline, error) {
	d := p.dev.Device
	m, err := vkx.ShaderModule(d, s.Code)
	if err != nil {
		return vk.NullPipeline, err
	}
	defer vk.DestroyShaderModule(d, m, nil)
	if s.Kind == Compute {
		return vkx.ComputePipeline(d, p.dev.PipelineCache(), p.Layout, m, spec)
	}
	vs, err := vkx.ShaderModule(d, s.Vert)
	if err != nil {
		return vk.NullPipeline, err
	}
	defer vk.DestroyShaderModule(d, vs, nil)
	if s.Kind == Blended {
		return vkx.BlendedPipeline(d, p.dev.PipelineCache(), p.Layout, rp, vs, m)
	}
	return vkx.FullscreenPipeline(d, p.dev.PipelineCache(), p.Layout, rp, vs, m, spec)
}

// Bind records pipe and set's binding on cb, and push (the push-constant block) when there is one.
func (p *Kit) Bind(cb vk.CommandBuffer, pipe vk.Pipeline, set vk.DescriptorSet, push []byte) {
	vk.CmdBindPipeline(cb, p.bind, pipe)
	vk.CmdBindDescriptorSets(cb, p.bind, p.Layout, 0, 1, []vk.DescriptorSet{set}, 0, nil)
	if len(push) > 0 {
		p.Push(cb, push)
	}
}

// Push records push into the pass's push-constant block.
func (p *Kit) Push(cb vk.CommandBuffer, push []byte) {
	vk.CmdPushConstants(cb, p.Layout, vk.ShaderStageFlags(p.desc.PushStages), 0, uint32(len(push)), unsafe.Pointer(&push[0]))
}

// Destroy frees the pass's pipelines, pools (and so every set) and layouts. The GPU must be done
// with them. A nil pass is a no-op.
func (p *Kit) Destroy() {
	if p == nil {
		return
	}
	d := p.dev.Device
	for _, pl := range p.pipes {
		vk.DestroyPipeline(d, pl, nil)
	}
	p.pipes = nil
	for _, pool := range p.pools {
		vk.DestroyDescriptorPool(d, pool, nil)
	}
	p.pools, p.used = nil, nil
	if p.Layout != vk.NullPipelineLayout {
		vk.DestroyPipelineLayout(d, p.Layout, nil)
		p.Layout = vk.NullPipelineLayout
	}
	if p.SetLayout != vk.NullDescriptorSetLayout {
		vk.DestroyDescriptorSetLayout(d, p.SetLayout, nil)
		p.SetLayout = vk.NullDescriptorSetLayout
	}
}

// Textures are n combined-image-sampler bindings 0..n−1 for stage: the shape of most passes' sets.
func Textures(n int, stage vk.ShaderStageFlagBits) []vk.DescriptorSetLayoutBinding {
	b := make([]vk.DescriptorSetLayoutBinding, n)
	for i := range b {
		b[i] = vk.DescriptorSetLayoutBinding{Binding: uint32(i), DescriptorType: vk.DescriptorTypeCombinedImageSampler,
			DescriptorCount: 1, StageFlags: vk.ShaderStageFlags(stage)}
	}
	return b
}

// StorageBuffers are n storage-buffer bindings 0..n−1 for the compute stage: the sets of the passes
// over buffers (their per-frame side is vkx.CmdBindBuffers).
func StorageBuffers(n int) []vk.DescriptorSetLayoutBinding {
	b := make([]vk.DescriptorSetLayoutBinding, n)
	for i := range b {
		b[i] = vk.DescriptorSetLayoutBinding{Binding: uint32(i), DescriptorType: vk.DescriptorTypeStorageBuffer,
			DescriptorCount: 1, StageFlags: vk.ShaderStageFlags(vk.ShaderStageComputeBit)}
	}
	return b
}
