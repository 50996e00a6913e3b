package ycbcr

import (
	"fmt"
	"image"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/gpu"
	"github.com/ycbcrkit/ycbcrkit/internal/vkx"
	"github.com/ycbcrkit/ycbcrkit/planes"
)

// Converter converts single frames offscreen and reads them back: for tests, the conformance checker
// and headless demos. Playback keeps images and bindings across frames instead.
type Converter struct {
	Dev    *gpu.Device
	Cache  *Cache
	Shader *ShaderPath
}

// NewConverter prepares both paths on dev.
func NewConverter(dev *gpu.Device) (*Converter, error) {
	sp, err := NewShaderPath(dev)
	if err != nil {
		return nil, err
	}
	return &Converter{Dev: dev, Cache: NewCache(dev), Shader: sp}, nil
}

// Destroy releases both paths.
func (c *Converter) Destroy() {
	vkx.DeviceWaitIdle(c.Dev.Device)
	c.Cache.Destroy()
	c.Shader.Destroy()
}

// Bind makes the binding of im for a path (the sampler path only where SamplerKey allows), drawn
// with p's dither.
func (c *Converter) Bind(im *planes.Image, p Params, path formats.Path) (*Binding, error) {
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

// conversion is the cached sampler-path conversion for pf with p, or why the sampler cannot express it.
func (c *Converter) conversion(pf *formats.PixelFormat, p Params) (*Conversion, error) {
	k, err := SamplerKey(c.Dev, pf, p)
	if err != nil {
		return nil, fmt.Errorf("ycbcr: sampler path cannot express %s %s: %w", pf.Name, p, err)
	}
	return c.Cache.Get(k)
}

// Convert uploads f, converts it through path into an RGBA8 UNORM target of the frame's size and
// reads the result back.
func (c *Converter) Convert(f *formats.Frame, p Params, path formats.Path) (*image.RGBA, error) {
	img, err := c.ConvertWith(f, []formats.Path{path}, func(im *planes.Image) (*Binding, error) { return c.Bind(im, p, path) })
	if err != nil {
		return nil, fmt.Errorf("ycbcr: convert %s through %s: %w", f.Format.Name, path, err)
	}
	return img, nil
}

// ConvertWith is Convert with the binding made by bind: a conformance checker binds conversions by
// Key, including settings no stream metadata would choose (NEAREST, forced explicit reconstruction).
func (c *Converter) ConvertWith(f *formats.Frame, paths []formats.Path, bind func(*planes.Image) (*Binding, error)) (*image.RGBA, error) {
	im, err := c.staged(f, paths...)
	if err != nil {
		return nil, err
	}
	defer im.Destroy()
	b, err := bind(im)
	if err != nil {
		return nil, err
	}
	defer b.Destroy()
	target, err := c.Dev.NewOffscreen(f.Width, f.Height)
	if err != nil {
		return nil, err
	}
	defer target.Destroy()
	var drawErr error
	err = c.Dev.Submit(func(cb vk.CommandBuffer) {
		im.RecordUpload(cb)
		target.Begin(cb)
		drawErr = b.Draw(cb, target)
		target.End(cb)
	})
	if err == nil {
		err = drawErr
	}
	if err != nil {
		return nil, err
	}
	return target.RGBA(), nil
}

// staged makes f's planes image for paths and stages f into it (the upload is recorded later, with
// the conversion). The caller destroys the image.
func (c *Converter) staged(f *formats.Frame, paths ...formats.Path) (*planes.Image, error) {
	im, err := planes.New(c.Dev, f.Format, f.Width, f.Height, paths...)
	if err != nil {
		return nil, err
	}
	if err := im.Stage(f); err != nil {
		im.Destroy()
		return nil, err
	}
	return im, nil
}

// BindCompute is Bind for the path's compute variant, writing the storage image target (RGBA8),
// with p's dither.
func (c *Converter) BindCompute(im *planes.Image, p Params, path formats.Path, target vk.ImageView) (*ComputeBinding, error) {
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

// ConvertCompute is Convert through the path's compute variant (a storage image written by a compute
// shader instead of a drawn triangle).
func (c *Converter) ConvertCompute(f *formats.Frame, p Params, path formats.Path) (*image.RGBA, error) {
	im, err := c.staged(f, path)
	if err != nil {
		return nil, err
	}
	defer im.Destroy()
	target, err := c.Dev.NewStorageOffscreen(f.Width, f.Height)
	if err != nil {
		return nil, err
	}
	defer target.Destroy()
	b, err := c.BindCompute(im, p, path, target.View)
	if err != nil {
		return nil, fmt.Errorf("ycbcr: convert %s through %s (compute): %w", f.Format.Name, path, err)
	}
	defer b.Destroy()
	var dispatchErr error
	err = c.Dev.Submit(func(cb vk.CommandBuffer) {
		im.RecordUpload(cb)
		target.BeginCompute(cb)
		dispatchErr = b.Dispatch(cb, f.Width, f.Height)
		target.EndCompute(cb)
		target.RecordReadback(cb)
	})
	if err == nil {
		err = dispatchErr
	}
	if err != nil {
		return nil, fmt.Errorf("ycbcr: convert %s through %s (compute): %w", f.Format.Name, path, err)
	}
	return target.RGBA(), nil
}
