package planes

import (
	"fmt"
	"unsafe"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/gpu"
	"github.com/ycbcrkit/ycbcrkit/internal/vkx"
	"github.com/ycbcrkit/ycbcrkit/shaders"
)

// The sampler path's X6/X4 formats want 10/12-bit samples in the high bits of each word; LSB-aligned
// layouts (yuv420p10le) have them in the low bits. The GPU shifts them: a compute pass
// (shaders/shift.comp) reads the planes — from the imported decoder buffers (import path) or from
// the staging buffer the CPU copied them into unchanged (copy path) — and writes the shifted,
// padded planes into a device-local buffer laid out like the staging buffer's shifted copy, which
// the same buffer-to-image copies then take into the planes. Where the pass cannot be made, the
// copy path shifts on the CPU while it copies (Stage), as it did before; import is then refused.

// gpuShift is what an image needs for that: the pass, its pipeline and set, the buffer it writes,
// and per-frame scratch.
type gpuShift struct {
	kit     *gpu.Kit
	pipe    vk.Pipeline
	set     vkx.BufferSet
	out     *gpu.Buffer
	buffers [4]uint64 // bindings: three source planes, the output
	// params is its own allocation: cgo checks all the memory an unsafe.Pointer argument points
	// into for Go pointers, and gpuShift has some.
	params *[maxPlanes]shiftParams
	// stageCopies are the copy path's copies when the pass shifted the staged planes.
	stageCopies []vkx.Copy
}

// shiftSource is where the pass reads plane i: byte offset and row stride in its buffer, and the
// plane's size in texels (the pass repeats the last texel and row into the padding).
type shiftSource struct {
	offset                uint64
	stride, width, height int
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
	return im.ensureShift()
}

// ensureShift makes the shift pass on first use; an error wraps ErrUnavailable with the reason.
func (im *Image) ensureShift() error {
	if im.lsb.pass != nil {
		return nil
	}
	if im.lsb.err != nil {
		return im.lsb.err
	}
	s := &gpuShift{params: new([maxPlanes]shiftParams)}
	if err := s.init(im); err != nil {
		s.destroy(im.dev.Device)
		im.lsb.err = unavailable("the GPU shift pass for %s could not be made: %v", im.Format.Name, err)
		return im.lsb.err
	}
	// The copy path's copies with the shifted planes taken from the pass's buffer: stageCopies
	// starts with the multi-planar image's (buildStageRegions), the textures' follow from staging.
	if im.Multi != vk.NullImage {
		s.stageCopies = append([]vkx.Copy(nil), im.staged.copies...)
		s.stageCopies[0].Buffer = vkx.BufferHandle(s.out.Handle)
	}
	im.lsb.pass = s
	return nil
}

func (s *gpuShift) init(im *Image) error {
	var err error
	if s.kit, err = im.dev.NewKit(gpu.KitDesc{Name: "planes: shift", Bindings: gpu.StorageBuffers(len(s.buffers)), SetsPerPool: 1,
		PushStages: vk.ShaderStageComputeBit, PushBytes: shaders.ShiftParamsSize,
		Shaders: []gpu.Shader{{Kind: gpu.Compute, Code: shaders.ShiftComp}}}); err != nil {
		return err
	}
	if s.pipe, err = s.kit.Pipeline(0, vk.NullRenderPass, 0, nil); err != nil {
		return err
	}
	set, err := s.kit.Allocate()
	if err != nil {
		return err
	}
	s.set.Set = set.Set
	// Whole words: the pass writes the last odd sample of a plane with its word.
	s.out, err = im.dev.NewBuffer(align(im.staged.size, 4), vk.BufferUsageStorageBufferBit|vk.BufferUsageTransferSrcBit,
		vk.MemoryPropertyDeviceLocalBit)
	return err
}

