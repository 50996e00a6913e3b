package ycbcr

import (
	"fmt"
	"math"
	"sync"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/gpu"
	"github.com/ycbcrkit/ycbcrkit/planes"
	"github.com/ycbcrkit/ycbcrkit/shaders"
)

// maxTextures is the number of texture bindings shader.frag declares.
const maxTextures = 3

// ShaderPath converts in the fragment shader from plain per-plane textures: every layout, matrix and
// siting the table and metadata describe, including what the Y′CbCr sampler cannot express.
type ShaderPath struct {
	Sampler vk.Sampler // nearest, clamp to edge: the shader fetches texels and filters them itself
	pass    *gpu.Kit
	kits    sync.Mutex  // guards making compute and peak
	compute *computeKit // made by the first BindCompute
	peak    *computeKit // made by the first BindPeak
	dev     *gpu.Device
}

// NewShaderPath creates the sampler, layouts and descriptor pool of the shader path.
func NewShaderPath(dev *gpu.Device) (*ShaderPath, error) {
	sp := &ShaderPath{dev: dev}
	if err := sp.init(); err != nil {
		sp.Destroy()
		return nil, fmt.Errorf("ycbcr: shader path: %w", err)
	}
	return sp, nil
}

func (sp *ShaderPath) init() error {
	var err error
	if sp.Sampler, err = sp.dev.NewSampler(vk.FilterNearest); err != nil {
		return err
	}
	sp.pass, err = drawPass(sp.dev, "shader path", gpu.Textures(maxTextures, vk.ShaderStageFragmentBit), nil,
		shaders.ShaderFrag, shaders.ShaderParamsSize)
	return err
}

// Bind makes a descriptor set for im's textures, drawn with constants c: the shader path is its
// constants (Params.ShaderFor(im) gives those of a stream's metadata), so any conversion they can
// state binds the same way.
func (sp *ShaderPath) Bind(im *planes.Image, c *ShaderConstants) (*Binding, error) {
	views, err := textureViews(im)
	if err != nil {
		return nil, err
	}
	set, err := sp.pass.Allocate()
	if err != nil {
		return nil, err
	}
	writeImages(sp.dev.Device, set.Set, views, sp.Sampler)
	return &Binding{set: set, pass: sp.pass, nspec: shaders.ShaderSpecConstants, spec: c.Spec(), push: c.Bytes(), dev: sp.dev}, nil
}

// ShaderFor is Params.Shader for im's own textures. Plane aliases (planes.Image.Aliased) hold what
// the sampler path's planes hold (planes.Image.ShaderScale) and the padded picture, which the luma
// coordinate crops; chroma coordinates are relative to whole chroma samples either way.
func (p Params) ShaderFor(im *planes.Image) (*ShaderConstants, error) {
	c, err := p.shader(im.Format, im.Width, im.Height, im.ShaderScale())
	if err != nil {
		return nil, err
	}
	if im.Aliased {
		c.Scale[3] = float32(float64(im.Width) / float64(im.PaddedWidth))
		c.Offset[3] = float32(float64(im.Height) / float64(im.PaddedHeight))
		// Chroma coordinates are relative to the picture's whole chroma samples; a foreign image's
		// chroma planes may hold more (a decoder's coded size: 544 chroma rows for 1080), so they
		// are scaled to its plane. For the toolkit's own aliases the factor is 1.
		pf := im.Format
		kx := float32(chromaCount(im.Width, pf.Log2ChromaW) / chromaCount(im.PaddedWidth, pf.Log2ChromaW))
		ky := float32(chromaCount(im.Height, pf.Log2ChromaH) / chromaCount(im.PaddedHeight, pf.Log2ChromaH))
		c.Chroma[0], c.Chroma[2] = c.Chroma[0]*kx, c.Chroma[2]*kx
		c.Chroma[1], c.Chroma[3] = c.Chroma[1]*ky, c.Chroma[3]*ky
	}
	return c, nil
}

// chromaCount is the number of chroma samples along an axis of size samples subsampled by 2^log2.
func chromaCount(size, log2 int) float64 { return math.Ceil(float64(size) / math.Exp2(float64(log2))) }

// Destroy frees what NewShaderPath made. The GPU must be done with it.
func (sp *ShaderPath) Destroy() {
	sp.compute.destroy()
	sp.peak.destroy()
	sp.pass.Destroy()
	if sp.Sampler != vk.NullSampler {
		vk.DestroySampler(sp.dev.Device, sp.Sampler, nil)
	}
}

// textureViews are the views for the shader path's texture bindings: unused bindings repeat
// texture 0, because every binding must hold a valid view.
func textureViews(im *planes.Image) ([]vk.ImageView, error) {
	if len(im.Textures) == 0 {
		return nil, fmt.Errorf("ycbcr: shader path: image has no textures (made without the shader path)")
	}
	views := make([]vk.ImageView, maxTextures)
	for i := range views {
		views[i] = im.Textures[min(i, len(im.Textures)-1)].View
	}
	return views, nil
}
