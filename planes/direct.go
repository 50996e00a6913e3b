package planes

import (
	"fmt"
	"unsafe"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/gpu"
	"github.com/ycbcrkit/ycbcrkit/internal/vkx"
)

// The direct route: bind the frame's memory itself, imported with VK_EXT_external_memory_host, as
// the planes of a LINEAR disjoint multi-planar image, so that nothing is copied at all. It needs the
// device to offer such images (vkGetPhysicalDeviceImageFormatProperties2 with
// VkPhysicalDeviceExternalImageFormatInfo HOST_ALLOCATION, LINEAR, DISJOINT), the device's row pitch
// of every plane to equal the decoder's stride, and each plane's memory requirement to fit in the
// memory the frame's plane spans.
//
// What the devices answer: lavapipe (Mesa 25.0) asks for the whole image's size as the memory of
// every plane, which a plane of a decoder's buffer never has. The NVIDIA H200 rounds each plane's
// memory to 64 KiB (a 1080p luma plane wants 2097152 bytes, the decoder's plane spans 2076672):
// frames whose planes lie in buffers that large pass every check (TestDirectReason, TestDirect).
//
// Layouts, kept within the specification: host writes to a LINEAR image are defined in GENERAL
// layout, and an image bound to external memory starts UNDEFINED, whose first transition may discard
// the contents. So the first frame in a given memory is uploaded by import as usual, and in the same
// submission its direct image moves from UNDEFINED to GENERAL, where it stays: the frame was copied,
// and the decoder cannot write the memory again before this submission's fence (the frame is held
// until then). The next frames the decoder writes into that memory are sampled in place, in GENERAL
// layout (SamplerImage). Direct images keep their imports held until DropDirect or Destroy.
//
// Auto does not choose it: on the H200, a draw that samples the frame over PCIe in place took
// 1.7–2.1× the time of importing it (the copy engine's copy into an optimal image) and drawing from
// that (BenchmarkDirectDraw, docs/performance.md). It copies nothing, for memory- or copy-engine-bound
// uses.

// maxDirect bounds the direct images of an Image: one per decoder buffer set it has seen.
const maxDirect = 16

// directImage is a LINEAR disjoint image bound to the imported memory of one set of planes.
type directImage struct {
	img     vk.Image
	entries [maxPlanes]*importEntry
	n       int
	ready   bool // in GENERAL layout: the next frames in this memory are sampled in place
}

// directProbe is what the device says about a LINEAR disjoint image of im's format and size.
type directProbe struct {
	err    error // device-level reason, the same for every frame
	layout [maxPlanes]vkx.SubresourceLayout
	req    [maxPlanes]vkx.MemoryRequirements
}

