package ycbcr

import (
	"fmt"
	"image"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/gpu"
	"github.com/ycbcrkit/ycbcrkit/planes"
)

// Convert uploads f, converts it through path into an RGBA8 UNORM target of the frame's size and
// reads the result back. It waits for its own submission (gpu.Device.Submit), so nothing of it is
// in flight afterwards: tests, the conformance checker and demos convert single pictures with a
// Paths of their own and free it with Destroy, no device wait needed.
func (c *Paths) Convert(f *formats.Frame, p Params, path formats.Path) (*image.RGBA, error) {
	img, err := c.ConvertWith(f, []formats.Path{path}, func(im *planes.Image) (*Binding, error) { return c.Bind(im, p, path) })
	if err != nil {
		return nil, fmt.Errorf("ycbcr: convert %s through %s: %w", f.Format.Name, path, err)
	}
	return img, nil
}

// ConvertWith is Convert with the binding made by bind: a conformance checker binds conversions by
// Key, including settings no stream metadata would choose (NEAREST, forced explicit reconstruction).
func (c *Paths) ConvertWith(f *formats.Frame, paths []formats.Path, bind func(*planes.Image) (*Binding, error)) (*image.RGBA, error) {
	target, err := c.Dev.NewOffscreen(f.Width, f.Height)
	if err != nil {
		return nil, err
	}
	defer target.Destroy()
	if err := c.drawOnce(f, paths, bind, target, target.End); err != nil {
		return nil, err
	}
	return target.RGBA(), nil
}

// drawOnce stages f for paths, binds it with bind and draws it into target, the pass ended by end,
// in one submission it waits for.
func (c *Paths) drawOnce(f *formats.Frame, paths []formats.Path, bind func(*planes.Image) (*Binding, error),
	target *gpu.Offscreen, end func(vk.CommandBuffer)) error {
	im, err := c.staged(f, paths...)
	if err != nil {
		return err
	}
	defer im.Destroy()
	b, err := bind(im)
	if err != nil {
		return err
	}
	defer b.Destroy()
	var drawErr error
	err = c.Dev.Submit(func(cb vk.CommandBuffer) {
		im.RecordUpload(cb)
		target.Begin(cb)
		drawErr = b.Draw(cb, target)
		end(cb)
	})
	if err == nil {
		err = drawErr
	}
	return err
}

// staged makes f's planes image for paths and stages f into it (the upload is recorded later, with
// the conversion). The caller destroys the image.
func (c *Paths) staged(f *formats.Frame, paths ...formats.Path) (*planes.Image, error) {
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

// drawnPicture converts f through path, drawn, into a sampled picture of f's size (uploaded and
// drawn in one submission, waited for), left in SHADER_READ_ONLY_OPTIMAL: the input of the one-shot
// passes that read a converted picture (the scale pass, debanding). The caller destroys it.
func (c *Paths) drawnPicture(f *formats.Frame, p Params, path formats.Path) (*gpu.Offscreen, error) {
	pic, err := c.Dev.NewSampledOffscreen(f.Width, f.Height)
	if err != nil {
		return nil, err
	}
	bind := func(im *planes.Image) (*Binding, error) { return c.Bind(im, p, path) }
	if err := c.drawOnce(f, []formats.Path{path}, bind, pic, vk.CmdEndRenderPass); err != nil {
		pic.Destroy()
		return nil, err
	}
	return pic, nil
}

// ConvertCompute is Convert through the path's compute variant (a storage image written by a compute
// shader instead of a drawn triangle).
func (c *Paths) ConvertCompute(f *formats.Frame, p Params, path formats.Path) (*image.RGBA, error) {
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
