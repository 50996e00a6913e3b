package planes

import (
	"fmt"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/gpu"
	"github.com/ycbcrkit/ycbcrkit/internal/vkx"
)

// Texture is one shader-path texture: a plain single-plane image with its view.
type Texture struct {
	Image         vk.Image
	Memory        vk.DeviceMemory
	View          vk.ImageView
	Format        formats.VkFormat
	Width, Height int
	// Alias: Image is a single-plane image aliased onto the memory of one plane of the multi-planar
	// image (VK_IMAGE_CREATE_ALIAS_BIT, the plane's compatible format, the padded plane size): the
	// upload that fills the plane fills it, and Memory is the plane's (freed with the plane).
	Alias bool
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
	// Aliased: the textures are aliases of the planes (Texture.Alias), so one upload serves both
	// paths. AliasReason says why not when the image holds both paths' images without aliases.
	Aliased     bool
	AliasReason string

	dev *gpu.Device
	// foreign: Multi is an image the toolkit does not own, Textures views of its planes (NewForeign).
	foreign bool

	// Recording (load.go): every image an upload writes, and the last of them that are plane
	// aliases (filled through the planes); and which ways in can take a frame of a given shape.
	targets []uint64
	readers int
	plan    loadPlan

	// The ways in, one small object each; the frame's path (Load) says which one records.
	staged   copyUpload    // copy through the staging buffer (upload.go)
	parallel parallelStage // large frames: Stage's rows copied by several goroutines (stager.go)
	imported importUpload  // import of the frame's host memory (load.go, import.go)
	direct   directUpload  // the frame's memory bound as a LINEAR image (direct.go)
	lsb      shiftUpload   // LSB samples shifted into the X6/X4 container on the GPU (shift.go)
}

// copyUpload is the copy way in: the CPU copies the planes into the staging buffer (Stage), the
// GPU copies from there (RecordUpload). Its regions are computed once, so frames allocate nothing.
type copyUpload struct {
	// staging is made on the first Stage (ensureStaging), of size bytes: an image whose frames are
	// all imported never has one (a frame's worth of host-visible memory, pinned system memory on
	// a discrete GPU, per picture).
	staging      *gpu.Buffer
	size         int
	layout       []stagedPlane
	shifted      []stagedPlane // LSB layouts: the sampler path's copy, shifted into the X6/X4 container
	copies       []vkx.Copy
	regions      []vkx.BufferImageCopy
	multiRegions [2]int // regions[a:b] are the multi-planar image's
}

func (u *copyUpload) destroy() {
	u.staging.Destroy()
	u.staging = nil
}

// parallelStage is Stage's parallel copier for large frames, started on first need.
type parallelStage struct {
	stager *stager
	tried  bool
}

func (u *parallelStage) stop() {
	u.stager.stop()
	u.stager, u.tried = nil, false
}

// importUpload is the import way in: the frame's own memory imported as buffers
// (VK_EXT_external_memory_host) through an import cache, and the GPU copies from them.
type importUpload struct {
	cache   *Importer
	own     bool  // made by the image on first import: destroyed with it
	err     error // why the image could not make one
	pinned  [maxPlanes]*importEntry
	npinned int
	copies  []vkx.Copy // scratch for each frame's regions
	regions []vkx.BufferImageCopy
}

// directUpload is the direct way in: the frame's memory bound as the planes of a LINEAR disjoint
// image and sampled in place.
type directUpload struct {
	probe   *directProbe
	images  map[directKey]*directImage
	current *directImage // what the last Load left to sample, if direct
}

// shiftUpload shifts LSB layouts for the sampler path on the GPU, from the staging buffer or an
// import.
type shiftUpload struct {
	pass *gpuShift
	err  error // why the shift pass could not be made
}