// recordShift records the pass over the planes in bufs as src describes, into the pass's buffer,
// and makes its writes visible to the copies that follow.
func (im *Image) recordShift(cb vk.CommandBuffer, bufs *[maxPlanes]uint64, src *[maxPlanes]shiftSource) error {
	pf, s := im.Format, im.lsb.pass
	for i, p := range pf.Planes {
		perTexel := p.BytesPerTexel / 2
		d := im.staged.shifted[i]
		if src[i].offset > 1<<32-1 || src[i].offset%2 != 0 {
			return fmt.Errorf("planes: shift plane %d: offset %d in its buffer", i, src[i].offset)
		}
		s.params[i] = shiftParams{Plane: uint32(i), SrcOffset: uint32(src[i].offset),
			SrcStride: uint32(src[i].stride), SrcWidth: uint32(src[i].width * perTexel), SrcHeight: uint32(src[i].height),
			DstOffset: uint32(d.offset / 4), DstWidth: uint32(d.width * perTexel), DstHeight: uint32(d.height),
			PerTexel: uint32(perTexel), Shift: uint32(pf.SamplerShift)}
		s.buffers[i] = bufs[i]
	}
	for i := len(pf.Planes); i < maxPlanes; i++ {
		s.buffers[i] = s.buffers[0] // every binding the shader declares needs a buffer
	}
	s.buffers[maxPlanes] = vkx.BufferHandle(s.out.Handle)
	vkx.CmdBindBuffers(im.dev.Device, cb, s.kit.Layout, s.pipe, &s.set, s.buffers[:])
	for i := range pf.Planes {
		words := (int(s.params[i].DstWidth)*int(s.params[i].DstHeight) + 1) / 2 // two samples a word
		vkx.CmdDispatchGroups(cb, s.kit.Layout, unsafe.Pointer(&s.params[i]), shaders.ShiftParamsSize, (words+shaders.ShiftGroup-1)/shaders.ShiftGroup)
	}
	vkx.CmdMemoryBarrier(cb, vk.PipelineStageComputeShaderBit, vk.AccessShaderWriteBit,
		vk.PipelineStageTransferBit, vk.AccessTransferReadBit)
	return nil
}

// recordImportShift shifts f's planes, imported as bufs with the planes at offs, and appends the
// copies from the pass's buffer into the multi-planar image.
func (im *Image) recordImportShift(cb vk.CommandBuffer, f *formats.Frame, bufs *[maxPlanes]uint64, offs *[maxPlanes]uint64,
	copies []vkx.Copy, regions []vkx.BufferImageCopy) ([]vkx.Copy, []vkx.BufferImageCopy, error) {
	pf := im.Format
	var src [maxPlanes]shiftSource
	for i := range pf.Planes {
		w, h := pf.PlaneSize(i, f.Width, f.Height)
		src[i] = shiftSource{offset: offs[i], stride: f.Strides[i], width: w, height: h}
	}
	if err := im.recordShift(cb, bufs, &src); err != nil {
		return copies, regions, err
	}
	first := uint32(len(regions))
	regions = append(regions, im.staged.regions[im.staged.multiRegions[0]:im.staged.multiRegions[1]]...)
	copies = append(copies, vkx.Copy{Buffer: vkx.BufferHandle(im.lsb.pass.out.Handle), Image: vkx.ImageHandle(im.Multi),
		First: first, Count: uint32(len(regions)) - first})
	return copies, regions, nil
}

// recordStageShift shifts the planes Stage copied unchanged into the staging buffer (already
// padded) and records the copy path's copies.
func (im *Image) recordStageShift(cb vk.CommandBuffer) {
	st := vkx.BufferHandle(im.staged.staging.Handle)
	bufs := [maxPlanes]uint64{st, st, st}
	var src [maxPlanes]shiftSource
	for i, l := range im.staged.layout {
		src[i] = shiftSource{offset: uint64(l.offset), stride: l.rowBytes, width: l.width, height: l.height}
	}
	// Staged offsets are 16-byte aligned: recordShift cannot fail here.
	_ = im.recordShift(cb, &bufs, &src)
	vkx.CmdUpload(cb, im.targets, im.readers, vk.ImageLayoutUndefined, im.lsb.pass.stageCopies, im.staged.regions)
}

func (s *gpuShift) destroy(dev vk.Device) {
	if s == nil || s.kit == nil {
		return
	}
	s.kit.Destroy() // and the set and pipeline
	if s.out != nil {
		s.out.Destroy()
	}
}
