package planes

import (
	"unsafe"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/internal/vkx"
	"github.com/ycbcrkit/ycbcrkit/present"
)

// The direct route: bind the frame's memory itself, imported with VK_EXT_external_memory_host, as
// the planes of a LINEAR disjoint multi-planar image, so that nothing is copied at all. It needs the
// device to offer such images (vkGetPhysicalDeviceImageFormatProperties2 with
// VkPhysicalDeviceExternalImageFormatInfo HOST_ALLOCATION, LINEAR, DISJOINT), the device's row pitch
// of every plane to equal the decoder's stride, and each plane's memory requirement to fit in the
// memory the frame's plane spans.
//
// What lavapipe (Mesa 25.0) answers: the image can be made and imported into, and its row pitches
// equal FFmpeg's strides (both pad rows to 64 bytes: 1920, 960, 960 at 1080p 4:2:0), but it asks for
// the whole image's size as the memory of every plane (3110400 bytes for each plane of a 1080p
// 4:2:0 image), which a plane of a decoder's buffer never has. Where a device passes every check,
// the route still stops at image layouts: the decoder rewrites the memory on the host, which needs
// the image in GENERAL layout, and external images start UNDEFINED (whose first transition may
// discard the contents) while the conversion's descriptors sample SHADER_READ_ONLY_OPTIMAL.

// directProbe is what the device says about a LINEAR disjoint image of im's format and size.
type directProbe struct {
	err    error // device-level reason, the same for every frame
	layout [maxPlanes]vkx.SubresourceLayout
	req    [maxPlanes]vkx.MemoryRequirements
}

var errDirectLayouts = unavailable("the device could bind the frame's planes, but direct is not implemented: " +
	"host writes to a LINEAR image need GENERAL layout, external images start UNDEFINED (the first " +
	"transition may discard the contents) and the conversion's descriptors sample SHADER_READ_ONLY_OPTIMAL")

func (im *Image) probeDirect() *directProbe {
	if im.direct != nil {
		return im.direct
	}
	d := &directProbe{}
	im.direct = d
	pf := im.Format
	switch {
	case !im.dev.Extensions[present.ExtExternalMemoryHost]:
		d.err = unavailable("device has no %s", present.ExtExternalMemoryHost)
	case im.Multi == vk.NullImage:
		d.err = unavailable("direct binds host memory as the planes of the sampler path's multi-planar image, and this image has none")
	case len(im.Textures) > 0:
		d.err = unavailable("the image also holds the shader path's textures, which direct cannot fill")
	case im.shifted != nil:
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

// directable says why f's planes cannot be bound in place (always an error today: see
// errDirectLayouts for what remains when the device passes every check).
func (im *Image) directable(f *formats.Frame) error {
	d := im.probeDirect()
	if d.err != nil {
		return d.err
	}
	if im.importer == nil {
		return unavailable("%v", im.importerErr)
	}
	if im.PaddedWidth != f.Width || im.PaddedHeight != f.Height {
		return unavailable("picture %dx%d is not a whole number of chroma samples: the image's padding would be "+
			"the decoder's row padding, not the repeated edge", f.Width, f.Height)
	}
	for i := range im.Format.Planes {
		if uint64(f.Strides[i]) != d.layout[i].RowPitch {
			return unavailable("plane %d: row pitch %d ≠ stride %d", i, d.layout[i].RowPitch, f.Strides[i])
		}
		key, off := im.importer.span(uintptr(unsafe.Pointer(&f.Planes[i][0])), len(f.Planes[i]))
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
	return errDirectLayouts
}

// directImageBytes is the size of all planes of the probe image, to show when a device asks for the
// whole image per plane.
func (im *Image) directImageBytes() uint64 {
	var n uint64
	for i := range im.Format.Planes {
		n += im.direct.layout[i].Size
	}
	return n
}
