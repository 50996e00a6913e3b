package planes

import (
	"fmt"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/gpu"
	"github.com/ycbcrkit/ycbcrkit/internal/vkx"
)

// Foreign is a picture in an image the toolkit did not create and does not own: FFmpeg's decoded
// AVVkFrame, a multi-planar image of the decoder's coded size (1920×1088 for 1080p), not disjoint,
// with the usage and flags FFmpeg chose. Its owner synchronizes access to it (stream.Foreign); here
// are the views and copies of it.
type Foreign struct {
	Image    vk.Image
	VkFormat formats.VkFormat
	// Width and Height are the image's (coded) size; the picture is its top-left part.
	Width, Height int
	Usage         vk.ImageUsageFlags
	Flags         vk.ImageCreateFlags
	Tiling        vk.ImageTiling
	// Images is how many images hold the frame: 1 for a multi-planar image (what FFmpeg's Vulkan
	// decoders output); more when FFmpeg split the planes into images of their own.
	Images int
}

// ForeignState is a foreign frame's state under its owner's lock (stream.Foreign).
type ForeignState struct {
	Image Foreign
	// Layout is the image's current layout; Semaphore a timeline semaphore the next submission that
	// uses the image waits on at Value and signals at Value+1.
	Layout    vk.ImageLayout
	Semaphore vk.Semaphore
	Value     uint64
	// ReadSemaphore, where set, is another timeline semaphore the submission also waits on, at
	// ReadValue: the owner's last submission that read the image without signalling Semaphore
	// (FFmpeg's decoding that used the picture as a reference, scripts/ffmpeg-patches/0008).
	ReadSemaphore vk.Semaphore
	ReadValue     uint64
	// QueueFamily owns the image when it is EXCLUSIVE; vk.QueueFamilyIgnored when it is CONCURRENT.
	QueueFamily uint32
	// Epoch changes whenever the owner may have destroyed an image it handed out before (0: the
	// owner does not say): a later image may then have an earlier one's handle, so whatever was
	// kept per Image (stream.Options.Replay's command buffers) is dropped when Epoch changes.
	Epoch uint64
	// External says another device of the GPU wrote the image's memory and released it to
	// VK_QUEUE_FAMILY_EXTERNAL in Layout (stream.Relay): the reading barrier acquires it for
	// QueueFamily.
	External bool
}

// check says why f cannot hold a width×height picture of pf, or nil.
func (f Foreign) check(pf *formats.PixelFormat, width, height int) error {
	switch {
	case f.Images != 1:
		return fmt.Errorf("the frame is %d images, not one multi-planar image", f.Images)
	case pf.VkFormat == 0 || f.VkFormat != pf.VkFormat:
		return fmt.Errorf("the image is %s, %s's multi-planar format is %s", f.VkFormat, pf.Name, pf.VkFormat)
	case f.Width < roundUp(width, pf.Log2ChromaW) || f.Height < roundUp(height, pf.Log2ChromaH):
		return fmt.Errorf("the image (%dx%d) is smaller than the picture (%dx%d)", f.Width, f.Height, width, height)
	}
	return nil
}

// InPlace says why f cannot be sampled in place for paths as a width×height picture of pf, or nil:
// SAMPLED usage; for the shader path's plane views MUTABLE_FORMAT (a plane view's format differs
// from the image's, VUID-VkImageViewCreateInfo-image-01762) and EXTENDED_USAGE (the plane formats
// need not support every usage of the image, VUID-VkImageViewCreateInfo-usage-02274), and one plane
// texture per plane.
func (f Foreign) InPlace(pf *formats.PixelFormat, width, height int, paths ...formats.Path) error {
	if err := f.check(pf, width, height); err != nil {
		return err
	}
	if f.Usage&vk.ImageUsageFlags(vk.ImageUsageSampledBit) == 0 {
		return fmt.Errorf("the image was created without SAMPLED usage (%#x)", uint32(f.Usage))
	}
	for _, p := range paths {
		if p != formats.PathShader {
			continue
		}
		need := vk.ImageCreateFlags(vk.ImageCreateMutableFormatBit | vk.ImageCreateExtendedUsageBit)
		if f.Flags&need != need {
			return fmt.Errorf("the shader path's plane views need MUTABLE_FORMAT and EXTENDED_USAGE; the image's flags are %#x", uint32(f.Flags))
		}
		if err := planeTextures(pf); err != nil {
			return err
		}
	}
	return nil
}

// planeTextures says why pf's shader textures are not one per plane in plane order, or nil.
func planeTextures(pf *formats.PixelFormat) error {
	if len(pf.Textures) != len(pf.Planes) {
		return fmt.Errorf("%s has %d shader textures for %d planes", pf.Name, len(pf.Textures), len(pf.Planes))
	}
	for k, t := range pf.Textures {
		if t.Plane != k {
			return fmt.Errorf("%s: shader texture %d reads plane %d", pf.Name, k, t.Plane)
		}
	}
	return nil
}

