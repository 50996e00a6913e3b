package osd

import (
	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/gpu"
)

// kit is what the display's two passes (Pass, ImagePass) are each made of: a gpu.Kit of their
// blended shaders with one push-constant block, and a descriptor set per frame slot.
type kit struct {
	pass       *gpu.Kit
	push       vk.PushConstantRange
	pipeLayout vk.PipelineLayout  // pass's
	sets       []vk.DescriptorSet // one per frame slot
}

// init makes the pass and slots sets of bindings; vert and frag are the pipelines' SPIR-V, made on
// first use per format (bind).
func (k *kit) init(dev *gpu.Device, name string, bindings []vk.DescriptorSetLayoutBinding, push vk.PushConstantRange,
	slots int, vert, frag []byte) error {
	k.push = push
	var err error
	if k.pass, err = dev.NewKit(gpu.KitDesc{Name: "osd: " + name, Bindings: bindings,
		PushStages: vk.ShaderStageFlagBits(push.StageFlags), PushBytes: push.Size, SetsPerPool: uint32(slots),
		Shaders: []gpu.Shader{{Kind: gpu.Blended, Code: frag, Vert: vert}}}); err != nil {
		return err
	}
	k.pipeLayout = k.pass.Layout
	for range slots {
		set, err := k.pass.Allocate()
		if err != nil {
			return err
		}
		k.sets = append(k.sets, set.Set)
	}
	return nil
}

// bind binds t's pipeline and slot's set on cb, ready for the push constants and the draw.
func (k *kit) bind(cb vk.CommandBuffer, t Target, slot int) error {
	rp, format := t.Pass()
	pl, err := k.pass.Pipeline(0, rp, format, nil)
	if err != nil {
		return err
	}
	k.pass.Bind(cb, pl, k.sets[slot], nil)
	return nil
}

// destroy frees what init and bind made (the pass's pools free the sets). The GPU must be done with
// every frame that drew with them.
func (k *kit) destroy() {
	k.pass.Destroy()
	k.pass, k.sets = nil, nil
}