func (im *Image) probeDirect() *directProbe {
	if im.direct.probe != nil {
		return im.direct.probe
	}
	d := &directProbe{}
	im.direct.probe = d
	pf := im.Format
	switch {
	case !im.dev.Extensions[gpu.ExtExternalMemoryHost]:
		d.err = unavailable("device has no %s", gpu.ExtExternalMemoryHost)
	case im.Multi == vk.NullImage:
		d.err = unavailable("direct binds host memory as the planes of the sampler path's multi-planar image, and this image has none")
	case len(im.Textures) > 0:
		d.err = unavailable("the image also holds the shader path's textures, which direct cannot fill")
	case im.staged.shifted != nil:
		d.err = unavailable("%s is LSB-aligned: the sampler path's %s needs every sample shifted left by %d",
			pf.Name, pf.VkFormat, pf.SamplerShift)
	case len(pf.Planes) < 2:
		d.err = unavailable("%s is not multi-planar: there are no disjoint planes to bind", pf.VkFormat)
	}
	if d.err != nil {
		return d
	}
	need := vk.FormatFeatureFlags(vk.FormatFeatureSampledImageBit | vk.FormatFeatureDisjointBit)
	if feats := vkx.FormatProperties(im.dev.Physical, uint32(pf.VkFormat)).Linear; feats&need != need {
		d.err = unavailable("device does not offer LINEAR disjoint images of %s (linear tiling features %#x)", pf.VkFormat, uint32(feats))
		return d
	}
	info, err := vkx.ImageFormatProperties(im.dev.Physical, vkx.ImageFormatQuery{Format: uint32(pf.VkFormat),
		Tiling: vk.ImageTilingLinear, Usage: vk.ImageUsageFlags(vk.ImageUsageSampledBit),
		Flags: vk.ImageCreateFlags(vk.ImageCreateDisjointBit), ExternalHandle: vkx.ExternalMemoryHandleHostAllocation})
	if err != nil || info.ExternalFeatures&vkx.ExternalMemoryFeatureImportable == 0 {
		d.err = unavailable("device does not offer LINEAR disjoint images with host memory for %s (%v, external features %#x)",
			pf.VkFormat, err, info.ExternalFeatures)
		return d
	}
	if uint32(im.PaddedWidth) > info.MaxWidth || uint32(im.PaddedHeight) > info.MaxHeight {
		d.err = unavailable("LINEAR %s images are at most %dx%d", pf.VkFormat, info.MaxWidth, info.MaxHeight)
		return d
	}
	img, err := vkx.CreateExternalImage(im.dev.Device, vkx.ExternalImage{Format: uint32(pf.VkFormat),
		Width: uint32(im.PaddedWidth), Height: uint32(im.PaddedHeight), Tiling: vk.ImageTilingLinear,
		Usage: vk.ImageUsageFlags(vk.ImageUsageSampledBit), Flags: vk.ImageCreateFlags(vk.ImageCreateDisjointBit),
		Handle: vkx.ExternalMemoryHandleHostAllocation, InitialLayout: vk.ImageLayoutUndefined})
	if err != nil {
		d.err = unavailable("creating a LINEAR disjoint %s image: %v", pf.VkFormat, err)
		return d
	}
	defer vkx.DestroyImage(im.dev.Device, img)
	for i := range pf.Planes {
		d.layout[i] = vkx.ImageSubresourceLayout(im.dev.Device, img, planeAspect(i))
		d.req[i] = vkx.ImagePlaneMemoryRequirements(im.dev.Device, img, planeAspect(i))
	}
	return d
}

// directable says why f's planes cannot be bound in place, or nil.
func (im *Image) directable(f *formats.Frame) error {
	d := im.probeDirect()
	if d.err != nil {
		return d.err
	}
	if im.imported.cache == nil {
		return unavailable("%v", im.imported.err)
	}
	if im.PaddedWidth != f.Width || im.PaddedHeight != f.Height {
		return unavailable("picture %dx%d is not a whole number of chroma samples: the image's padding would be "+
			"the decoder's row padding, not the repeated edge", f.Width, f.Height)
	}
	for i := range im.Format.Planes {
		if uint64(f.Strides[i]) != d.layout[i].RowPitch {
			return unavailable("plane %d: row pitch %d ≠ stride %d", i, d.layout[i].RowPitch, f.Strides[i])
		}
		key, off := im.imported.cache.span(uintptr(unsafe.Pointer(&f.Planes[i][0])), len(f.Planes[i]))
		if off < d.layout[i].Offset || (off-d.layout[i].Offset)%max(d.req[i].Alignment, 1) != 0 {
			return unavailable("plane %d: starts %d bytes into its page: no memory offset the device allows (alignment %d) puts it there",
				i, off, d.req[i].Alignment)
		}
		if mo := off - d.layout[i].Offset; mo+d.req[i].Size > key.size {
			return unavailable("plane %d: the device wants %d bytes of memory for it (the whole image is %d), the frame's plane spans %d",
				i, d.req[i].Size, im.directImageBytes(), key.size-mo)
		}
		types, err := vkx.HostPointerTypes(im.dev.Device, key.base)
		if err != nil {
			return unavailable("plane %d: %v", i, err)
		}
		if types&d.req[i].MemoryTypeBits == 0 {
			return unavailable("plane %d: no memory type both imports this host memory (%#b) and suits the image (%#b)",
				i, types, d.req[i].MemoryTypeBits)
		}
	}
	return nil
}

// directImageBytes is the size of all planes of the probe image, to show when a device asks for the
// whole image per plane.
func (im *Image) directImageBytes() uint64 {
	var n uint64
	for i := range im.Format.Planes {
		n += im.direct.probe.layout[i].Size
	}
	return n
}

// directKey identifies the memory of a frame's planes.
type directKey [maxPlanes]uintptr

