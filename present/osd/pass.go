package osd

import (
	"fmt"
	"unsafe"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/gpu"
	"github.com/ycbcrkit/ycbcrkit/internal/vkx"
	"github.com/ycbcrkit/ycbcrkit/shaders"
)

// MaxQuads is how many quads one frame's display may have; more are not drawn.
const MaxQuads = 8192

// Target is where the display draws: a render pass in progress and its colour format (the pipeline
// is made for the format; see ycbcr.Target).
type Target interface {
	Pass() (vk.RenderPass, vk.Format)
}

// Pass draws a Canvas's quads over what the render pass holds, blended: the font atlas texture, one
// pipeline per target format, and per frame slot a host-visible buffer of quads with its descriptor
// set (a slot's buffer is rewritten only after its fence: the caller's ring waits for it before the
// slot records again).
type Pass struct {
	Font       *Font
	dev        *gpu.Device
	image      vk.Image
	memory     vk.DeviceMemory
	view       vk.ImageView
	sampler    vk.Sampler
	setLayout  vk.DescriptorSetLayout
	pipeLayout vk.PipelineLayout
	pool       vk.DescriptorPool
	pipes      map[vk.Format]vk.Pipeline
	buffers    []*gpu.Buffer
	sets       []vk.DescriptorSet
}

// NewPass rasterizes the font at size pixels, uploads its atlas, and prepares slots frame slots.
func NewPass(dev *gpu.Device, size float64, slots int) (*Pass, error) {
	f, err := NewFont(size)
	if err != nil {
		return nil, err
	}
	p := &Pass{Font: f, dev: dev, pipes: map[vk.Format]vk.Pipeline{}}
	if err := p.init(slots); err != nil {
		p.Destroy()
		return nil, fmt.Errorf("osd: %w", err)
	}
	return p, nil
}

