package ycbcr

import (
	"encoding/binary"
	"fmt"
	"math"
	"sync"
	"unsafe"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/gpu"
	"github.com/ycbcrkit/ycbcrkit/internal/vkx"
	"github.com/ycbcrkit/ycbcrkit/planes"
	"github.com/ycbcrkit/ycbcrkit/shaders"
)

// Key is everything that defines a VkSamplerYcbcrConversion (and so its immutable sampler, set
// layout, pipeline layout and pipelines): equal keys share one cached Conversion.
type Key struct {
	Format           formats.VkFormat
	Model            formats.Model
	Range            formats.YcbcrRange
	XOffset, YOffset formats.ChromaOffset
	ChromaFilter     vk.Filter
	SwapCbCr         bool
	ForceExplicit    bool
}

func (k Key) String() string {
	s := fmt.Sprintf("%s %s %s x=%s y=%s", k.Format, k.Model, k.Range, k.XOffset, k.YOffset)
	if k.ChromaFilter == vk.FilterNearest {
		s += " nearest"
	}
	if k.SwapCbCr {
		s += " swap-cbcr"
	}
	if k.ForceExplicit {
		s += " explicit"
	}
	return s
}

// SamplerKey answers whether the device's sampler can express params for layout pf exactly (LINEAR
// chroma reconstruction at the stream's siting): the key, or an error that says why not.
func SamplerKey(dev *gpu.Device, pf *formats.PixelFormat, p Params) (Key, error) {
	if pf.VkFormat == 0 {
		return Key{}, fmt.Errorf("%s: %s", pf.Name, pf.NoSamplerReason)
	}
	return samplerKey(vkx.FormatProperties(dev.Physical, uint32(pf.VkFormat)).Optimal, pf, p)
}

// samplerKey is SamplerKey for a format with the given optimal-tiling features: what the device
// answers is all it depends on.
func samplerKey(feats vk.FormatFeatureFlags, pf *formats.PixelFormat, p Params) (Key, error) {
	k := Key{Format: pf.VkFormat, SwapCbCr: pf.SwapCbCr, ChromaFilter: vk.FilterLinear}
	if k := p.Transfer.Kind(); p.Transfer != 0 && p.Tone != ToneOff && (k == formats.TransferPQ || k == formats.TransferHLG) {
		return Key{}, fmt.Errorf("transfer %s: tone mapping to SDR (-tonemap %s) runs in the shader path's colour stage", p.Transfer, p.Tone)
	}
	if p.Output != OutputSDR {
		return Key{}, fmt.Errorf("%s output: display light runs in the shader path's colour stage", p.Output)
	}
	var err error
	if p.YCbCrIdentity {
		k.Model = formats.ModelYCbCrIdentity
	} else if k.Model, err = p.Matrix.Model(); err != nil {
		return Key{}, err
	}
	if k.Range, err = p.Range.Vulkan(); err != nil {
		return Key{}, err
	}
	if k.Model == formats.ModelRGBIdentity && k.Range != formats.RangeITUFull {
		return Key{}, fmt.Errorf("RGB identity ignores the range: limited-range RGB needs the shader path")
	}
	if k.XOffset, k.YOffset, err = p.ChromaLocation.Offsets(pf.Log2ChromaW, pf.Log2ChromaH); err != nil {
		return Key{}, err
	}
	has := func(b vk.FormatFeatureFlagBits) bool { return feats&vk.FormatFeatureFlags(b) != 0 }
	if !has(vk.FormatFeatureSampledImageBit) {
		return Key{}, fmt.Errorf("device cannot sample %s", pf.VkFormat)
	}
	offsetOK := func(o formats.ChromaOffset, subsampled bool, axis string) (formats.ChromaOffset, error) {
		cos, mid := has(vk.FormatFeatureCositedChromaSamplesBit), has(vk.FormatFeatureMidpointChromaSamplesBit)
		if !cos && !mid { // VUID-VkSamplerYcbcrConversionCreateInfo-format-01650
			return o, fmt.Errorf("device offers neither COSITED nor MIDPOINT chroma samples for %s", pf.VkFormat)
		}
		if !subsampled { // the offset has no effect: any supported one will do
			if cos {
				return formats.CositedEven, nil
			}
			return formats.Midpoint, nil
		}
		if o == formats.Midpoint && !mid {
			return o, fmt.Errorf("device has no MIDPOINT chroma samples for %s (%s siting on %s)", pf.VkFormat, p.ChromaLocation, axis)
		}
		if o == formats.CositedEven && !cos {
			return o, fmt.Errorf("device has no COSITED chroma samples for %s (%s siting on %s)", pf.VkFormat, p.ChromaLocation, axis)
		}
		return o, nil
	}
	if k.XOffset, err = offsetOK(k.XOffset, pf.Log2ChromaW > 0, "x"); err != nil {
		return Key{}, err
	}
	if k.YOffset, err = offsetOK(k.YOffset, pf.Log2ChromaH > 0, "y"); err != nil {
		return Key{}, err
	}
	if !has(vk.FormatFeatureSampledImageYcbcrConversionLinearFilterBit) {
		return Key{}, fmt.Errorf("device has no LINEAR chroma filter for %s", pf.VkFormat)
	}
	return k, nil
}

