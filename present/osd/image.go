package osd

import (
	"fmt"
	"image"
	"unsafe"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/gpu"
	"github.com/ycbcrkit/ycbcrkit/internal/vkx"
	"github.com/ycbcrkit/ycbcrkit/shaders"
)

// ImagePass draws one premultiplied RGBA image (the subtitles' overlay) over what the render pass
// holds, blended, in the target's colour space. The image is read by the fragment shader from a
// host-visible storage buffer per frame slot, one texel per target pixel: nothing to upload with
// transfer commands, which could not be recorded inside the render pass the display draws in. A
// slot's buffer is rewritten only after its fence (the caller's ring waits for it before the slot
// records again), and only when the image changed.
type ImagePass struct {
	dev        *gpu.Device
	setLayout  vk.DescriptorSetLayout
	pipeLayout vk.PipelineLayout
	pool       vk.DescriptorPool
	pipes      map[vk.Format]vk.Pipeline
	slots      []imageSlot
}

type imageSlot struct {
	buf *gpu.Buffer
	set vk.DescriptorSet
	img *image.RGBA // what buf holds
}

// NewImagePass prepares slots frame slots (their buffers are made at the first image).
func NewImagePass(dev *gpu.Device, slots int) (*ImagePass, error) {
	p := &ImagePass{dev: dev, pipes: map[vk.Format]vk.Pipeline{}, slots: make([]imageSlot, slots)}
	if err := p.init(); err != nil {
		p.Destroy()
		return nil, fmt.Errorf("osd: image pass: %w", err)
	}
	return p, nil
}

func (p *ImagePass) init() error {
	d := p.dev.Device
	bindings := []vk.DescriptorSetLayoutBinding{{Binding: 0, DescriptorType: vk.DescriptorTypeStorageBuffer,
		DescriptorCount: 1, StageFlags: vk.ShaderStageFlags(vk.ShaderStageFragmentBit)}}
	li := &vk.DescriptorSetLayoutCreateInfo{SType: vk.StructureTypeDescriptorSetLayoutCreateInfo,
		BindingCount: 1, PBindings: bindings}
	var err error
	var setLayoutH vk.DescriptorSetLayout
	vkx.NoGC(func() {
		err = vkx.Check(vk.CreateDescriptorSetLayout(d, li, nil, &setLayoutH), "vkCreateDescriptorSetLayout")
	})
	p.setLayout = setLayoutH
	li.Free()
	if err != nil {
		return err
	}
	stages := vk.ShaderStageFlags(vk.ShaderStageVertexBit | vk.ShaderStageFragmentBit)
	pi := &vk.PipelineLayoutCreateInfo{SType: vk.StructureTypePipelineLayoutCreateInfo, SetLayoutCount: 1,
		PSetLayouts: []vk.DescriptorSetLayout{p.setLayout}, PushConstantRangeCount: 1,
		PPushConstantRanges: []vk.PushConstantRange{{StageFlags: stages, Size: shaders.SubtitleParamsSize}}}
	var pipeLayoutH vk.PipelineLayout
	vkx.NoGC(func() { err = vkx.Check(vk.CreatePipelineLayout(d, pi, nil, &pipeLayoutH), "vkCreatePipelineLayout") })
	p.pipeLayout = pipeLayoutH
	pi.Free()
	if err != nil {
		return err
	}
	n := uint32(len(p.slots))
	ci := &vk.DescriptorPoolCreateInfo{SType: vk.StructureTypeDescriptorPoolCreateInfo, MaxSets: n, PoolSizeCount: 1,
		PPoolSizes: []vk.DescriptorPoolSize{{Type: vk.DescriptorTypeStorageBuffer, DescriptorCount: n}}}
	var poolH vk.DescriptorPool
	vkx.NoGC(func() { err = vkx.Check(vk.CreateDescriptorPool(d, ci, nil, &poolH), "vkCreateDescriptorPool") })
	p.pool = poolH
	ci.Free()
	if err != nil {
		return err
	}
	for i := range p.slots {
		ai := &vk.DescriptorSetAllocateInfo{SType: vk.StructureTypeDescriptorSetAllocateInfo, DescriptorPool: p.pool,
			DescriptorSetCount: 1, PSetLayouts: []vk.DescriptorSetLayout{p.setLayout}}
		var set vk.DescriptorSet
		vkx.NoGC(func() { err = vkx.Check(vk.AllocateDescriptorSets(d, ai, &set), "vkAllocateDescriptorSets") })
		ai.Free()
		if err != nil {
			return err
		}
		p.slots[i].set = set
	}
	return nil
}