// loadDirect samples f in place where its memory already has a direct image in GENERAL layout, and
// otherwise uploads it by import while that image is made and prepared (see the top of the file).
func (im *Image) loadDirect(cb vk.CommandBuffer, f *formats.Frame) (Loaded, error) {
	var key directKey
	for i, p := range f.Planes {
		key[i] = uintptr(unsafe.Pointer(&p[0]))
	}
	d := im.direct.images[key]
	if d == nil {
		if len(im.direct.images) >= maxDirect {
			return Loaded{}, fmt.Errorf("planes: direct: %d sets of frame memory already bound (DropDirect frees them): %w",
				len(im.direct.images), ErrUnavailable)
		}
		var err error
		if d, err = im.newDirect(f); err != nil {
			return Loaded{}, fmt.Errorf("planes: direct %s %dx%d: %w", f.Format.Name, f.Width, f.Height, err)
		}
		if im.direct.images == nil {
			im.direct.images = map[directKey]*directImage{}
		}
		im.direct.images[key] = d
	}
	if !d.ready {
		if err := im.recordImport(cb, f); err != nil {
			return Loaded{}, err
		}
		vkx.CmdBarrier(cb, vk.PipelineStageTopOfPipeBit, vk.PipelineStageFragmentShaderBit|vk.PipelineStageComputeShaderBit, 0, 0,
			vkx.Transition{Image: d.img, From: vk.ImageLayoutUndefined, To: vk.ImageLayoutGeneral, DstAccess: vk.AccessShaderReadBit})
		d.ready = true
		return Loaded{Upload: UploadImport, Reason: "direct: the first frame in this memory is copied while its image is prepared; " +
			"later frames in it are sampled in place"}, nil
	}
	im.direct.current = d
	return Loaded{Upload: UploadDirect, Reason: "the frame's memory is sampled in place"}, nil
}

// newDirect makes the LINEAR disjoint image for f's memory: the planes imported (held for the
// image's life) and bound where the frame's planes start.
func (im *Image) newDirect(f *formats.Frame) (*directImage, error) {
	pf, probe := im.Format, im.probeDirect()
	d := &directImage{}
	img, err := vkx.CreateExternalImage(im.dev.Device, vkx.ExternalImage{Format: uint32(pf.VkFormat),
		Width: uint32(im.PaddedWidth), Height: uint32(im.PaddedHeight), Tiling: vk.ImageTilingLinear,
		Usage: vk.ImageUsageFlags(vk.ImageUsageSampledBit), Flags: vk.ImageCreateFlags(vk.ImageCreateDisjointBit),
		Handle: vkx.ExternalMemoryHandleHostAllocation, InitialLayout: vk.ImageLayoutUndefined})
	if err != nil {
		return nil, err
	}
	d.img = img
	var binds []vkx.PlaneBinding
	for i := range pf.Planes {
		e, off, err := im.imported.cache.acquire(unsafe.Pointer(&f.Planes[i][0]), len(f.Planes[i]))
		if err != nil {
			im.freeDirect(d)
			return nil, fmt.Errorf("import plane %d: %w", i, err)
		}
		d.entries[i], d.n = e, i+1
		binds = append(binds, vkx.PlaneBinding{Memory: e.memory, Offset: off - probe.layout[i].Offset, Aspect: planeAspect(i)})
	}
	if err := vkx.BindImagePlanes(im.dev.Device, img, binds); err != nil {
		im.freeDirect(d)
		return nil, err
	}
	return d, nil
}

func (im *Image) freeDirect(d *directImage) {
	vkx.DestroyImage(im.dev.Device, d.img)
	for i := 0; i < d.n; i++ {
		im.imported.cache.release(d.entries[i])
	}
}

// SamplerImage is the image the sampler path samples for the last Load, and its layout: the
// multi-planar image in SHADER_READ_ONLY_OPTIMAL, or, after a direct load, the frame's own memory
// as a LINEAR image in GENERAL.
func (im *Image) SamplerImage() (vk.Image, vk.ImageLayout) {
	if im.direct.current != nil {
		return im.direct.current.img, vk.ImageLayoutGeneral
	}
	return im.Multi, vk.ImageLayoutShaderReadOnlyOptimal
}

// DropDirect frees the direct images and their hold on the imported frame memory, so that the
// memory can be forgotten (Importer.Forget) and freed. The GPU must be done with them; bindings that
// sampled them must not be drawn again before the next Load.
func (im *Image) DropDirect() {
	for k, d := range im.direct.images {
		im.freeDirect(d)
		delete(im.direct.images, k)
	}
	im.direct.current = nil
}