func (u *shiftUpload) destroy(d vk.Device) {
	u.pass.destroy(d)
	u.pass = nil
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

// New creates the images for a width×height picture of layout pf that paths sample, and the staging
// buffer that uploads go through. With both paths the shader's textures alias the sampler's planes
// where the device allows it (one upload fills both).
func New(dev *gpu.Device, pf *formats.PixelFormat, width, height int, paths ...formats.Path) (*Image, error) {
	set := pathSet{}
	for _, p := range paths {
		set[p] = true
	}
	if set[formats.PathSampler] && pf.VkFormat == 0 {
		return nil, fmt.Errorf("planes: %s cannot use the sampler path: %s", pf.Name, pf.NoSamplerReason)
	}
	im := &Image{Format: pf, Width: width, Height: height, dev: dev,
		PaddedWidth: roundUp(width, pf.Log2ChromaW), PaddedHeight: roundUp(height, pf.Log2ChromaH)}
	if err := im.init(set); err != nil {
		im.Destroy()
		return nil, fmt.Errorf("planes: %s %dx%d: %w", pf.Name, width, height, err)
	}
	return im, nil
}

// ensureStaging makes the staging buffer on first need and points the copy path's copies at it.
func (im *Image) ensureStaging() error {
	if im.staged.staging != nil {
		return nil
	}
	// Storage: the GPU shift pass reads LSB planes from it.
	b, err := im.dev.NewBuffer(im.staged.size, vk.BufferUsageTransferSrcBit|vk.BufferUsageStorageBufferBit,
		vk.MemoryPropertyHostVisibleBit|vk.MemoryPropertyHostCoherentBit)
	if err != nil {
		return fmt.Errorf("planes: staging buffer: %w", err)
	}
	im.staged.staging = b
	h := vkx.BufferHandle(b.Handle)
	for i := range im.staged.copies {
		im.staged.copies[i].Buffer = h
	}
	if s := im.lsb.pass; s != nil && len(s.stageCopies) > 1 {
		for i := range s.stageCopies[1:] { // [0] reads the shift pass's output
			s.stageCopies[1+i].Buffer = h
		}
	}
	return nil
}

// pathSet is which paths an Image's images serve.
type pathSet [2]bool

func (im *Image) init(paths pathSet) error {
	pf := im.Format
	var size int
	im.staged.layout, size = im.stagedLayout(0)
	if paths[formats.PathSampler] && pf.SamplerShift > 0 {
		im.staged.shifted, size = im.stagedLayout(size)
	}
	im.staged.size = size
	if paths[formats.PathSampler] {
		alias := paths[formats.PathShader]
		if alias {
			if err := im.aliasable(); err != nil {
				alias, im.AliasReason = false, err.Error()
			}
		}
		if err := im.initMulti(alias); err != nil {
			return err
		}
	}
	if paths[formats.PathShader] && !im.Aliased {
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
	if im.staged.shifted != nil {
		// Made here, so that every Stage of the image shifts the same way; if it cannot be made,
		// the CPU shifts (shiftErr says why) and import is refused.
		_ = im.ensureShift()
	}
	return nil
}

// ShaderScale is the factor the shader path multiplies values sampled from im's textures by to get
// code/(2^Depth−1) (formats.PixelFormat.ShaderScale). Plane aliases hold what the sampler path's
// planes hold: LSB layouts shifted to the MSB.
func (im *Image) ShaderScale() float64 {
	if im.Aliased && im.Format.SamplerShift > 0 {
		return im.Format.ShaderScaleAligned(formats.AlignMSB)
	}
	return im.Format.ShaderScale()
}

// aliasable says whether the shader path's textures can be single-plane aliases of the planes: one
// texture per plane, a disjoint multi-planar image, and views in the table's texture formats the
// device can sample. The alias has the plane's compatible format (spec: memory aliasing); where that
// is an X6/X4 format, it is viewed as R16/R16G16 (same compatibility class, MUTABLE_FORMAT), because
// implementations differ in how they normalise X6 data (lavapipe samples R10X6 as R16: v·64/65535,
// not v/1023), while R16 is exact everywhere.
func (im *Image) aliasable() error {
	pf := im.Format
	if len(pf.Planes) < 2 {
		return fmt.Errorf("%s is not multi-planar: no planes to alias", pf.Name)
	}
	feats := vkx.FormatProperties(im.dev.Physical, uint32(pf.VkFormat))
	if feats.Optimal&vk.FormatFeatureFlags(vk.FormatFeatureDisjointBit) == 0 {
		return fmt.Errorf("the device has no DISJOINT for %s: plane aliases need disjoint planes", pf.VkFormat)
	}
	if len(pf.Textures) != len(pf.Planes) {
		return fmt.Errorf("%s has %d shader textures for %d planes", pf.Name, len(pf.Textures), len(pf.Planes))
	}
	need := vk.FormatFeatureFlags(vk.FormatFeatureSampledImageBit | vk.FormatFeatureTransferDstBit)
	for k, t := range pf.Textures {
		if t.Plane != k {
			return fmt.Errorf("%s: shader texture %d reads plane %d", pf.Name, k, t.Plane)
		}
		if vkx.FormatProperties(im.dev.Physical, uint32(t.VkFormat)).Optimal&need != need {
			return fmt.Errorf("the device cannot sample %s, plane %d's texture format", t.VkFormat, k)
		}
	}
	return nil
}

// stagedLayout lays the padded planes out one after the other from offset start, 16-byte aligned,
// rows tightly packed; it returns them and the end offset.
func (im *Image) stagedLayout(start int) ([]stagedPlane, int) {
	pf := im.Format
	var out []stagedPlane
	size := start
	for i, p := range pf.Planes {
		w, h := pf.PlaneSize(i, im.PaddedWidth, im.PaddedHeight)
		size = align(size, 16)
		sp := stagedPlane{offset: size, rowBytes: w * p.BytesPerTexel, width: w, height: h}
		size += sp.rowBytes * h
		out = append(out, sp)
	}
	return out, size
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

func (im *Image) initMulti(alias bool) error {
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
	alias = alias && im.Disjoint
	if alias {
		// Both sides of a plane alias carry ALIAS_BIT and DISJOINT, with otherwise equal parameters.
		flags |= vk.ImageCreateAliasBit | im.aliasMutable()
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
		var tex Texture
		if alias {
			if tex, err = im.newAlias(i); err != nil {
				return fmt.Errorf("plane %d alias: %w", i, err)
			}
			im.Textures = append(im.Textures, tex)
			// One allocation at offset 0 serves both: the larger size, the common memory types
			// (alignment holds at offset 0; NVIDIA may want a larger alignment for aliases: the
			// Granite engine bumps it to 64 KiB when it aliases R8/R8G8 images onto planes).
			ar := vkx.ImagePlaneMemoryRequirements(im.dev.Device, tex.Image, 0)
			req.Size = max(req.Size, ar.Size)
			req.MemoryTypeBits &= ar.MemoryTypeBits
			if req.MemoryTypeBits == 0 {
				return fmt.Errorf("plane %d and its alias share no memory type", i)
			}
		}
		mem, err := im.dev.Allocate(vk.DeviceSize(req.Size), req.MemoryTypeBits, vk.MemoryPropertyDeviceLocalBit)
		if err != nil {
			return fmt.Errorf("plane %d: %w", i, err)
		}
		im.planeMemory = append(im.planeMemory, mem)
		binds = append(binds, vkx.PlaneBinding{Memory: mem, Aspect: planeAspect(i)})
		if alias {
			t := &im.Textures[i]
			t.Memory = mem
			if err := vkx.BindImagePlanes(im.dev.Device, t.Image, []vkx.PlaneBinding{{Memory: mem, Aspect: planeAspect(0)}}); err != nil {
				return fmt.Errorf("bind plane %d alias: %w", i, err)
			}
			if t.View, err = im.dev.NewView(t.Image, vk.Format(t.Format), vk.ImageAspectColorBit, nil); err != nil {
				return fmt.Errorf("plane %d alias view: %w", i, err)
			}
		}
	}
	if err := vkx.BindImagePlanes(im.dev.Device, img, binds); err != nil {
		return fmt.Errorf("bind planes: %w", err)
	}
	im.Aliased = alias
	return nil
}

// newAlias creates the single-plane image that aliases plane i: its compatible format, the padded
// plane's size, the multi-planar image's usage and tiling, ALIAS_BIT and DISJOINT (which a
// single-plane format may carry only with ALIAS_BIT: VUID-VkImageCreateInfo-format-01577).
func (im *Image) newAlias(i int) (Texture, error) {
	p := im.Format.Planes[i]
	w, h := im.Format.PlaneSize(i, im.PaddedWidth, im.PaddedHeight)
	t := Texture{Format: im.Format.Textures[i].VkFormat, Width: w, Height: h, Alias: true}
	img, err := im.newImage(p.VkFormat, w, h, vk.ImageCreateAliasBit|vk.ImageCreateDisjointBit|im.aliasMutable())
	t.Image = img
	return t, err
}

// aliasMutable is MUTABLE_FORMAT when a plane's compatible format differs from the texture format
// the shader path views it as (X6/X4 planes viewed as R16); both sides of the alias carry it.
func (im *Image) aliasMutable() vk.ImageCreateFlagBits {
	for k, t := range im.Format.Textures {
		if t.VkFormat != im.Format.Planes[k].VkFormat {
			return vk.ImageCreateMutableFormatBit
		}
	}
	return 0
}

// Destroy frees the images, their memory and the staging buffer, and drops the image's hold on
// imported host memory (Done). A shared Importer (SetImporter) stays; one the image made itself is
// destroyed. The GPU must be done with all of them.
func (im *Image) Destroy() {
	if im.foreign {
		for _, t := range im.Textures {
			vk.DestroyImageView(im.dev.Device, t.View, nil)
		}
		im.Textures, im.Multi = nil, vk.NullImage
		return
	}
	im.Done()
	im.DropDirect()
	im.imported.use(nil)
	d := im.dev.Device
	for _, t := range im.Textures {
		if t.View != vk.NullImageView {
			vk.DestroyImageView(d, t.View, nil)
		}
		if t.Image != vk.NullImage {
			vk.DestroyImage(d, t.Image, nil)
		}
		if !t.Alias {
			im.dev.Free(t.Memory)
		}
	}
	im.Textures = nil
	if im.Multi != vk.NullImage {
		vk.DestroyImage(d, im.Multi, nil)
		im.Multi = vk.NullImage
	}
	for _, m := range im.planeMemory {
		im.dev.Free(m)
	}
	im.planeMemory = nil
	im.lsb.destroy(d)
	im.parallel.stop()
	im.staged.destroy()
}

// MemoryBytes is the device memory the image allocated (gpu.Device.Allocate): its planes or
// textures, its staging buffer and the shift pass's output. Imported host memory is the decoder's
// and a foreign image's is FFmpeg's: neither counts.
func (im *Image) MemoryBytes() int64 {
	if im == nil || im.dev == nil {
		return 0
	}
	n := int64(0)
	for _, m := range im.planeMemory {
		n += im.dev.MemorySize(m)
	}
	for _, t := range im.Textures {
		if !t.Alias {
			n += im.dev.MemorySize(t.Memory)
		}
	}
	if b := im.staged.staging; b != nil {
		n += im.dev.MemorySize(b.Memory)
	}
	if s := im.lsb.pass; s != nil && s.out != nil {
		n += im.dev.MemorySize(s.out.Memory)
	}
	return n
}