func (p *ImagePass) pipeline(t Target) (vk.Pipeline, error) {
	rp, format := t.Pass()
	if pl, ok := p.pipes[format]; ok {
		return pl, nil
	}
	d := p.dev.Device
	vs, err := vkx.ShaderModule(d, shaders.SubtitleVert)
	if err != nil {
		return vk.NullPipeline, err
	}
	defer vk.DestroyShaderModule(d, vs, nil)
	fs, err := vkx.ShaderModule(d, shaders.SubtitleFrag)
	if err != nil {
		return vk.NullPipeline, err
	}
	defer vk.DestroyShaderModule(d, fs, nil)
	pl, err := vkx.BlendedPipeline(d, p.dev.PipelineCache(), p.pipeLayout, rp, vs, fs)
	if err != nil {
		return vk.NullPipeline, fmt.Errorf("osd: image pipeline: %w", err)
	}
	p.pipes[format] = pl
	return pl, nil
}

// imageParams is the subtitle shaders' push-constant block.
type imageParams struct {
	Rect        [4]float32
	Size        [2]float32
	Stride, HDR int32
}

// Draw records img (premultiplied RGBA, sRGB-encoded; its Rect in target pixels) over the w×h
// target inside its render pass, with slot's buffer. hdr says the target holds HDR10 (PQ, BT.2020):
// the image's white is then drawn at 203 cd/m². Nothing is recorded for a nil or empty image.
func (p *ImagePass) Draw(cb vk.CommandBuffer, slot int, t Target, w, h int, img *image.RGBA, hdr bool) error {
	if img == nil || w <= 0 || h <= 0 {
		return nil
	}
	r := img.Rect.Intersect(image.Rect(0, 0, w, h))
	if r.Empty() {
		return nil
	}
	pl, err := p.pipeline(t)
	if err != nil {
		return err
	}
	s := &p.slots[slot]
	size := 4 * img.Rect.Dx() * img.Rect.Dy()
	if s.buf == nil || s.buf.Size < size {
		// The slot's last frame is done (its fence was waited): its buffer can go now.
		if s.buf != nil {
			s.buf.Destroy()
			s.buf, s.img = nil, nil
		}
		if s.buf, err = p.dev.NewBuffer(size, vk.BufferUsageStorageBufferBit,
			vk.MemoryPropertyHostVisibleBit|vk.MemoryPropertyHostCoherentBit); err != nil {
			return fmt.Errorf("osd: image buffer: %w", err)
		}
		vkx.WriteBuffer(p.dev.Device, s.set, 0, s.buf.Handle)
	}
	if s.img != img {
		dst := s.buf.Bytes()
		rowBytes := 4 * img.Rect.Dx()
		for y := range img.Rect.Dy() {
			copy(dst[y*rowBytes:(y+1)*rowBytes], img.Pix[y*img.Stride:])
		}
		s.img = img
	}
	vkx.SetViewport(cb, 0, 0, w, h, r.Min.X, r.Min.Y, r.Dx(), r.Dy())
	vk.CmdBindPipeline(cb, vk.PipelineBindPointGraphics, pl)
	vk.CmdBindDescriptorSets(cb, vk.PipelineBindPointGraphics, p.pipeLayout, 0, 1, []vk.DescriptorSet{s.set}, 0, nil)
	prm := imageParams{
		Rect: [4]float32{float32(img.Rect.Min.X), float32(img.Rect.Min.Y), float32(img.Rect.Max.X), float32(img.Rect.Max.Y)},
		Size: [2]float32{float32(w), float32(h)}, Stride: int32(img.Rect.Dx()),
	}
	if hdr {
		prm.HDR = 1
	}
	vk.CmdPushConstants(cb, p.pipeLayout, vk.ShaderStageFlags(vk.ShaderStageVertexBit|vk.ShaderStageFragmentBit), 0,
		shaders.SubtitleParamsSize, unsafe.Pointer(&prm))
	vk.CmdDraw(cb, 6, 1, 0, 0)
	return nil
}

// Destroy frees what NewImagePass and Draw made. The GPU must be done with every frame that drew it.
func (p *ImagePass) Destroy() {
	d := p.dev.Device
	for _, pl := range p.pipes {
		vk.DestroyPipeline(d, pl, nil)
	}
	p.pipes = nil
	for i := range p.slots {
		if p.slots[i].buf != nil {
			p.slots[i].buf.Destroy()
			p.slots[i].buf = nil
		}
	}
	if p.pool != vk.NullDescriptorPool {
		vk.DestroyDescriptorPool(d, p.pool, nil)
	}
	if p.pipeLayout != vk.NullPipelineLayout {
		vk.DestroyPipelineLayout(d, p.pipeLayout, nil)
	}
	if p.setLayout != vk.NullDescriptorSetLayout {
		vk.DestroyDescriptorSetLayout(d, p.setLayout, nil)
	}
}

var _ [shaders.SubtitleParamsSize - unsafe.Sizeof(imageParams{})]byte
var _ [unsafe.Sizeof(imageParams{}) - shaders.SubtitleParamsSize]byte
