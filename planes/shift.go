package planes

import (
	"fmt"
	"unsafe"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/internal/vkx"
	"github.com/ycbcrkit/ycbcrkit/present"
	"github.com/ycbcrkit/ycbcrkit/shaders"
)

// The sampler path's X6/X4 formats want 10/12-bit samples in the high bits of each word; LSB-aligned
// layouts (yuv420p10le) have them in the low bits. The copy path shifts while it copies (Stage). The
// import path shifts on the GPU: a compute pass (shaders/shift.comp) reads the decoder's planes from
// the imported buffers and writes the shifted, padded planes into a device-local buffer laid out
// like the staging buffer's shifted copy, which the same buffer-to-image copies as Stage's then
// take into the planes. The CPU copies nothing.

// gpuShift is what an image needs for that: the pass, the buffer it writes, and per-frame scratch.
type gpuShift struct {
	pass   *vkx.Shifter
	out    *present.Buffer
	src    [3]uint64
	params []vkx.ShiftPlane
}

// shiftable says whether f's planes can be read by the shift pass where they lie, and makes the
// pass on first use.
func (im *Image) shiftable(f *formats.Frame) error {
	for i := range im.Format.Planes {
		if addr := uintptr(unsafe.Pointer(&f.Planes[i][0])); addr%2 != 0 || f.Strides[i]%2 != 0 {
			return unavailable("plane %d: address %#x or stride %d is not a whole number of 16-bit samples", i, addr, f.Strides[i])
		}
	}
	if im.shift != nil {
		return nil
	}
	pass, err := vkx.NewShifter(im.dev.Device, shaders.ShiftComp, shaders.ShiftParamsSize, shaders.ShiftGroup)
	if err != nil {
		return unavailable("the GPU shift pass for %s could not be made: %v", im.Format.Name, err)
	}
	// Whole words: the pass writes the last odd sample of a plane with its word.
	out, err := im.dev.NewBuffer(align(im.staging.Size, 4), vk.BufferUsageStorageBufferBit|vk.BufferUsageTransferSrcBit,
		vk.MemoryPropertyDeviceLocalBit)
	if err != nil {
		pass.Destroy(im.dev.Device)
		return unavailable("the GPU shift pass's buffer: %v", err)
	}
	im.shift = &gpuShift{pass: pass, out: out, params: make([]vkx.ShiftPlane, 0, maxPlanes)}
	return nil
}

// recordShift records the shift of f's planes, imported as bufs with the planes at offs, into the
// shift buffer, and returns the copies from there into the multi-planar image (regions appended).
func (im *Image) recordShift(cb vk.CommandBuffer, f *formats.Frame, bufs *[maxPlanes]uint64, offs *[maxPlanes]uint64,
	copies []vkx.Copy, regions []vkx.BufferImageCopy) ([]vkx.Copy, []vkx.BufferImageCopy, error) {
	pf, s := im.Format, im.shift
	s.params = s.params[:0]
	for i, p := range pf.Planes {
		perTexel := p.BytesPerTexel / 2
		w, h := pf.PlaneSize(i, f.Width, f.Height)
		if len(p.Channels) == 4 {
			w = (f.Width + 1) / 2
		}
		d := im.shifted[i]
		if offs[i] > 1<<32-1 || offs[i]%2 != 0 {
			return copies, regions, fmt.Errorf("planes: shift plane %d: offset %d in its buffer", i, offs[i])
		}
		s.params = append(s.params, vkx.ShiftPlane{Plane: uint32(i), SrcOffset: uint32(offs[i]),
			SrcStride: uint32(f.Strides[i]), SrcWidth: uint32(w * perTexel), SrcHeight: uint32(h),
			DstOffset: uint32(d.offset / 4), DstWidth: uint32(d.width * perTexel), DstHeight: uint32(d.height),
			PerTexel: uint32(perTexel), Shift: uint32(pf.SamplerShift)})
		s.src[i] = bufs[i]
	}
	for i := len(pf.Planes); i < len(s.src); i++ {
		s.src[i] = s.src[0] // every binding the shader declares needs a buffer
	}
	s.pass.CmdShift(im.dev.Device, cb, &s.src, vkx.BufferHandle(s.out.Handle), s.params)
	first := uint32(len(regions))
	regions = append(regions, im.stageRegions[im.multiRegions[0]:im.multiRegions[1]]...)
	copies = append(copies, vkx.Copy{Buffer: vkx.BufferHandle(s.out.Handle), Image: vkx.ImageHandle(im.Multi),
		First: first, Count: uint32(len(regions)) - first})
	return copies, regions, nil
}

func (s *gpuShift) destroy(dev vk.Device) {
	if s == nil {
		return
	}
	s.pass.Destroy(dev)
	s.out.Destroy()
}
