package ycbcr

import (
	"encoding/binary"
	"fmt"
	"math"
	"sync"
	"unsafe"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/gpu"
	"github.com/ycbcrkit/ycbcrkit/internal/vkx"
	"github.com/ycbcrkit/ycbcrkit/planes"
	"github.com/ycbcrkit/ycbcrkit/shaders"
)

// The compute variants of both paths write an RGBA8 storage image instead of drawing a triangle.
// GPUs with little raster hardware (the H200 draws at a fortieth of its memory bandwidth, see
// docs/performance.md) convert much faster this way; the pictures are the same.

// computeKit is what a path needs to run as a compute shader: its sampled bindings plus a storage
// image (or buffer: the peak pass) in one set layout, the pipeline layout, descriptor pools and
// pipelines by specialization.
type computeKit struct {
	mu        sync.Mutex // guards byKey
	setLayout vk.DescriptorSetLayout
	layout    vk.PipelineLayout
	pools     *setPools
	module    []byte
	nspec     int
	storage   uint32 // binding of the storage image or buffer
	kind      vk.DescriptorType
	byKey     map[Spec]vk.Pipeline
}

func newComputeKit(d *gpu.Device, sampled []vk.DescriptorSetLayoutBinding, sampledPerSet uint32,
	module []byte, pushBytes uint32, nspec int, kind vk.DescriptorType) (*computeKit, error) {
	k := &computeKit{module: module, nspec: nspec, storage: uint32(len(sampled)), kind: kind, byKey: map[Spec]vk.Pipeline{}}
	bindings := append(append([]vk.DescriptorSetLayoutBinding{}, sampled...), vk.DescriptorSetLayoutBinding{
		Binding: k.storage, DescriptorType: kind, DescriptorCount: 1,
		StageFlags: vk.ShaderStageFlags(vk.ShaderStageComputeBit)})
	var err error
	if k.setLayout, err = d.NewSetLayout(bindings); err != nil {
		return nil, err
	}
	if k.layout, err = d.NewPipelineLayout(k.setLayout, vk.ShaderStageComputeBit, pushBytes); err != nil {
		k.destroy(d.Device)
		return nil, err
	}
	// Pools that grow: a wall of many streams binds a set per picture of each stream (its slots and
	// hardware frames), more than any fixed pool holds (VK_ERROR_OUT_OF_POOL_MEMORY at 16 streams).
	k.pools, err = newSetPoolsOf(d, []vk.DescriptorPoolSize{
		{Type: vk.DescriptorTypeCombinedImageSampler, DescriptorCount: sampledPerSet}, {Type: kind, DescriptorCount: 1}})
	if err != nil {
		k.destroy(d.Device)
		return nil, err
	}
	return k, nil
}

func (k *computeKit) pipeline(d *gpu.Device, spec Spec) (vk.Pipeline, error) {
	dev := d.Device
	k.mu.Lock()
	defer k.mu.Unlock()
	if p, ok := k.byKey[spec]; ok {
		return p, nil
	}
	cs, err := vkx.ShaderModule(dev, k.module)
	if err != nil {
		return vk.NullPipeline, err
	}
	defer vk.DestroyShaderModule(dev, cs, nil)
	p, err := vkx.ComputePipeline(dev, d.PipelineCache(), k.layout, cs, spec[:k.nspec])
	if err != nil {
		return vk.NullPipeline, fmt.Errorf("ycbcr: compute pipeline: %w", err)
	}
	k.byKey[spec] = p
	return p, nil
}

func (k *computeKit) destroy(dev vk.Device) {
	for _, p := range k.byKey {
		vk.DestroyPipeline(dev, p, nil)
	}
	k.byKey = nil
	k.pools.destroy()
	if k.layout != vk.NullPipelineLayout {
		vk.DestroyPipelineLayout(dev, k.layout, nil)
	}
	if k.setLayout != vk.NullDescriptorSetLayout {
		vk.DestroyDescriptorSetLayout(dev, k.setLayout, nil)
	}
}

// ComputeBinding is a planes.Image bound for conversion by a compute shader into a storage image.
type ComputeBinding struct {
	set   vk.DescriptorSet
	pool  vk.DescriptorPool // the one of kit.pools set came from
	kit   *computeKit
	spec  Spec
	push  []byte
	views []vk.ImageView // owned views (the sampler path's view with the conversion)
	dev   *gpu.Device
	im    *planes.Image // the sampler path's image: its direct loads are refused (Dispatch)
}

func (k *computeKit) bind(d *gpu.Device, sampled []vk.ImageView, sampler vk.Sampler, target vk.ImageView) (vk.DescriptorSet, vk.DescriptorPool, error) {
	set, pool, err := k.pools.allocate(k.setLayout)
	if err != nil {
		return set, pool, err
	}
	writeImages(d.Device, set, sampled, sampler)
	if k.kind == vk.DescriptorTypeStorageImage {
		vkx.WriteStorageImage(d.Device, set, k.storage, target)
	}
	return set, pool, nil
}

