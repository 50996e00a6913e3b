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
	dev   *gpu.Device
	kit   kit
	slots []imageSlot // the kit's sets' buffers
}

type imageSlot struct {
	buf *gpu.Buffer
	img *image.RGBA // what buf holds
}

// NewImagePass prepares slots frame slots (their buffers are made at the first image).
func NewImagePass(dev *gpu.Device, slots int) (*ImagePass, error) {
	p := &ImagePass{dev: dev, slots: make([]imageSlot, slots)}
	if err := p.init(); err != nil {
		p.Destroy()
		return nil, fmt.Errorf("osd: image pass: %w", err)
	}
	return p, nil
}

func (p *ImagePass) init() error {
	bindings := []vk.DescriptorSetLayoutBinding{{Binding: 0, DescriptorType: vk.DescriptorTypeStorageBuffer,
		DescriptorCount: 1, StageFlags: vk.ShaderStageFlags(vk.ShaderStageFragmentBit)}}
	push := vk.PushConstantRange{StageFlags: vk.ShaderStageFlags(vk.ShaderStageVertexBit | vk.ShaderStageFragmentBit),
		Size: shaders.SubtitleParamsSize}
	return p.kit.init(p.dev, "subtitle overlay", bindings, push, len(p.slots), shaders.SubtitleVert, shaders.SubtitleFrag)
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
	s := &p.slots[slot]
	var err error
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
		vkx.WriteBuffer(p.dev.Device, p.kit.sets[slot], 0, s.buf.Handle)
	}
	if s.img != img {
		dst := s.buf.Bytes()
		rowBytes := 4 * img.Rect.Dx()
		for y := range img.Rect.Dy() {
			copy(dst[y*rowBytes:(y+1)*rowBytes], img.Pix[y*img.Stride:])
		}
		s.img = img
	}
	if err := p.kit.bind(cb, t, slot); err != nil {
		return err
	}
	vkx.SetViewport(cb, 0, 0, w, h, r.Min.X, r.Min.Y, r.Dx(), r.Dy())
	prm := imageParams{
		Rect: [4]float32{float32(img.Rect.Min.X), float32(img.Rect.Min.Y), float32(img.Rect.Max.X), float32(img.Rect.Max.Y)},
		Size: [2]float32{float32(w), float32(h)}, Stride: int32(img.Rect.Dx()),
	}
	if hdr {
		prm.HDR = 1
	}
	vk.CmdPushConstants(cb, p.kit.pipeLayout, p.kit.push.StageFlags, 0, p.kit.push.Size, unsafe.Pointer(&prm))
	vk.CmdDraw(cb, 6, 1, 0, 0)
	return nil
}

// Destroy frees what NewImagePass and Draw made. The GPU must be done with every frame that drew it.
func (p *ImagePass) Destroy() {
	p.kit.destroy()
	for i := range p.slots {
		if p.slots[i].buf != nil {
			p.slots[i].buf.Destroy()
			p.slots[i].buf = nil
		}
	}
}

var _ [shaders.SubtitleParamsSize - unsafe.Sizeof(imageParams{})]byte
var _ [unsafe.Sizeof(imageParams{}) - shaders.SubtitleParamsSize]byte
