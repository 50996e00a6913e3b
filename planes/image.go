package planes

import (
	"fmt"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/internal/vkx"
	"github.com/ycbcrkit/ycbcrkit/present"
)

// Paths selects which images an Image holds.
type Paths struct {
	Sampler bool // the multi-planar image for the Y′CbCr sampler path
	Shader  bool // the per-plane textures for the shader path
}

// Texture is one shader-path texture: a plain single-plane image with its view.
type Texture struct {
	Image         vk.Image
	Memory        vk.DeviceMemory
	View          vk.ImageView
	Format        formats.VkFormat
	Width, Height int
}

// Image holds one picture on the GPU, for one or both conversion paths.
type Image struct {
	Format        *formats.PixelFormat
	Width, Height int // picture size
	// PaddedWidth, PaddedHeight: the multi-planar image's size, rounded up to whole chroma samples
	// (Vulkan requires it); the extra column/row repeats the edge and is cropped by uvScale.
	PaddedWidth, PaddedHeight int

	// Sampler path.
	Multi       vk.Image
	Disjoint    bool
	planeMemory []vk.DeviceMemory

	// Shader path.
	Textures []Texture

	staging *present.Buffer
	layout  []stagedPlane
	shifted []stagedPlane // LSB layouts: the sampler path's copy, shifted into the X6/X4 container
	dev     *present.Device

	// Recording (load.go): every image an upload writes, the copy path's regions computed once, and
	// scratch for the import path's regions, so that steady-state frames allocate nothing.
	targets        []uint64
	stageCopies    []vkx.Copy
	stageRegions   []vkx.BufferImageCopy
	scratchCopies  []vkx.Copy
	scratchRegions []vkx.BufferImageCopy

	importer    *Importer
	ownImporter bool  // made by the image on first import: destroyed with it
	importerErr error // why the image could not make one
	pinned      [maxPlanes]*importEntry
	npinned     int
	plan        loadPlan
	direct      *directProbe
}

// maxPlanes is the most planes a layout of the table has.
const maxPlanes = 3

type stagedPlane struct {
	offset        int
	rowBytes      int // padded row
	width, height int // padded plane size in plane texels
}

func roundUp(v, shift int) int { return (v + (1 << shift) - 1) >> shift << shift }

func align(v, a int) int { return (v + a - 1) / a * a }

// texelBytes is the size of one texel of a plane-compatible or shader texture format.
func texelBytes(pf *formats.PixelFormat, t formats.Texture) int {
	p := pf.Planes[t.Plane]
	if len(p.Channels) == 4 && !t.Chroma { // luma view of a packed 4:2:2 block: half the block
		return p.BytesPerTexel / 2
	}
	return p.BytesPerTexel
}

// New creates the images for a width×height picture of layout pf, and the staging buffer that
// uploads go through.
func New(dev *present.Device, pf *formats.PixelFormat, width, height int, paths Paths) (*Image, error) {
	if paths.Sampler && pf.VkFormat == 0 {
		return nil, fmt.Errorf("planes: %s cannot use the sampler path: %s", pf.Name, pf.NoSamplerReason)
	}
	im := &Image{Format: pf, Width: width, Height: height, dev: dev,
		PaddedWidth: roundUp(width, pf.Log2ChromaW), PaddedHeight: roundUp(height, pf.Log2ChromaH)}
	if err := im.init(paths); err != nil {
		im.Destroy()
		return nil, fmt.Errorf("planes: %s %dx%d: %w", pf.Name, width, height, err)
	}
	return im, nil
}

func (im *Image) init(paths Paths) error {
	pf := im.Format
	size := 0
	stage := func() []stagedPlane {
		var out []stagedPlane
		for i, p := range pf.Planes {
			w, h := pf.PlaneSize(i, im.PaddedWidth, im.PaddedHeight)
			if len(p.Channels) == 4 { // packed 4:2:2: plane texels are 2×1 blocks
				w = (im.PaddedWidth + 1) / 2
			}
			size = align(size, 16)
			sp := stagedPlane{offset: size, rowBytes: w * p.BytesPerTexel, width: w, height: h}
			size += sp.rowBytes * h
			out = append(out, sp)
		}
		return out
	}
	im.layout = stage()
	if paths.Sampler && pf.SamplerShift > 0 {
		im.shifted = stage()
	}
	var err error
	if im.staging, err = im.dev.NewBuffer(size, vk.BufferUsageTransferSrcBit,
		vk.MemoryPropertyHostVisibleBit|vk.MemoryPropertyHostCoherentBit); err != nil {
		return err
	}
	if paths.Sampler {
		if err := im.initMulti(); err != nil {
			return err
		}
	}
	if paths.Shader {
		for i, t := range pf.Textures {
			w, h := pf.TextureSize(i, im.Width, im.Height)
			tex, err := im.newTexture(t.VkFormat, w, h)
			if err != nil {
				return fmt.Errorf("texture %d: %w", i, err)
			}
			im.Textures = append(im.Textures, tex)
		}
	}
	im.buildStageRegions()
	return nil
}