func (p *Pass) init(slots int) error {
	d := p.dev.Device
	m := p.Font.Mask
	w, h := m.Rect.Dx(), m.Rect.Dy()
	var err error
	if p.image, p.memory, p.view, err = p.dev.NewImage2D(vk.FormatR8Unorm, w, h,
		vk.ImageUsageSampledBit|vk.ImageUsageTransferDstBit); err != nil {
		return err
	}
	// The atlas goes up once, through a staging buffer, and ends in SHADER_READ_ONLY_OPTIMAL.
	staging, err := p.dev.NewBuffer(w*h, vk.BufferUsageTransferSrcBit, vk.MemoryPropertyHostVisibleBit|vk.MemoryPropertyHostCoherentBit)
	if err != nil {
		return err
	}
	defer staging.Destroy()
	copy(staging.Bytes(), m.Pix)
	err = p.dev.Submit(func(cb vk.CommandBuffer) {
		vkx.CmdUpload(cb, []uint64{vkx.ImageHandle(p.image)}, 0, vk.ImageLayoutUndefined,
			[]vkx.Copy{{Buffer: vkx.BufferHandle(staging.Handle), Image: vkx.ImageHandle(p.image), First: 0, Count: 1}},
			[]vkx.BufferImageCopy{{AspectMask: uint32(vk.ImageAspectColorBit), LayerCount: 1,
				Width: uint32(w), Height: uint32(h), Depth: 1}})
	})
	if err != nil {
		return err
	}
	// Nearest: glyphs are placed on whole pixels at their rasterized size, texel for pixel.
	si := &vk.SamplerCreateInfo{SType: vk.StructureTypeSamplerCreateInfo,
		MagFilter: vk.FilterNearest, MinFilter: vk.FilterNearest, MipmapMode: vk.SamplerMipmapModeNearest,
		AddressModeU: vk.SamplerAddressModeClampToEdge, AddressModeV: vk.SamplerAddressModeClampToEdge,
		AddressModeW: vk.SamplerAddressModeClampToEdge}
	// Locals, not fields, receive handles: cgo refuses a pointer into a struct holding Go pointers.
	var samplerH vk.Sampler
	vkx.NoGC(func() { err = vkx.Check(vk.CreateSampler(d, si, nil, &samplerH), "vkCreateSampler") })
	p.sampler = samplerH
	si.Free()
	if err != nil {
		return err
	}
	bindings := []vk.DescriptorSetLayoutBinding{
		{Binding: 0, DescriptorType: vk.DescriptorTypeCombinedImageSampler, DescriptorCount: 1,
			StageFlags: vk.ShaderStageFlags(vk.ShaderStageFragmentBit)},
		{Binding: 1, DescriptorType: vk.DescriptorTypeStorageBuffer, DescriptorCount: 1,
			StageFlags: vk.ShaderStageFlags(vk.ShaderStageVertexBit)},
	}
	li := &vk.DescriptorSetLayoutCreateInfo{SType: vk.StructureTypeDescriptorSetLayoutCreateInfo,
		BindingCount: uint32(len(bindings)), PBindings: bindings}
	var setLayoutH vk.DescriptorSetLayout
	vkx.NoGC(func() {
		err = vkx.Check(vk.CreateDescriptorSetLayout(d, li, nil, &setLayoutH), "vkCreateDescriptorSetLayout")
	})
	p.setLayout = setLayoutH
	li.Free()
	if err != nil {
		return err
	}
	pi := &vk.PipelineLayoutCreateInfo{SType: vk.StructureTypePipelineLayoutCreateInfo, SetLayoutCount: 1,
		PSetLayouts: []vk.DescriptorSetLayout{p.setLayout}, PushConstantRangeCount: 1,
		PPushConstantRanges: []vk.PushConstantRange{{StageFlags: vk.ShaderStageFlags(vk.ShaderStageVertexBit), Size: shaders.OSDParamsSize}}}
	var pipeLayoutH vk.PipelineLayout
	vkx.NoGC(func() { err = vkx.Check(vk.CreatePipelineLayout(d, pi, nil, &pipeLayoutH), "vkCreatePipelineLayout") })
	p.pipeLayout = pipeLayoutH
	pi.Free()
	if err != nil {
		return err
	}
	n := uint32(slots)
	ci := &vk.DescriptorPoolCreateInfo{SType: vk.StructureTypeDescriptorPoolCreateInfo, MaxSets: n, PoolSizeCount: 2,
		PPoolSizes: []vk.DescriptorPoolSize{{Type: vk.DescriptorTypeCombinedImageSampler, DescriptorCount: n},
			{Type: vk.DescriptorTypeStorageBuffer, DescriptorCount: n}}}
	var poolH vk.DescriptorPool
	vkx.NoGC(func() { err = vkx.Check(vk.CreateDescriptorPool(d, ci, nil, &poolH), "vkCreateDescriptorPool") })
	p.pool = poolH
	ci.Free()
	if err != nil {
		return err
	}
	for range slots {
		b, err := p.dev.NewBuffer(MaxQuads*shaders.OSDQuadSize, vk.BufferUsageStorageBufferBit,
			vk.MemoryPropertyHostVisibleBit|vk.MemoryPropertyHostCoherentBit)
		if err != nil {
			return err
		}
		p.buffers = append(p.buffers, b)
		ai := &vk.DescriptorSetAllocateInfo{SType: vk.StructureTypeDescriptorSetAllocateInfo, DescriptorPool: p.pool,
			DescriptorSetCount: 1, PSetLayouts: []vk.DescriptorSetLayout{p.setLayout}}
		var set vk.DescriptorSet
		vkx.NoGC(func() { err = vkx.Check(vk.AllocateDescriptorSets(d, ai, &set), "vkAllocateDescriptorSets") })
		ai.Free()
		if err != nil {
			return err
		}
		vkx.WriteImages(d, set, []vk.ImageView{p.view}, p.sampler, vk.ImageLayoutShaderReadOnlyOptimal)
		vkx.WriteBuffer(d, set, 1, b.Handle)
		p.sets = append(p.sets, set)
	}
	return nil
}

