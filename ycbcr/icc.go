package ycbcr

import (
	"encoding/binary"
	"fmt"
	"unsafe"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/gpu"
	"github.com/ycbcrkit/ycbcrkit/internal/vkx"
	"github.com/ycbcrkit/ycbcrkit/shaders"
)

// LUT3D is a 3D colour look-up table on the GPU: Size³ RGB entries (red varying fastest, then green,
// then blue), each the output for the input colour (r, g, b)/(Size−1), in a device-local storage
// buffer of float32 vec4s that icc.frag interpolates trilinearly.
type LUT3D struct {
	Size int
	buf  *gpu.Buffer
}

// NewLUT3D uploads rgb (3·size³ values in 0..1, red fastest) into a new LUT, waiting for the copy.
func NewLUT3D(dev *gpu.Device, size int, rgb []float32) (*LUT3D, error) {
	n := size * size * size
	if size < 2 || len(rgb) != 3*n {
		return nil, fmt.Errorf("ycbcr: 3D LUT of %d points a side with %d values", size, len(rgb))
	}
	stage, err := dev.NewBuffer(16*n, vk.BufferUsageTransferSrcBit, vk.MemoryPropertyHostVisibleBit|vk.MemoryPropertyHostCoherentBit)
	if err != nil {
		return nil, fmt.Errorf("ycbcr: 3D LUT: %w", err)
	}
	defer stage.Destroy()
	dst := unsafe.Slice((*float32)(stage.Mapped), 4*n)
	for i := range n {
		copy(dst[4*i:4*i+3], rgb[3*i:3*i+3])
		dst[4*i+3] = 1
	}
	buf, err := dev.NewBuffer(16*n, vk.BufferUsageStorageBufferBit|vk.BufferUsageTransferDstBit, vk.MemoryPropertyDeviceLocalBit)
	if err != nil {
		return nil, fmt.Errorf("ycbcr: 3D LUT: %w", err)
	}
	if err := dev.Submit(func(cb vk.CommandBuffer) {
		vkx.CmdCopyBuffer(cb, stage.Handle, buf.Handle, 0, 0, uint64(16*n))
		// Submit waits for the fence; the frames that read the LUT come in later submissions, whose
		// fragment shaders must see the copy (a fence makes writes available, not visible).
		vkx.CmdMemoryBarrier(cb, vk.PipelineStageTransferBit, vk.AccessTransferWriteBit,
			vk.PipelineStageFragmentShaderBit, vk.AccessShaderReadBit)
	}); err != nil {
		buf.Destroy()
		return nil, fmt.Errorf("ycbcr: 3D LUT upload: %w", err)
	}
	return &LUT3D{Size: size, buf: buf}, nil
}

// Destroy frees the LUT. The GPU must be done with it.
func (l *LUT3D) Destroy() { l.buf.Destroy() }

// ICC draws a picture through a 3D LUT (icc.frag): the display profile's correction, the last pass
// before the picture reaches its target.
type ICC struct {
	Sampler vk.Sampler
	pass    *gpu.Kit
	dev     *gpu.Device
}

// NewICC prepares the pass.
func NewICC(dev *gpu.Device) (*ICC, error) {
	p := &ICC{dev: dev}
	if err := p.init(); err != nil {
		p.Destroy()
		return nil, fmt.Errorf("ycbcr: icc: %w", err)
	}
	return p, nil
}

func (p *ICC) init() error {
	var err error
	if p.Sampler, err = p.dev.NewSampler(vk.FilterNearest); err != nil {
		return err
	}
	b := append(gpu.Textures(1, vk.ShaderStageFragmentBit), vk.DescriptorSetLayoutBinding{Binding: 1,
		DescriptorType: vk.DescriptorTypeStorageBuffer, DescriptorCount: 1, StageFlags: vk.ShaderStageFlags(vk.ShaderStageFragmentBit)})
	p.pass, err = drawPass(p.dev, "icc", b, nil, shaders.ICCFrag, shaders.ICCParamsSize)
	return err
}

// Bind makes the descriptor set for a picture (in SHADER_READ_ONLY_OPTIMAL, the target's size) and
// the LUT it goes through.
func (p *ICC) Bind(picture vk.ImageView, lut *LUT3D) (*Binding, error) {
	set, err := p.pass.Allocate()
	if err != nil {
		return nil, err
	}
	writeImages(p.dev.Device, set.Set, []vk.ImageView{picture}, p.Sampler)
	vkx.WriteBuffer(p.dev.Device, set.Set, 1, lut.buf.Handle)
	push := binary.LittleEndian.AppendUint32(nil, uint32(lut.Size))
	return &Binding{set: set, pass: p.pass, push: push, dev: p.dev}, nil
}

// Destroy frees what NewICC made. The GPU must be done with it.
func (p *ICC) Destroy() {
	p.pass.Destroy()
	if p.Sampler != vk.NullSampler {
		vk.DestroySampler(p.dev.Device, p.Sampler, nil)
	}
}
