package stream

import (
	"fmt"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/gpu"
	"github.com/ycbcrkit/ycbcrkit/internal/vkx"
	"github.com/ycbcrkit/ycbcrkit/ycbcr"
)

// Texture is what an engine samples of a picture (Options.Textures): Image through View, in Layout,
// with Sampler as the immutable sampler of its descriptor-set-layout binding, which consumes
// DescriptorCount descriptors (combinedImageSamplerDescriptorCount). Texture coordinates are scaled
// by UVScale (the image may be padded to whole chroma samples). Both paths give non-linear R′G′B′,
// but for an extended-linear output: linear light in a float16 image (ycbcr.Output.TextureFormat).
type Texture struct {
	Path            formats.Path
	Image           vk.Image
	View            vk.ImageView
	Layout          vk.ImageLayout
	Sampler         vk.Sampler
	DescriptorCount uint32
	UVScale         [2]float32
}

// TextureKit is what the textures of streams on one device share (Options.Textures): the shader
// path's render passes into its textures, one per format the outputs take
// (ycbcr.TextureFormats: RGBA8 UNORM, like the sampler path's output, so that the engine gets the
// same non-linear R′G′B′ from either path; float16 for linear light), and their plain sampler, so
// that an engine's pipelines for one serve the others. Destroy it after every stream that uses it
// is closed.
type TextureKit struct {
	dev    *gpu.Device
	passes map[vk.Format]vk.RenderPass // read only once made: streams on many goroutines share it
	plain  vk.Sampler
}

// NewTextureKit makes the kit on dev.
func NewTextureKit(dev *gpu.Device) (*TextureKit, error) {
	k := &TextureKit{dev: dev, passes: map[vk.Format]vk.RenderPass{}}
	// Linear, clamped, one level: the engine's own filtering of an RGBA8 picture, the same as the
	// Y′CbCr sampler's (LINEAR, CLAMP_TO_EDGE), so both paths look alike.
	var err error
	k.plain, err = dev.NewSampler(vk.FilterLinear)
	if err == nil {
		// The conversion's draw covers every pixel (no load), and the pass leaves the picture ready
		// for the engine's fragment shaders. The engine's earlier reads are complete (the picture is
		// free: nobody holds it); later submissions on the same queue sample it, and the engine's
		// wait on the frame's semaphore covers other queues.
		for _, f := range ycbcr.TextureFormats() {
			if k.passes[f], err = dev.NewPass(gpu.PassSpec{Format: f, FinalLayout: vk.ImageLayoutShaderReadOnlyOptimal,
				AfterStages: vk.PipelineStageFragmentShaderBit, AfterAccess: vk.AccessShaderReadBit}); err != nil {
				break
			}
		}
	}
	if err != nil {
		k.Destroy()
		return nil, fmt.Errorf("stream: textures: %w", err)
	}
	return k, nil
}

// Destroy frees the kit. The GPU must be done with it: it does not wait.
func (k *TextureKit) Destroy() {
	for _, rp := range k.passes {
		if rp != vk.NullRenderPass {
			vk.DestroyRenderPass(k.dev.Device, rp, nil)
		}
	}
	if k.plain != vk.NullSampler {
		vk.DestroySampler(k.dev.Device, k.plain, nil)
	}
}

// texture is one picture's Texture and what it is made of: on the sampler path a view of the
// picture's multi-planar image carrying the conversion; on the shader path an image of the
// output's texture format and its framebuffer.
type texture struct {
	Texture
	width, height int
	format        vk.Format // shader path: Image's
	rp            vk.RenderPass
	memory        vk.DeviceMemory // shader path: Image's memory, which the texture owns
	fb            vk.Framebuffer
	k             *TextureKit
}

// Pass makes a shader-path texture a ycbcr.Target.
func (t *texture) Pass() (vk.RenderPass, vk.Format) { return t.rp, t.format }

