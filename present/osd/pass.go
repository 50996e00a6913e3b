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
	Font    *Font
	dev     *gpu.Device
	image   vk.Image
	memory  vk.DeviceMemory
	view    vk.ImageView
	sampler vk.Sampler
	kit     kit
	buffers []*gpu.Buffer
}

// NewPass rasterizes the font at size pixels, uploads its atlas, and prepares slots frame slots.
func NewPass(dev *gpu.Device, size float64, slots int) (*Pass, error) {
	f, err := NewFont(size)
	if err != nil {
		return nil, err
	}
	p := &Pass{Font: f, dev: dev}
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
	if p.sampler, err = p.dev.NewSampler(vk.FilterNearest); err != nil {
		return err
	}
	bindings := []vk.DescriptorSetLayoutBinding{
		{Binding: 0, DescriptorType: vk.DescriptorTypeCombinedImageSampler, DescriptorCount: 1,
			StageFlags: vk.ShaderStageFlags(vk.ShaderStageFragmentBit)},
		{Binding: 1, DescriptorType: vk.DescriptorTypeStorageBuffer, DescriptorCount: 1,
			StageFlags: vk.ShaderStageFlags(vk.ShaderStageVertexBit)},
	}
	push := vk.PushConstantRange{StageFlags: vk.ShaderStageFlags(vk.ShaderStageVertexBit), Size: shaders.OSDParamsSize}
	if err := p.kit.init(p.dev, "text and boxes", bindings, push, slots, shaders.OSDVert, shaders.OSDFrag); err != nil {
		return err
	}
	for _, set := range p.kit.sets {
		b, err := p.dev.NewBuffer(MaxQuads*shaders.OSDQuadSize, vk.BufferUsageStorageBufferBit,
			vk.MemoryPropertyHostVisibleBit|vk.MemoryPropertyHostCoherentBit)
		if err != nil {
			return err
		}
		p.buffers = append(p.buffers, b)
		vkx.WriteImages(d, set, []vk.ImageView{p.view}, p.sampler, vk.ImageLayoutShaderReadOnlyOptimal)
		vkx.WriteBuffer(d, set, 1, b.Handle)
	}
	return nil
}

// Draw records the quads over the whole w×h target, inside its render pass, with slot's buffer.
// Nothing is recorded for no quads.
func (p *Pass) Draw(cb vk.CommandBuffer, slot int, t Target, w, h int, quads []Quad) error {
	if len(quads) == 0 || w <= 0 || h <= 0 {
		return nil
	}
	quads = quads[:min(len(quads), MaxQuads)]
	if err := p.kit.bind(cb, t, slot); err != nil {
		return err
	}
	dst := unsafe.Slice((*Quad)(p.buffers[slot].Mapped), MaxQuads)
	copy(dst, quads)
	vkx.SetViewport(cb, 0, 0, w, h, 0, 0, w, h)
	size := [2]float32{float32(w), float32(h)}
	vk.CmdPushConstants(cb, p.kit.pipeLayout, p.kit.push.StageFlags, 0, p.kit.push.Size, unsafe.Pointer(&size[0]))
	vk.CmdDraw(cb, 6, uint32(len(quads)), 0, 0)
	return nil
}

// Destroy frees what NewPass made. The GPU must be done with every frame that drew the pass.
func (p *Pass) Destroy() {
	d := p.dev.Device
	p.kit.destroy()
	for _, b := range p.buffers {
		b.Destroy()
	}
	p.buffers = nil
	if p.sampler != vk.NullSampler {
		vk.DestroySampler(d, p.sampler, nil)
	}
	p.dev.DestroyImage2D(p.image, p.memory, p.view)
}

// The Go struct must match osd.vert's quad byte for byte.
var _ [shaders.OSDQuadSize - unsafe.Sizeof(Quad{})]byte
var _ [unsafe.Sizeof(Quad{}) - shaders.OSDQuadSize]byte
