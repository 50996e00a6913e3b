package gpu

import (
	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/internal/vkx"
)

// The pass kit's Vulkan objects (Pass). Each call takes one create-info struct, whose C copy
// vulkan-go keeps, nested slices included, until its Free: no vkx.NoGC (docs/architecture.md,
// "Calling Vulkan").

// newSetLayout creates a descriptor set layout of bindings.
func (d *Device) newSetLayout(bindings []vk.DescriptorSetLayoutBinding) (vk.DescriptorSetLayout, error) {
	li := &vk.DescriptorSetLayoutCreateInfo{SType: vk.StructureTypeDescriptorSetLayoutCreateInfo,
		BindingCount: uint32(len(bindings)), PBindings: bindings}
	var l vk.DescriptorSetLayout
	err := vkx.Check(vk.CreateDescriptorSetLayout(d.Device, li, nil, &l), "vkCreateDescriptorSetLayout")
	li.Free()
	return l, err
}

// newPipelineLayout creates the toolkit's one pipeline layout shape: one descriptor set and one
// push-constant block of pushBytes at offset 0 for stages, none where pushBytes is 0 (a range of
// size 0 is invalid: VUID-VkPushConstantRange-size-00296).
func (d *Device) newPipelineLayout(set vk.DescriptorSetLayout, stages vk.ShaderStageFlagBits, pushBytes uint32) (vk.PipelineLayout, error) {
	ci := &vk.PipelineLayoutCreateInfo{SType: vk.StructureTypePipelineLayoutCreateInfo, SetLayoutCount: 1,
		PSetLayouts: []vk.DescriptorSetLayout{set}}
	if pushBytes > 0 {
		ci.PushConstantRangeCount = 1
		ci.PPushConstantRanges = []vk.PushConstantRange{{StageFlags: vk.ShaderStageFlags(stages), Size: pushBytes}}
	}
	var l vk.PipelineLayout
	err := vkx.Check(vk.CreatePipelineLayout(d.Device, ci, nil, &l), "vkCreatePipelineLayout")
	ci.Free()
	return l, err
}

// newDescriptorPool creates a pool of maxSets sets holding sizes' descriptors in all, whose sets
// go back one at a time (FREE_DESCRIPTOR_SET_BIT): pools outlive what they bind.
func (d *Device) newDescriptorPool(maxSets uint32, sizes []vk.DescriptorPoolSize) (vk.DescriptorPool, error) {
	ci := &vk.DescriptorPoolCreateInfo{SType: vk.StructureTypeDescriptorPoolCreateInfo, MaxSets: maxSets,
		PoolSizeCount: uint32(len(sizes)), PPoolSizes: sizes,
		Flags: vk.DescriptorPoolCreateFlags(vk.DescriptorPoolCreateFreeDescriptorSetBit)}
	var pool vk.DescriptorPool
	err := vkx.Check(vk.CreateDescriptorPool(d.Device, ci, nil, &pool), "vkCreateDescriptorPool")
	ci.Free()
	return pool, err
}