func (k *TextureKit) make(p *Picture) (*texture, error) {
	t := &texture{k: k, width: p.cfg.Width, height: p.cfg.Height}
	t.Path, t.Layout = p.plan.Path.Path, vk.ImageLayoutShaderReadOnlyOptimal
	if t.Path == formats.PathSampler {
		cv, err := p.s.Conv.Cache.Get(p.plan.Path.Key)
		if err != nil {
			return nil, err
		}
		// The view carries the very conversion of the immutable sampler (identically defined, as
		// VUID-VkWriteDescriptorSet-descriptorType-01948 asks).
		info := vkx.NewConversionInfo(cv.Handle)
		defer info.Free()
		if t.View, err = k.dev.NewView(p.img.Multi, vk.Format(cv.Key.Format), vk.ImageAspectColorBit, &info); err != nil {
			return nil, fmt.Errorf("stream: texture view: %w", err)
		}
		t.Image, t.Sampler, t.DescriptorCount = p.img.Multi, cv.Sampler, cv.DescriptorCount
		t.UVScale = [2]float32{float32(p.img.Width) / float32(p.img.PaddedWidth), float32(p.img.Height) / float32(p.img.PaddedHeight)}
		return t, nil
	}
	return k.rgba(t, p.cfg.Params.Output.TextureFormat())
}

// rgba makes t an image of format with a framebuffer of the kit's pass for it: a shader-path
// texture, or a sampler-path picture converted for the scale pass (flat).
func (k *TextureKit) rgba(t *texture, format vk.Format) (*texture, error) {
	t.format, t.rp = format, k.passes[format]
	if t.rp == vk.NullRenderPass {
		return nil, fmt.Errorf("stream: texture format %d: no pass (ycbcr.TextureFormats)", format)
	}
	var err error
	// TRANSFER_SRC lets an engine (or a test) copy the converted picture out.
	if t.Image, t.memory, t.View, err = k.dev.NewImage2D(format, t.width, t.height,
		vk.ImageUsageColorAttachmentBit|vk.ImageUsageSampledBit|vk.ImageUsageTransferSrcBit); err == nil {
		t.fb, err = k.dev.NewFramebuffer(t.rp, t.width, t.height, t.View)
	}
	if err != nil {
		t.destroy()
		return nil, fmt.Errorf("stream: texture %dx%d: %w", t.width, t.height, err)
	}
	t.Sampler, t.DescriptorCount, t.UVScale = k.plain, 1, [2]float32{1, 1}
	return t, nil
}

// flat is a w×h RGBA8 picture drawn in the kit's pass, which the bindings' pipelines of a stream
// with textures are made for (a gpu.Offscreen's pass is not compatible with them: its dependencies
// differ), for the scale pass of an engine's draw (Frame.ScaleAll).
func (k *TextureKit) flat(w, h int) (*texture, error) {
	return k.rgba(&texture{k: k, width: w, height: h, Texture: Texture{Path: formats.PathShader,
		Layout: vk.ImageLayoutShaderReadOnlyOptimal}}, gpu.TargetFormat)
}

func (t *texture) destroy() {
	d := t.k.dev.Device
	if t.fb != vk.NullFramebuffer {
		vk.DestroyFramebuffer(d, t.fb, nil)
	}
	if t.Path == formats.PathSampler { // a view of the picture's image
		if t.View != vk.NullImageView {
			vk.DestroyImageView(d, t.View, nil)
		}
		return
	}
	t.k.dev.DestroyImage2D(t.Image, t.memory, t.View)
}

// Texture is p's texture (Options.Textures; the zero Texture without).
func (p *Picture) Texture() Texture {
	if p.tex == nil {
		return Texture{}
	}
	return p.tex.Texture
}

// DrawTexture records, after the upload, what makes the frame's picture its texture: on the shader
// path the conversion (the plan's variant) into the texture's image; on the sampler path nothing, as
// the engine samples the planes through the conversion.
func (f *Frame) DrawTexture() error {
	t := f.Picture.tex
	if t == nil {
		return fmt.Errorf("stream: DrawTexture on a stream without textures")
	}
	if t.Path == formats.PathSampler {
		return nil
	}
	if err := f.Convert(); err != nil {
		return err
	}
	cb := f.Slot.CB
	gpu.BeginPass(cb, t.rp, t.fb, t.width, t.height)
	gpu.SetViewport(cb, 0, 0, t.width, t.height)
	// The first draw of these constants creates the shader path's pipeline; ycbcr makes it in C
	// (vkx), out of reach of vulkan-go's finalizer problem, so nothing waits for it.
	err := f.Draw(t)
	vk.CmdEndRenderPass(cb)
	return err
}