// Conversion is one VkSamplerYcbcrConversion with what is built on it: the sampler, the descriptor
// set layout that holds it as an immutable sampler, the pipeline layout, pipelines per render pass,
// and a descriptor pool sized by combinedImageSamplerDescriptorCount.
type Conversion struct {
	Key       Key
	Handle    vk.SamplerYcbcrConversion
	Sampler   vk.Sampler
	SetLayout vk.DescriptorSetLayout
	// DescriptorCount is combinedImageSamplerDescriptorCount: descriptors one binding consumes.
	DescriptorCount uint32
	pass            *gpu.Kit    // the drawn conversion: SetLayout and the pipeline layout are its
	kit             sync.Mutex  // guards making compute
	compute         *computeKit // made by the first BindCompute
	dev             *gpu.Device
}

// Cache holds conversions by key, like Granite's: the immutable sampler is part of the layout, so
// anything keyed on the layout is keyed on the conversion too. Safe for concurrent use.
type Cache struct {
	mu    sync.Mutex // guards byKey
	dev   *gpu.Device
	byKey map[Key]*Conversion
}

// NewCache makes an empty cache for a device.
func NewCache(dev *gpu.Device) *Cache { return &Cache{dev: dev, byKey: map[Key]*Conversion{}} }

// Get returns the conversion for k, creating it on first use.
func (c *Cache) Get(k Key) (*Conversion, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if cv, ok := c.byKey[k]; ok {
		return cv, nil
	}
	cv := &Conversion{Key: k, dev: c.dev}
	if err := cv.init(); err != nil {
		cv.destroy()
		return nil, fmt.Errorf("ycbcr: conversion %s: %w", k, err)
	}
	c.byKey[k] = cv
	return cv, nil
}

// BySampler is the key of the cached conversion whose immutable sampler is s: what a texture's
// user needs to describe the conversion (videotex.Frame.Conversion); false if none is.
func (c *Cache) BySampler(s vk.Sampler) (Key, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for k, cv := range c.byKey {
		if cv.Sampler == s {
			return k, true
		}
	}
	return Key{}, false
}

// Len is the number of cached conversions.
func (c *Cache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.byKey)
}

// Destroy destroys every cached conversion. The GPU must be done with them.
func (c *Cache) Destroy() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, cv := range c.byKey {
		cv.destroy()
	}
	c.byKey = map[Key]*Conversion{}
}

// createInfo is the VkSamplerYcbcrConversionCreateInfo of k. A key whose fields lie outside the
// enums they stand for is refused here, before the driver sees it: each enum parameter must be a
// value the enum defines (VUID-VkSamplerYcbcrConversionCreateInfo-ycbcrModel-parameter,
// -ycbcrRange-parameter, -xChromaOffset-parameter, -yChromaOffset-parameter, -chromaFilter-parameter).
func (k Key) createInfo() (vkx.ConversionCreateInfo, error) {
	switch {
	case k.Format == 0:
		return vkx.ConversionCreateInfo{}, fmt.Errorf("ycbcr: conversion without a format")
	case k.Model > formats.ModelYCbCr2020:
		return vkx.ConversionCreateInfo{}, fmt.Errorf("ycbcr: ycbcrModel %d is not a VkSamplerYcbcrModelConversion", uint32(k.Model))
	case k.Range > formats.RangeITUNarrow:
		return vkx.ConversionCreateInfo{}, fmt.Errorf("ycbcr: ycbcrRange %d is not a VkSamplerYcbcrRange", uint32(k.Range))
	case k.XOffset > formats.Midpoint || k.YOffset > formats.Midpoint:
		return vkx.ConversionCreateInfo{}, fmt.Errorf("ycbcr: chroma offsets %d, %d: VkChromaLocation has 0 and 1 only", uint32(k.XOffset), uint32(k.YOffset))
	case k.ChromaFilter != vk.FilterNearest && k.ChromaFilter != vk.FilterLinear:
		return vkx.ConversionCreateInfo{}, fmt.Errorf("ycbcr: chromaFilter %d is neither NEAREST nor LINEAR", k.ChromaFilter)
	}
	ci := vkx.ConversionCreateInfo{Format: uint32(k.Format), Model: uint32(k.Model), Range: uint32(k.Range),
		XChromaOffset: uint32(k.XOffset), YChromaOffset: uint32(k.YOffset), ChromaFilter: k.ChromaFilter,
		ForceExplicitReconstruction: k.ForceExplicit}
	if k.SwapCbCr { // the only non-identity swizzle Vulkan allows on 4:2:x formats (VUIDs 02583–02585)
		ci.Components = [4]vk.ComponentSwizzle{vk.ComponentSwizzleB, vk.ComponentSwizzleIdentity, vk.ComponentSwizzleR, vk.ComponentSwizzleIdentity}
	}
	return ci, nil
}

