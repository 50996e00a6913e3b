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

// gpuShift is what an image needs for that: the pass, its pipeline and set, the buffer it writes,
// and per-frame scratch.
type gpuShift struct {
	pass    *vkx.Pass
	pipe    vk.Pipeline
	set     vkx.PassSet
	out     *present.Buffer
	buffers [4]uint64 // bindings: three source planes, the output
	// params is its own allocation: cgo checks all the memory an unsafe.Pointer argument points
	// into for Go pointers, and gpuShift has some.
	params *[maxPlanes]shiftParams
}

// shiftParams is shift.comp's push-constant block.
type shiftParams struct {
	Plane, SrcOffset, SrcStride, SrcWidth, SrcHeight uint32
	DstOffset, DstWidth, DstHeight, PerTexel, Shift  uint32
}

var _ [shaders.ShiftParamsSize - unsafe.Sizeof(shiftParams{})]byte // the sizes agree

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
	s := &gpuShift{params: new([maxPlanes]shiftParams)}
	err := s.init(im)
	if err != nil {
		s.destroy(im.dev.Device)
		return unavailable("the GPU shift pass for %s could not be made: %v", im.Format.Name, err)
	}
	im.shift = s
	return nil
}

func (s *gpuShift) init(im *Image) error {
	var err error
	if s.pass, err = vkx.NewPass(im.dev.Device, len(s.buffers), shaders.ShiftParamsSize, 1); err != nil {
		return err
	}
	if s.pipe, err = s.pass.Pipeline(shaders.ShiftComp, nil); err != nil {
		return err
	}
	if s.set.Set, err = s.pass.AllocSet(); err != nil {
		return err
	}
	// Whole words: the pass writes the last odd sample of a plane with its word.
	s.out, err = im.dev.NewBuffer(align(im.staging.Size, 4), vk.BufferUsageStorageBufferBit|vk.BufferUsageTransferSrcBit,
		vk.MemoryPropertyDeviceLocalBit)
	return err
}

// recordShift records the shift of f's planes, imported as bufs with the planes at offs, into the
// shift buffer, and returns the copies from there into the multi-planar image (regions appended).
func (im *Image) recordShift(cb vk.CommandBuffer, f *formats.Frame, bufs *[maxPlanes]uint64, offs *[maxPlanes]uint64,
	copies []vkx.Copy, regions []vkx.BufferImageCopy) ([]vkx.Copy, []vkx.BufferImageCopy, error) {
	pf, s := im.Format, im.shift
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
		s.params[i] = shiftParams{Plane: uint32(i), SrcOffset: uint32(offs[i]),
			SrcStride: uint32(f.Strides[i]), SrcWidth: uint32(w * perTexel), SrcHeight: uint32(h),
			DstOffset: uint32(d.offset / 4), DstWidth: uint32(d.width * perTexel), DstHeight: uint32(d.height),
			PerTexel: uint32(perTexel), Shift: uint32(pf.SamplerShift)}
		s.buffers[i] = bufs[i]
	}
	for i := len(pf.Planes); i < maxPlanes; i++ {
		s.buffers[i] = s.buffers[0] // every binding the shader declares needs a buffer
	}
	s.buffers[maxPlanes] = vkx.BufferHandle(s.out.Handle)
	s.pass.CmdBindSet(cb, s.pipe, &s.set, s.buffers[:])
	for i := range pf.Planes {
		words := (int(s.params[i].DstWidth)*int(s.params[i].DstHeight) + 1) / 2 // two samples a word
		s.pass.CmdDispatch(cb, unsafe.Pointer(&s.params[i]), (words+shaders.ShiftGroup-1)/shaders.ShiftGroup)
	}
	vkx.CmdMemoryBarrier(cb, vk.PipelineStageComputeShaderBit, vk.AccessShaderWriteBit,
		vk.PipelineStageTransferBit, vk.AccessTransferReadBit)
	first := uint32(len(regions))
	regions = append(regions, im.stageRegions[im.multiRegions[0]:im.multiRegions[1]]...)
	copies = append(copies, vkx.Copy{Buffer: vkx.BufferHandle(s.out.Handle), Image: vkx.ImageHandle(im.Multi),
		First: first, Count: uint32(len(regions)) - first})
	return copies, regions, nil
}

func (s *gpuShift) destroy(dev vk.Device) {
	if s == nil || s.pass == nil {
		return
	}
	if s.pipe != vk.NullPipeline {
		s.pass.DestroyPipeline(s.pipe)
	}
	s.pass.Destroy() // and the set
	if s.out != nil {
		s.out.Destroy()
	}
}