// pipeline is the pass's pipeline for t's format (one-attachment passes of one format are
// compatible, so the format stands for the pass).
func (p *Pass) pipeline(t Target) (vk.Pipeline, error) {
	rp, format := t.Pass()
	if pl, ok := p.pipes[format]; ok {
		return pl, nil
	}
	d := p.dev.Device
	vs, err := vkx.ShaderModule(d, shaders.OSDVert)
	if err != nil {
		return vk.NullPipeline, err
	}
	defer vk.DestroyShaderModule(d, vs, nil)
	fs, err := vkx.ShaderModule(d, shaders.OSDFrag)
	if err != nil {
		return vk.NullPipeline, err
	}
	defer vk.DestroyShaderModule(d, fs, nil)
	pl, err := vkx.BlendedPipeline(d, p.dev.PipelineCache(), p.pipeLayout, rp, vs, fs)
	if err != nil {
		return vk.NullPipeline, fmt.Errorf("osd: pipeline: %w", err)
	}
	p.pipes[format] = pl
	return pl, nil
}

// Draw records the quads over the whole w×h target, inside its render pass, with slot's buffer.
// Nothing is recorded for no quads.
func (p *Pass) Draw(cb vk.CommandBuffer, slot int, t Target, w, h int, quads []Quad) error {
	if len(quads) == 0 || w <= 0 || h <= 0 {
		return nil
	}
	quads = quads[:min(len(quads), MaxQuads)]
	pl, err := p.pipeline(t)
	if err != nil {
		return err
	}
	dst := unsafe.Slice((*Quad)(p.buffers[slot].Mapped), MaxQuads)
	copy(dst, quads)
	vkx.SetViewport(cb, 0, 0, w, h, 0, 0, w, h)
	vk.CmdBindPipeline(cb, vk.PipelineBindPointGraphics, pl)
	vk.CmdBindDescriptorSets(cb, vk.PipelineBindPointGraphics, p.pipeLayout, 0, 1, []vk.DescriptorSet{p.sets[slot]}, 0, nil)
	size := [2]float32{float32(w), float32(h)}
	vk.CmdPushConstants(cb, p.pipeLayout, vk.ShaderStageFlags(vk.ShaderStageVertexBit), 0, shaders.OSDParamsSize, unsafe.Pointer(&size[0]))
	vk.CmdDraw(cb, 6, uint32(len(quads)), 0, 0)
	return nil
}

// Destroy frees what NewPass made. The GPU must be done with every frame that drew the pass.
func (p *Pass) Destroy() {
	d := p.dev.Device
	for _, pl := range p.pipes {
		vk.DestroyPipeline(d, pl, nil)
	}
	p.pipes = nil
	for _, b := range p.buffers {
		b.Destroy()
	}
	p.buffers = nil
	if p.pool != vk.NullDescriptorPool {
		vk.DestroyDescriptorPool(d, p.pool, nil) // frees the sets
	}
	if p.pipeLayout != vk.NullPipelineLayout {
		vk.DestroyPipelineLayout(d, p.pipeLayout, nil)
	}
	if p.setLayout != vk.NullDescriptorSetLayout {
		vk.DestroyDescriptorSetLayout(d, p.setLayout, nil)
	}
	if p.sampler != vk.NullSampler {
		vk.DestroySampler(d, p.sampler, nil)
	}
	p.dev.DestroyImage2D(p.image, p.memory, p.view)
}

// The Go struct must match osd.vert's quad byte for byte.
var _ [shaders.OSDQuadSize - unsafe.Sizeof(Quad{})]byte
var _ [unsafe.Sizeof(Quad{}) - shaders.OSDQuadSize]byte