// samplerCreateInfo is the create info of the conversion's immutable sampler, pNext its
// VkSamplerYcbcrConversionInfo: min and mag filters equal to the chroma filter (the format has no
// SEPARATE_RECONSTRUCTION_FILTER to allow otherwise: VUID-VkSamplerCreateInfo-minFilter-01645),
// every address mode CLAMP_TO_EDGE, no anisotropy and normalized coordinates (VUIDs 01646, 01647).
func (k Key) samplerCreateInfo(pNext unsafe.Pointer) *vk.SamplerCreateInfo {
	return &vk.SamplerCreateInfo{SType: vk.StructureTypeSamplerCreateInfo, PNext: pNext,
		MagFilter: k.ChromaFilter, MinFilter: k.ChromaFilter, MipmapMode: vk.SamplerMipmapModeNearest,
		AddressModeU: vk.SamplerAddressModeClampToEdge, AddressModeV: vk.SamplerAddressModeClampToEdge,
		AddressModeW: vk.SamplerAddressModeClampToEdge, BorderColor: vk.BorderColorFloatOpaqueBlack}
}

func (cv *Conversion) init() error {
	d, k := cv.dev, cv.Key
	ci, err := k.createInfo()
	if err != nil {
		return err
	}
	if cv.Handle, err = vkx.CreateConversion(d.Device, ci); err != nil {
		return err
	}
	info, err := vkx.ImageFormatProperties(d.Physical, vkx.ImageFormatQuery{Format: uint32(k.Format), Tiling: vk.ImageTilingOptimal,
		Usage: vk.ImageUsageFlags(vk.ImageUsageSampledBit | vk.ImageUsageTransferDstBit)})
	if err != nil {
		return err
	}
	cv.DescriptorCount = max(info.CombinedImageSamplerDescriptorCount, 1)

	conv := vkx.NewConversionInfo(cv.Handle)
	defer conv.Free()
	si := k.samplerCreateInfo(conv.Pointer())
	var sampler vk.Sampler
	err = vkx.Check(vk.CreateSampler(d.Device, si, nil, &sampler), "vkCreateSampler")
	si.Free()
	if err != nil {
		return err
	}
	cv.Sampler = sampler
	// A conversion's sampler must be immutable, part of the set layout (Vulkan spec,
	// VkDescriptorSetLayoutBinding), and a set takes DescriptorCount descriptors of the pool.
	cv.pass, err = drawPass(d, "conversion", []vk.DescriptorSetLayoutBinding{{Binding: 0, DescriptorType: vk.DescriptorTypeCombinedImageSampler,
		DescriptorCount: 1, StageFlags: vk.ShaderStageFlags(vk.ShaderStageFragmentBit), PImmutableSamplers: []vk.Sampler{sampler}}},
		[]vk.DescriptorPoolSize{{Type: vk.DescriptorTypeCombinedImageSampler, DescriptorCount: cv.DescriptorCount}},
		shaders.SamplerFrag, shaders.SamplerParamsSize)
	if err != nil {
		return err
	}
	cv.SetLayout = cv.pass.SetLayout
	return nil
}

func (cv *Conversion) destroy() {
	dev := cv.dev.Device
	cv.compute.destroy()
	cv.pass.Destroy()
	if cv.Sampler != vk.NullSampler {
		vk.DestroySampler(dev, cv.Sampler, nil)
	}
	if cv.Handle != nil {
		vkx.DestroyConversion(dev, cv.Handle)
	}
}

// PipelineLayout is the layout an engine's pipeline must use with this conversion's set layout.
func (cv *Conversion) PipelineLayout() vk.PipelineLayout { return cv.pass.Layout }

// Binding is a planes.Image bound for drawing through one path: its views and descriptor set.
type Binding struct {
	views []vk.ImageView // owned views (the sampler path's view with the conversion)
	// The sampler path follows planes.Image.SamplerImage: a direct load samples the frame's own
	// memory, with a view of its own (made once per image, kept in direct).
	im     *planes.Image
	cv     *Conversion
	bound  vk.Image
	direct map[vk.Image]vk.ImageView
	set    gpu.Set
	pass   *gpu.Kit
	nspec  int  // how many of spec the pass's shader declares
	spec   Spec // specialization constants of the shader path's pipeline
	dither Dither
	push   []byte
	dev    *gpu.Device
	Reason string // which path and why, for info displays
}

