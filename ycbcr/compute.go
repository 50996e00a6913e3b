package ycbcr

import (
	"encoding/binary"
	"fmt"
	"math"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/gpu"
	"github.com/ycbcrkit/ycbcrkit/internal/vkx"
	"github.com/ycbcrkit/ycbcrkit/planes"
	"github.com/ycbcrkit/ycbcrkit/shaders"
)

// The compute variants of both paths write an RGBA8 storage image instead of drawing a triangle.
// GPUs with little raster hardware (the H200 draws at a fortieth of its memory bandwidth, see
// docs/performance.md) convert much faster this way; the pictures are the same.

// computeKit is what a path needs to run as a compute shader: a kit (gpu.Kit) whose set holds
// its sampled bindings plus a storage image (or buffer: the peak pass).
type computeKit struct {
	*gpu.Kit
	nspec   int
	storage uint32 // binding of the storage image or buffer
	kind    vk.DescriptorType
	// origin: the byte offsets in the push block of a placed picture's origin, x and y (the
	// conversions' kits; ComputeBinding.Place), floats where originFloat, else ints; nil: the
	// kit's shader places nothing.
	origin      []int
	originFloat bool
}

func newComputeKit(d *gpu.Device, sampled []vk.DescriptorSetLayoutBinding, sampledPerSet uint32,
	module []byte, pushBytes uint32, nspec int, kind vk.DescriptorType) (*computeKit, error) {
	k := &computeKit{nspec: nspec, storage: uint32(len(sampled)), kind: kind}
	bindings := append(append([]vk.DescriptorSetLayoutBinding{}, sampled...), vk.DescriptorSetLayoutBinding{
		Binding: k.storage, DescriptorType: kind, DescriptorCount: 1,
		StageFlags: vk.ShaderStageFlags(vk.ShaderStageComputeBit)})
	var err error
	// The pass's pools grow: a wall of many streams binds a set per picture of each stream (its
	// slots and hardware frames), more than any fixed pool holds (VK_ERROR_OUT_OF_POOL_MEMORY at 16
	// streams).
	k.Kit, err = d.NewKit(gpu.KitDesc{Name: "ycbcr: compute", Bindings: bindings,
		PerSet:     []vk.DescriptorPoolSize{{Type: vk.DescriptorTypeCombinedImageSampler, DescriptorCount: sampledPerSet}, {Type: kind, DescriptorCount: 1}},
		PushStages: vk.ShaderStageComputeBit, PushBytes: pushBytes, Shaders: []gpu.Shader{{Kind: gpu.Compute, Code: module}}})
	if err != nil {
		return nil, err
	}
	return k, nil
}

// pipeline is the kit's pipeline for the first nspec constants of spec.
func (k *computeKit) pipeline(spec []int32) (vk.Pipeline, error) {
	return k.Pipeline(0, vk.NullRenderPass, 0, spec[:k.nspec])
}

func (k *computeKit) destroy() {
	if k != nil {
		k.Kit.Destroy()
	}
}

// ComputeBinding is a planes.Image bound for conversion by a compute shader into a storage image.
type ComputeBinding struct {
	set  gpu.Set
	kit  *computeKit
	spec Spec
	// full is spec and place.glsl's constants (Place): what the pipeline is specialized with
	// (Dispatch copies spec in).
	full  [shaders.ComputeSpecConstants]int32
	at    [2]int // a placed picture's origin (Place)
	push  []byte
	views []vk.ImageView // owned views (the sampler path's view with the conversion)
	dev   *gpu.Device
	im    *planes.Image // the sampler path's image: its direct loads are refused (Dispatch)
}

func (k *computeKit) bind(d *gpu.Device, sampled []vk.ImageView, sampler vk.Sampler, target vk.ImageView) (gpu.Set, error) {
	set, err := k.Allocate()
	if err != nil {
		return set, err
	}
	writeImages(d.Device, set.Set, sampled, sampler)
	if k.kind == vk.DescriptorTypeStorageImage {
		vkx.WriteStorageImage(d.Device, set.Set, k.storage, target)
	}
	return set, nil
}

// Place makes the binding write its width×height picture at (x, y) of its target, a larger image
// (a wall's canvas), instead of filling the target: the picture is converted exactly as into an
// image of its own (the same coordinates and dither pattern), only stored elsewhere. A binding is
// placed before its first Dispatch; each size is a pipeline of its own (place.glsl).
func (b *ComputeBinding) Place(x, y, width, height int) error {
	if b.kit.origin == nil {
		return fmt.Errorf("ycbcr: compute: this pass does not place its picture")
	}
	if x < 0 || y < 0 || width <= 0 || height <= 0 {
		return fmt.Errorf("ycbcr: compute: a %dx%d picture placed at (%d, %d)", width, height, x, y)
	}
	b.at = [2]int{x, y}
	b.full[shaders.PlaceConstant], b.full[shaders.PlaceConstant+1] = int32(width), int32(height)
	b.setPush(b.push)
	return nil
}

// setPush makes push the binding's push constants, with the placed picture's origin where the
// kit's shader reads it: a float in the shader path's block (the rows' unused w), an int in the
// sampler path's.
func (b *ComputeBinding) setPush(push []byte) {
	b.push = push
	if b.kit.origin == nil || b.full[shaders.PlaceConstant] == 0 {
		return
	}
	for i, off := range b.kit.origin {
		v := uint32(b.at[i])
		if b.kit.originFloat {
			v = math.Float32bits(float32(b.at[i]))
		}
		binary.LittleEndian.PutUint32(b.push[off:], v)
	}
}

