package ycbcr

import (
	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/gpu"
	"github.com/ycbcrkit/ycbcrkit/internal/vkx"
	"github.com/ycbcrkit/ycbcrkit/shaders"
)

// Target is where a conversion draws: a render pass in progress and its colour format.
type Target interface {
	Pass() (vk.RenderPass, vk.Format)
}

// drawPass makes a pass of one fragment shader over the full-screen triangle (gpu.KitDesc) whose
// push-constant block is the fragment stage's.
func drawPass(d *gpu.Device, name string, bindings []vk.DescriptorSetLayoutBinding, perSet []vk.DescriptorPoolSize,
	frag []byte, pushBytes uint32) (*gpu.Kit, error) {
	return d.NewKit(gpu.KitDesc{Name: "ycbcr: " + name, Bindings: bindings, PerSet: perSet,
		PushStages: vk.ShaderStageFragmentBit, PushBytes: pushBytes,
		Shaders: []gpu.Shader{{Kind: gpu.Fullscreen, Code: frag, Vert: shaders.FullscreenVert}}})
}

// drawPipeline is pass's pipeline for t's format with the first nspec of spec, dither.glsl's
// constants (shaders.DitherConstant) filled in for that format.
func drawPipeline(pass *gpu.Kit, t Target, spec Spec, nspec int, d Dither) (vk.Pipeline, error) {
	rp, format := t.Pass()
	spec = withDither(spec, d, format)
	return pass.Pipeline(0, rp, format, spec[:nspec])
}

func writeImages(dev vk.Device, set vk.DescriptorSet, views []vk.ImageView, sampler vk.Sampler) {
	vkx.WriteImages(dev, set, views, sampler, vk.ImageLayoutShaderReadOnlyOptimal)
}

// draw records pass's pipe with set and push, and the full-screen triangle.
func draw(cb vk.CommandBuffer, pass *gpu.Kit, pipe vk.Pipeline, set vk.DescriptorSet, push []byte) {
	pass.Bind(cb, pipe, set, push)
	vk.CmdDraw(cb, 3, 1, 0, 0)
}