func (im *Image) newImage(format formats.VkFormat, w, h int, flags vk.ImageCreateFlagBits) (vk.Image, error) {
	ci := &vk.ImageCreateInfo{
		SType: vk.StructureTypeImageCreateInfo, Flags: vk.ImageCreateFlags(flags), ImageType: vk.ImageType2d,
		Format: vk.Format(format), Extent: vk.Extent3D{Width: uint32(w), Height: uint32(h), Depth: 1},
		MipLevels: 1, ArrayLayers: 1, Samples: vk.SampleCount1Bit, Tiling: vk.ImageTilingOptimal,
		Usage:       vk.ImageUsageFlags(vk.ImageUsageSampledBit | vk.ImageUsageTransferDstBit),
		SharingMode: vk.SharingModeExclusive, InitialLayout: vk.ImageLayoutUndefined,
	}
	var img vk.Image
	err := vkx.Check(vk.CreateImage(im.dev.Device, ci, nil, &img), "vkCreateImage")
	ci.Free()
	return img, err
}

func (im *Image) newTexture(format formats.VkFormat, w, h int) (Texture, error) {
	t := Texture{Format: format, Width: w, Height: h}
	img, err := im.newImage(format, w, h, 0)
	if err != nil {
		return t, err
	}
	t.Image = img
	var req vk.MemoryRequirements
	vk.GetImageMemoryRequirements(im.dev.Device, img, &req)
	req.Deref()
	if t.Memory, err = im.dev.Allocate(req.Size, req.MemoryTypeBits, vk.MemoryPropertyDeviceLocalBit); err != nil {
		return t, err
	}
	if err := vkx.Check(vk.BindImageMemory(im.dev.Device, img, t.Memory, 0), "vkBindImageMemory"); err != nil {
		return t, err
	}
	t.View, err = im.dev.NewView(img, vk.Format(format), vk.ImageAspectColorBit, nil)
	return t, err
}

// planeAspect is VK_IMAGE_ASPECT_PLANE_i_BIT.
func planeAspect(i int) vk.ImageAspectFlagBits { return vk.ImageAspectFlagBits(0x10 << uint(i)) }

func (im *Image) initMulti() error {
	pf := im.Format
	feats := vkx.FormatProperties(im.dev.Physical, uint32(pf.VkFormat))
	if feats.Optimal&vk.FormatFeatureFlags(vk.FormatFeatureSampledImageBit) == 0 {
		return fmt.Errorf("device cannot sample %s", pf.VkFormat)
	}
	// Disjoint planes need the DISJOINT feature and a multi-planar format (packed 4:2:2 has one plane).
	im.Disjoint = len(pf.Planes) > 1 && feats.Optimal&vk.FormatFeatureFlags(vk.FormatFeatureDisjointBit) != 0
	var flags vk.ImageCreateFlagBits
	if im.Disjoint {
		flags = vk.ImageCreateDisjointBit
	}
	img, err := im.newImage(pf.VkFormat, im.PaddedWidth, im.PaddedHeight, flags)
	if err != nil {
		return err
	}
	im.Multi = img
	if !im.Disjoint {
		req := vkx.ImagePlaneMemoryRequirements(im.dev.Device, img, 0)
		mem, err := im.dev.Allocate(vk.DeviceSize(req.Size), req.MemoryTypeBits, vk.MemoryPropertyDeviceLocalBit)
		if err != nil {
			return err
		}
		im.planeMemory = append(im.planeMemory, mem)
		return vkx.BindImagePlanes(im.dev.Device, img, []vkx.PlaneBinding{{Memory: mem}})
	}
	// One allocation per plane: the layout the mission asks for, and what imports of decoder
	// buffers (one buffer per plane) bind to.
	var binds []vkx.PlaneBinding
	for i := range pf.Planes {
		req := vkx.ImagePlaneMemoryRequirements(im.dev.Device, img, planeAspect(i))
		mem, err := im.dev.Allocate(vk.DeviceSize(req.Size), req.MemoryTypeBits, vk.MemoryPropertyDeviceLocalBit)
		if err != nil {
			return fmt.Errorf("plane %d: %w", i, err)
		}
		im.planeMemory = append(im.planeMemory, mem)
		binds = append(binds, vkx.PlaneBinding{Memory: mem, Aspect: planeAspect(i)})
	}
	if err := vkx.BindImagePlanes(im.dev.Device, img, binds); err != nil {
		return fmt.Errorf("bind planes: %w", err)
	}
	return nil
}

// Destroy frees the images, their memory and the staging buffer, and drops the image's hold on
// imported host memory (Done). A shared Importer (SetImporter) stays; one the image made itself is
// destroyed. The GPU must be done with all of them.
func (im *Image) Destroy() {
	im.Done()
	if im.ownImporter && im.importer != nil {
		im.importer.Destroy()
	}
	im.importer, im.ownImporter = nil, false
	d := im.dev.Device
	for _, t := range im.Textures {
		if t.View != vk.NullImageView {
			vk.DestroyImageView(d, t.View, nil)
		}
		if t.Image != vk.NullImage {
			vk.DestroyImage(d, t.Image, nil)
		}
		if t.Memory != vk.NullDeviceMemory {
			vk.FreeMemory(d, t.Memory, nil)
		}
	}
	im.Textures = nil
	if im.Multi != vk.NullImage {
		vk.DestroyImage(d, im.Multi, nil)
		im.Multi = vk.NullImage
	}
	for _, m := range im.planeMemory {
		vk.FreeMemory(d, m, nil)
	}
	im.planeMemory = nil
	im.staging.Destroy()
	im.staging = nil
}
