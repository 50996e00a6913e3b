package ycbcr

import (
	"fmt"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/gpu"
	"github.com/ycbcrkit/ycbcrkit/planes"
)

// Paths are both conversion paths on a device: the sampler path's conversion cache and the shader
// path, made once and kept for the life of their user (a stream.Stream; tests, the checker and demos that convert single pictures). They bind an
// image's planes for a path, drawn or as a compute dispatch, and convert single pictures offscreen.
// Streams on several goroutines may share one Paths (an engine's textures, each decoding on its own
// goroutine): what their bindings share (the conversion cache, descriptor pools, pipeline maps, the
// compute kits) is locked where it is used, so binding, drawing and freeing need no outer lock.
type Paths struct {
	Dev    *gpu.Device
	Cache  *Cache
	Shader *ShaderPath
}

// NewPaths prepares both paths on dev.
func NewPaths(dev *gpu.Device) (*Paths, error) {
	sp, err := NewShaderPath(dev)
	if err != nil {
		return nil, err
	}
	return &Paths{Dev: dev, Cache: NewCache(dev), Shader: sp}, nil
}

// Destroy frees both paths' objects. The GPU must be done with them: it does not wait.
func (c *Paths) Destroy() {
	c.Cache.Destroy()
	c.Shader.Destroy()
}

// Bind makes the binding of im for a path (the sampler path only where SamplerKey allows), drawn
// with p's dither.
func (c *Paths) Bind(im *planes.Image, p Params, path formats.Path) (*Binding, error) {
	var b *Binding
	if path == formats.PathShader {
		consts, err := p.ShaderFor(im)
		if err != nil {
			return nil, err
		}
		if b, err = c.Shader.Bind(im, consts); err != nil {
			return nil, err
		}
	} else {
		cv, err := c.conversion(im.Format, p)
		if err != nil {
			return nil, err
		}
		if b, err = cv.Bind(im); err != nil {
			return nil, err
		}
	}
	b.dither = p.Dither
	return b, nil
}

// BindCompute is Bind for the path's compute variant, writing the storage image target (RGBA8),
// with p's dither.
func (c *Paths) BindCompute(im *planes.Image, p Params, path formats.Path, target vk.ImageView) (*ComputeBinding, error) {
	var b *ComputeBinding
	var err error
	if path == formats.PathShader {
		b, err = c.Shader.BindCompute(im, p, target)
	} else {
		var cv *Conversion
		if cv, err = c.conversion(im.Format, p); err != nil {
			return nil, err
		}
		b, err = cv.BindCompute(im, target)
	}
	if err != nil {
		return nil, err
	}
	b.spec = withDither(b.spec, p.Dither, vk.FormatR8g8b8a8Unorm)
	return b, nil
}

// conversion is the cached sampler-path conversion for pf with p, or why the sampler cannot express it.
func (c *Paths) conversion(pf *formats.PixelFormat, p Params) (*Conversion, error) {
	k, err := SamplerKey(c.Dev, pf, p)
	if err != nil {
		return nil, fmt.Errorf("ycbcr: sampler path cannot express %s %s: %w", pf.Name, p, err)
	}
	return c.Cache.Get(k)
}