// NewForeign returns an Image that samples f in place as a width×height picture of pf, for paths:
// Multi is f's image (not owned: Destroy leaves it), and the shader path's Textures are views of its
// planes in the table's texture formats (R16 for X6 planes, as for the toolkit's plane aliases).
// PaddedWidth and PaddedHeight are f's size, which the conversions crop (the sampler path's
// uvScale, the shader path's luma scale and chroma coordinates). Views are limited to sampling.
//
// Chroma at the picture's last row and column is reconstructed from the image's own next sample
// where the coded size goes beyond the picture (1088 rows for 1080): the decoder's coded rows, which
// encoders fill by repeating the edge, where the toolkit's own images repeat the edge sample itself.
func NewForeign(dev *gpu.Device, pf *formats.PixelFormat, width, height int, f Foreign, paths ...formats.Path) (*Image, error) {
	if err := f.InPlace(pf, width, height, paths...); err != nil {
		return nil, fmt.Errorf("planes: sample %s %dx%d in place: %w", pf.Name, width, height, err)
	}
	im := &Image{Format: pf, Width: width, Height: height, dev: dev, PaddedWidth: f.Width, PaddedHeight: f.Height,
		Multi: f.Image, foreign: true}
	for _, p := range paths {
		if p != formats.PathShader {
			continue
		}
		for k, t := range pf.Textures {
			w, h := pf.PlaneSize(k, f.Width, f.Height)
			v, err := vkx.CreateView(dev.Device, f.Image, vk.Format(t.VkFormat), vk.ImageAspectFlags(planeAspect(k)),
				vk.SamplerYcbcrConversion(vk.NullHandle), vk.ImageUsageFlags(vk.ImageUsageSampledBit))
			if err != nil {
				im.Destroy()
				return nil, fmt.Errorf("planes: view of plane %d of a foreign %s image: %w", k, f.VkFormat, err)
			}
			// Alias: the texture is the plane itself (its memory is not the texture's to free).
			im.Textures = append(im.Textures, Texture{View: v, Format: t.VkFormat, Width: w, Height: h, Alias: true})
		}
		im.Aliased = true
	}
	return im, nil
}

// Foreign reports whether im samples an image it does not own (NewForeign).
func (im *Image) Foreign() bool { return im.foreign }

// CopyForeign records one vkCmdCopyImage per plane from f's image, which must be in
// TRANSFER_SRC_OPTIMAL with its writes visible to the transfer stage, into im's images (the
// multi-planar image, and shader textures that are not its aliases): the padded picture, whose last
// column and row are the image's own where the picture's size is odd. im's images end in
// SHADER_READ_ONLY_OPTIMAL for the conversions. Nothing goes through the CPU.
func (im *Image) CopyForeign(cb vk.CommandBuffer, f Foreign) error {
	pf := im.Format
	if err := f.check(pf, im.Width, im.Height); err != nil {
		return fmt.Errorf("planes: copy a foreign image into %s %dx%d: %w", pf.Name, im.Width, im.Height, err)
	}
	if im.foreign {
		return fmt.Errorf("planes: copy a foreign image into an image that is itself foreign")
	}
	// One copy into the multi-planar image (every plane) and one into each shader texture that is
	// not a plane alias; CmdUploadImage takes them all to their reading layout, as CmdUpload does for
	// the staged copies.
	im.listTargets()
	var copies [1 + maxPlanes]vkx.Copy
	var regions [2 * maxPlanes]vkx.PlaneCopy
	nc, nr := 0, 0
	if im.Multi != vk.NullImage {
		copies[nc] = vkx.Copy{Image: vkx.ImageHandle(im.Multi), Count: uint32(len(pf.Planes))}
		nc++
		for k := range pf.Planes {
			w, h := pf.PlaneSize(k, im.PaddedWidth, im.PaddedHeight)
			a := vk.ImageAspectFlags(planeAspect(k))
			regions[nr] = vkx.PlaneCopy{Src: a, Dst: a, Width: uint32(w), Height: uint32(h)}
			nr++
		}
	}
	for k, tex := range im.Textures {
		if tex.Alias {
			continue
		}
		if err := planeTextures(pf); err != nil {
			return fmt.Errorf("planes: copy a foreign image into %s's shader textures: %w", pf.Name, err)
		}
		copies[nc] = vkx.Copy{Image: vkx.ImageHandle(tex.Image), First: uint32(nr), Count: 1}
		nc++
		regions[nr] = vkx.PlaneCopy{Src: vk.ImageAspectFlags(planeAspect(k)), Dst: vk.ImageAspectFlags(vk.ImageAspectColorBit),
			Width: uint32(tex.Width), Height: uint32(tex.Height)}
		nr++
	}
	vkx.CmdUploadImage(cb, im.targets, im.readers, vk.ImageLayoutUndefined, f.Image, copies[:nc], regions[:nr])
	im.Done()
	im.direct.current = nil
	return nil
}