// Dispatch records the conversion of the whole picture into the target (a width×height image in
// GENERAL layout, with STORAGE usage).
func (b *ComputeBinding) Dispatch(cb vk.CommandBuffer, width, height int) error {
	if b.im != nil {
		if img, _ := b.im.SamplerImage(); img != b.im.Multi {
			return fmt.Errorf("ycbcr: compute: the last load was direct (the frame's memory in place), which only drawn bindings sample")
		}
	}
	pipe, err := b.kit.pipeline(b.dev, b.spec)
	if err != nil {
		return err
	}
	vk.CmdBindPipeline(cb, vk.PipelineBindPointCompute, pipe)
	vk.CmdBindDescriptorSets(cb, vk.PipelineBindPointCompute, b.kit.layout, 0, 1, []vk.DescriptorSet{b.set}, 0, nil)
	vk.CmdPushConstants(cb, b.kit.layout, vk.ShaderStageFlags(vk.ShaderStageComputeBit), 0, uint32(len(b.push)), unsafe.Pointer(&b.push[0]))
	g := shaders.ComputeGroup
	vk.CmdDispatch(cb, uint32((width+g[0]-1)/g[0]), uint32((height+g[1]-1)/g[1]), 1)
	return nil
}

// Destroy frees the binding's views and descriptor set. The GPU must be done with them.
func (b *ComputeBinding) Destroy() {
	for _, v := range b.views {
		vk.DestroyImageView(b.dev.Device, v, nil)
	}
	b.kit.pools.free(b.pool, b.set)
}

// BindCompute binds im's multi-planar image through the conversion for the compute variant.
func (cv *Conversion) BindCompute(im *planes.Image, target vk.ImageView) (*ComputeBinding, error) {
	cv.kit.Lock()
	defer cv.kit.Unlock()
	if cv.compute == nil {
		k, err := newComputeKit(cv.dev, []vk.DescriptorSetLayoutBinding{{Binding: 0, DescriptorType: vk.DescriptorTypeCombinedImageSampler,
			DescriptorCount: 1, StageFlags: vk.ShaderStageFlags(vk.ShaderStageComputeBit), PImmutableSamplers: []vk.Sampler{cv.Sampler}}},
			cv.DescriptorCount, shaders.SamplerComp, shaders.SamplerParamsSize, shaders.ShaderSpecConstants, vk.DescriptorTypeStorageImage) // dither.glsl's
		if err != nil {
			return nil, fmt.Errorf("ycbcr: compute: %w", err)
		}
		cv.compute = k
	}
	view, err := cv.view(im)
	if err != nil {
		return nil, err
	}
	set, pool, err := cv.compute.bind(cv.dev, []vk.ImageView{view}, vk.NullSampler, target)
	if err != nil {
		vk.DestroyImageView(cv.dev.Device, view, nil)
		return nil, fmt.Errorf("ycbcr: compute: %w", err)
	}
	push := binary.LittleEndian.AppendUint32(nil, math.Float32bits(float32(im.Width)/float32(im.PaddedWidth)))
	push = binary.LittleEndian.AppendUint32(push, math.Float32bits(float32(im.Height)/float32(im.PaddedHeight)))
	return &ComputeBinding{set: set, pool: pool, kit: cv.compute, push: push, views: []vk.ImageView{view}, dev: cv.dev, im: im}, nil
}

// BindCompute binds im's textures with the constants for p for the compute variant.
func (sp *ShaderPath) BindCompute(im *planes.Image, p Params, target vk.ImageView) (*ComputeBinding, error) {
	views, consts, err := shaderInputs(im, p)
	if err != nil {
		return nil, err
	}
	sp.kits.Lock()
	defer sp.kits.Unlock()
	k, err := sp.computeKit(&sp.compute, shaders.ShaderComp, vk.DescriptorTypeStorageImage)
	if err != nil {
		return nil, fmt.Errorf("ycbcr: compute: %w", err)
	}
	set, pool, err := k.bind(sp.dev, views, sp.Sampler, target)
	if err != nil {
		return nil, fmt.Errorf("ycbcr: compute: %w", err)
	}
	return &ComputeBinding{set: set, pool: pool, kit: k, spec: withDither(consts.Spec(), p.Dither, vk.FormatR8g8b8a8Unorm), push: consts.Bytes(), dev: sp.dev}, nil
}

// computeKit is *k, made on first use: a compute kit over the shader path's textures that runs spv,
// with a storage binding of kind (BindCompute's image, BindPeak's buffer). sp.kits must be held.
func (sp *ShaderPath) computeKit(k **computeKit, spv []byte, kind vk.DescriptorType) (*computeKit, error) {
	if *k == nil {
		made, err := newComputeKit(sp.dev, textureBindings(maxTextures, vk.ShaderStageComputeBit), maxTextures, spv,
			shaders.ShaderParamsSize, shaders.ShaderSpecConstants, kind)
		if err != nil {
			return nil, err
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