// Dispatch records the conversion of the whole picture into the target (a width×height image in
// GENERAL layout, with STORAGE usage; placed, the picture's rectangle of it).
func (b *ComputeBinding) Dispatch(cb vk.CommandBuffer, width, height int) error {
	if b.im != nil {
		if img, _ := b.im.SamplerImage(); img != b.im.Multi {
			return fmt.Errorf("ycbcr: compute: the last load was direct (the frame's memory in place), which only drawn bindings sample")
		}
	}
	copy(b.full[:], b.spec[:]) // spec may have changed since the binding was made (Paths.BindCompute's dither)
	pipe, err := b.kit.pipeline(b.full[:])
	if err != nil {
		return err
	}
	b.kit.Bind(cb, pipe, b.set.Set, b.push)
	g := shaders.ComputeGroup
	vk.CmdDispatch(cb, uint32((width+g[0]-1)/g[0]), uint32((height+g[1]-1)/g[1]), 1)
	return nil
}

// Destroy frees the binding's views and descriptor set. The GPU must be done with them.
func (b *ComputeBinding) Destroy() {
	for _, v := range b.views {
		vk.DestroyImageView(b.dev.Device, v, nil)
	}
	b.kit.Free(b.set)
}

// BindCompute binds im's multi-planar image through the conversion for the compute variant.
func (cv *Conversion) BindCompute(im *planes.Image, target vk.ImageView) (*ComputeBinding, error) {
	cv.kit.Lock()
	defer cv.kit.Unlock()
	if cv.compute == nil {
		k, err := newComputeKit(cv.dev, []vk.DescriptorSetLayoutBinding{{Binding: 0, DescriptorType: vk.DescriptorTypeCombinedImageSampler,
			DescriptorCount: 1, StageFlags: vk.ShaderStageFlags(vk.ShaderStageComputeBit), PImmutableSamplers: []vk.Sampler{cv.Sampler}}},
			cv.DescriptorCount, shaders.SamplerComp, shaders.SamplerCompParamsSize, shaders.ComputeSpecConstants, vk.DescriptorTypeStorageImage) // dither.glsl's, place.glsl's
		if err != nil {
			return nil, fmt.Errorf("ycbcr: compute: %w", err)
		}
		k.origin = []int{shaders.SamplerParamsSize, shaders.SamplerParamsSize + 4}
		cv.compute = k
	}
	view, err := cv.view(im)
	if err != nil {
		return nil, err
	}
	set, err := cv.compute.bind(cv.dev, []vk.ImageView{view}, vk.NullSampler, target)
	if err != nil {
		vk.DestroyImageView(cv.dev.Device, view, nil)
		return nil, fmt.Errorf("ycbcr: compute: %w", err)
	}
	push := binary.LittleEndian.AppendUint32(nil, math.Float32bits(float32(im.Width)/float32(im.PaddedWidth)))
	push = binary.LittleEndian.AppendUint32(push, math.Float32bits(float32(im.Height)/float32(im.PaddedHeight)))
	push = append(push, make([]byte, shaders.SamplerCompParamsSize-len(push))...) // the origin: none
	return &ComputeBinding{set: set, kit: cv.compute, push: push, views: []vk.ImageView{view}, dev: cv.dev, im: im}, nil
}

// BindCompute binds im's textures with the constants for p for the compute variant.
func (sp *ShaderPath) BindCompute(im *planes.Image, p Params, target vk.ImageView) (*ComputeBinding, error) {
	views, consts, err := shaderInputs(im, p)
	if err != nil {
		return nil, err
	}
	sp.kits.Lock()
	defer sp.kits.Unlock()
	k, err := sp.computeKit(&sp.compute, shaders.ShaderComp, vk.DescriptorTypeStorageImage, shaders.ComputeSpecConstants)
	if err != nil {
		return nil, fmt.Errorf("ycbcr: compute: %w", err)
	}
	set, err := k.bind(sp.dev, views, sp.Sampler, target)
	if err != nil {
		return nil, err
	}
	return &ComputeBinding{set: set, kit: k, spec: withDither(consts.Spec(), p.Dither, vk.FormatR8g8b8a8Unorm), push: consts.Bytes(), dev: sp.dev}, nil
}

// computeKit is *k, made on first use: a compute kit over the shader path's textures that runs spv,
// with a storage binding of kind (BindCompute's image, BindPeak's buffer) and nspec specialization
// constants. sp.kits must be held.
func (sp *ShaderPath) computeKit(k **computeKit, spv []byte, kind vk.DescriptorType, nspec int) (*computeKit, error) {
	if *k == nil {
		made, err := newComputeKit(sp.dev, gpu.Textures(maxTextures, vk.ShaderStageComputeBit), maxTextures, spv,
			shaders.ShaderParamsSize, nspec, kind)
		if err != nil {
			return nil, err
		}
		if kind == vk.DescriptorTypeStorageImage { // the conversion: a placed picture's origin in the first two rows' w (shader.comp)
			made.origin, made.originFloat = []int{12, 28}, true
		}
		*k = made
	}
	return *k, nil
}

// shaderInputs are what the shader path reads of im for a stream with p: its textures' views and
// its constants.
func shaderInputs(im *planes.Image, p Params) ([]vk.ImageView, *ShaderConstants, error) {
	views, err := textureViews(im)
	if err != nil {
		return nil, nil, err
	}
	consts, err := p.ShaderFor(im)
	return views, consts, err
}