// Bind makes the Y′CbCr view of im's multi-planar image and a descriptor set for it.
func (cv *Conversion) Bind(im *planes.Image) (*Binding, error) {
	if im.Multi == vk.NullImage {
		return nil, fmt.Errorf("ycbcr: bind: image has no multi-planar image (made without the sampler path)")
	}
	view, err := cv.view(im)
	if err != nil {
		return nil, err
	}
	set, err := cv.pass.Allocate()
	if err != nil {
		vk.DestroyImageView(cv.dev.Device, view, nil)
		return nil, fmt.Errorf("ycbcr: bind: %w", err)
	}
	// The sampler is immutable: the write's sampler is ignored, the view is what changes.
	writeImages(cv.dev.Device, set.Set, []vk.ImageView{view}, vk.NullSampler)
	push := make([]byte, 0, 8)
	push = binary.LittleEndian.AppendUint32(push, math.Float32bits(float32(im.Width)/float32(im.PaddedWidth)))
	push = binary.LittleEndian.AppendUint32(push, math.Float32bits(float32(im.Height)/float32(im.PaddedHeight)))
	return &Binding{views: []vk.ImageView{view}, set: set, pass: cv.pass, nspec: shaders.ShaderSpecConstants, push: push, dev: cv.dev,
		im: im, cv: cv, bound: im.Multi}, nil
}

// follow points the set at the image the last Load left to sample (planes.Image.SamplerImage), if
// that changed. The set is rewritten, so the submissions that used it must have completed: the same
// rule as for Load.
func (b *Binding) follow() error {
	if b.im == nil {
		return nil
	}
	img, layout := b.im.SamplerImage()
	if img == b.bound {
		return nil
	}
	view := b.views[0]
	if img != b.im.Multi {
		var ok bool
		if view, ok = b.direct[img]; !ok {
			conv := vkx.NewConversionInfo(b.cv.Handle)
			v, err := b.dev.NewView(img, vk.Format(b.cv.Key.Format), vk.ImageAspectColorBit, &conv)
			conv.Free()
			if err != nil {
				return fmt.Errorf("ycbcr: direct view: %w", err)
			}
			if b.direct == nil {
				b.direct = map[vk.Image]vk.ImageView{}
			}
			b.direct[img], view = v, v
		}
	}
	vkx.WriteImages(b.dev.Device, b.set.Set, []vk.ImageView{view}, vk.NullSampler, layout)
	b.bound = img
	return nil
}

// view makes the Y′CbCr view of im's multi-planar image, with the conversion chained.
func (cv *Conversion) view(im *planes.Image) (vk.ImageView, error) {
	if im.Multi == vk.NullImage {
		return vk.NullImageView, fmt.Errorf("ycbcr: bind: image has no multi-planar image (made without the sampler path)")
	}
	if im.Foreign() {
		// An image made by another library (a decoder's, with VIDEO_DECODE usages): the view is
		// limited to sampling (VkImageViewUsageCreateInfo).
		view, err := vkx.CreateView(cv.dev.Device, im.Multi, vk.Format(cv.Key.Format),
			vk.ImageAspectFlags(vk.ImageAspectColorBit), cv.Handle, vk.ImageUsageFlags(vk.ImageUsageSampledBit))
		if err != nil {
			return vk.NullImageView, fmt.Errorf("ycbcr: bind a foreign image: %w", err)
		}
		return view, nil
	}
	conv := vkx.NewConversionInfo(cv.Handle)
	defer conv.Free()
	view, err := cv.dev.NewView(im.Multi, vk.Format(cv.Key.Format), vk.ImageAspectColorBit, &conv)
	if err != nil {
		return vk.NullImageView, fmt.Errorf("ycbcr: bind: %w", err)
	}
	return view, nil
}

// Draw records the conversion draw into target's render pass, begun on cb with the viewport set.
func (b *Binding) Draw(cb vk.CommandBuffer, target Target) error {
	return b.DrawWith(cb, target, b.dither)
}

// DrawWith is Draw with dither d instead of the binding's own (Params.Dither): a screenshot of the
// exact picture from the bindings that show it dithered.
func (b *Binding) DrawWith(cb vk.CommandBuffer, target Target, d Dither) error {
	if err := b.follow(); err != nil {
		return err
	}
	pipe, err := drawPipeline(b.pass, target, b.spec, b.nspec, d)
	if err != nil {
		return err
	}
	draw(cb, b.pass, pipe, b.set.Set, b.push)
	return nil
}

// Destroy frees the binding's views and descriptor set. The GPU must be done with them.
func (b *Binding) Destroy() {
	for _, v := range b.views {
		vk.DestroyImageView(b.dev.Device, v, nil)
	}
	for _, v := range b.direct {
		vk.DestroyImageView(b.dev.Device, v, nil)
	}
	b.pass.Free(b.set)
}
