package osd

import (
	"fmt"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/gpu"
	"github.com/ycbcrkit/ycbcrkit/internal/vkx"
)

// kit is what the display's two passes (Pass, ImagePass) are each made of: their descriptor set
// layout, a pipeline layout with one push-constant block, a descriptor set per frame slot from a
// pool of their own, and a blended pipeline of their shaders per target format (one-attachment
// passes of one format are compatible, so the format stands for the pass).
type kit struct {
	dev        *gpu.Device
	name       string // for errors: "pipeline", "image pipeline"
	vert, frag []byte
	push       vk.PushConstantRange
	setLayout  vk.DescriptorSetLayout
	pipeLayout vk.PipelineLayout
	pool       vk.DescriptorPool
	sets       []vk.DescriptorSet // one per frame slot
	pipes      map[vk.Format]vk.Pipeline
}

// init makes the layouts, the pool and slots sets of bindings; vert and frag are the pipelines'
// SPIR-V, made on first use per format (pipeline).
func (k *kit) init(dev *gpu.Device, name string, bindings []vk.DescriptorSetLayoutBinding, push vk.PushConstantRange,
	slots int, vert, frag []byte) error {
	k.dev, k.name, k.push, k.vert, k.frag = dev, name, push, vert, frag
	k.pipes = map[vk.Format]vk.Pipeline{}
	var err error
	if k.setLayout, err = dev.NewSetLayout(bindings); err != nil {
		return err
	}
	if k.pipeLayout, err = dev.NewPipelineLayout(k.setLayout, vk.ShaderStageFlagBits(push.StageFlags), push.Size); err != nil {
		return err
	}
	n := uint32(slots)
	var sizes []vk.DescriptorPoolSize
	for _, b := range bindings {
		sizes = append(sizes, vk.DescriptorPoolSize{Type: b.DescriptorType, DescriptorCount: n * b.DescriptorCount})
	}
	if k.pool, err = dev.NewDescriptorPool(n, sizes, false); err != nil {
		return err
	}
	for range slots {
		set, err := dev.AllocateSet(k.pool, k.setLayout)
		if err != nil {
			return err
		}
		k.sets = append(k.sets, set)
	}
	return nil
}

// pipeline is the kit's pipeline for t's format.
func (k *kit) pipeline(t Target) (vk.Pipeline, error) {
	rp, format := t.Pass()
	if pl, ok := k.pipes[format]; ok {
		return pl, nil
	}
	d := k.dev.Device
	vs, err := vkx.ShaderModule(d, k.vert)
	if err != nil {
		return vk.NullPipeline, err
	}
	defer vk.DestroyShaderModule(d, vs, nil)
	fs, err := vkx.ShaderModule(d, k.frag)
	if err != nil {
		return vk.NullPipeline, err
	}
	defer vk.DestroyShaderModule(d, fs, nil)
	pl, err := vkx.BlendedPipeline(d, k.dev.PipelineCache(), k.pipeLayout, rp, vs, fs)
	if err != nil {
		return vk.NullPipeline, fmt.Errorf("osd: %s: %w", k.name, err)
	}
	k.pipes[format] = pl
	return pl, nil
}

// bind binds t's pipeline and slot's set on cb, ready for the push constants and the draw.
func (k *kit) bind(cb vk.CommandBuffer, t Target, slot int) error {
	pl, err := k.pipeline(t)
	if err != nil {
		return err
	}
	vk.CmdBindPipeline(cb, vk.PipelineBindPointGraphics, pl)
	vk.CmdBindDescriptorSets(cb, vk.PipelineBindPointGraphics, k.pipeLayout, 0, 1, []vk.DescriptorSet{k.sets[slot]}, 0, nil)
	return nil
}

// destroy frees what init and pipeline made (the pool frees the sets). The GPU must be done with
// every frame that drew with them.
func (k *kit) destroy() {
	if k.dev == nil {
		return
	}
	d := k.dev.Device
	for _, pl := range k.pipes {
		vk.DestroyPipeline(d, pl, nil)
	}
	k.pipes = nil
	if k.pool != vk.NullDescriptorPool {
		vk.DestroyDescriptorPool(d, k.pool, nil)
	}
	if k.pipeLayout != vk.NullPipelineLayout {
		vk.DestroyPipelineLayout(d, k.pipeLayout, nil)
	}
	if k.setLayout != vk.NullDescriptorSetLayout {
		vk.DestroyDescriptorSetLayout(d, k.setLayout, nil)
	}
}
