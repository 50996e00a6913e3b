package gpu

import (
	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/internal/vkx"
)

// NewSetLayout creates a descriptor set layout of bindings.
func (d *Device) NewSetLayout(bindings []vk.DescriptorSetLayoutBinding) (vk.DescriptorSetLayout, error) {
	li := &vk.DescriptorSetLayoutCreateInfo{SType: vk.StructureTypeDescriptorSetLayoutCreateInfo,
		BindingCount: uint32(len(bindings)), PBindings: bindings}
	var l vk.DescriptorSetLayout
	var err error
	// The collector waits: vulkan-go's C copy of bindings must live until the call returns (NoGC).
	vkx.NoGC(func() {
		err = vkx.Check(vk.CreateDescriptorSetLayout(d.Device, li, nil, &l), "vkCreateDescriptorSetLayout")
	})
	li.Free()
	return l, err
}

// NewPipelineLayout creates the toolkit's one pipeline layout shape: one descriptor set and one
// push-constant block of pushBytes at offset 0 for stages, none where pushBytes is 0 (a range of
// size 0 is invalid: VUID-VkPushConstantRange-size-00296).
func (d *Device) NewPipelineLayout(set vk.DescriptorSetLayout, stages vk.ShaderStageFlagBits, pushBytes uint32) (vk.PipelineLayout, error) {
	ci := &vk.PipelineLayoutCreateInfo{SType: vk.StructureTypePipelineLayoutCreateInfo, SetLayoutCount: 1,
		PSetLayouts: []vk.DescriptorSetLayout{set}}
	if pushBytes > 0 {
		ci.PushConstantRangeCount = 1
		ci.PPushConstantRanges = []vk.PushConstantRange{{StageFlags: vk.ShaderStageFlags(stages), Size: pushBytes}}
	}
	var l vk.PipelineLayout
	var err error
	vkx.NoGC(func() { err = vkx.Check(vk.CreatePipelineLayout(d.Device, ci, nil, &l), "vkCreatePipelineLayout") })
	ci.Free()
	return l, err
}

// NewDescriptorPool creates a pool of maxSets sets holding sizes' descriptors in all. freeSets lets
// sets go back one at a time (FREE_DESCRIPTOR_SET_BIT), for pools that outlive what they bind.
func (d *Device) NewDescriptorPool(maxSets uint32, sizes []vk.DescriptorPoolSize, freeSets bool) (vk.DescriptorPool, error) {
	ci := &vk.DescriptorPoolCreateInfo{SType: vk.StructureTypeDescriptorPoolCreateInfo, MaxSets: maxSets,
		PoolSizeCount: uint32(len(sizes)), PPoolSizes: sizes}
	if freeSets {
		ci.Flags = vk.DescriptorPoolCreateFlags(vk.DescriptorPoolCreateFreeDescriptorSetBit)
	}
	var pool vk.DescriptorPool
	var err error
	vkx.NoGC(func() { err = vkx.Check(vk.CreateDescriptorPool(d.Device, ci, nil, &pool), "vkCreateDescriptorPool") })
	ci.Free()
	return pool, err
}

// AllocateSet takes one set of layout from pool.
func (d *Device) AllocateSet(pool vk.DescriptorPool, layout vk.DescriptorSetLayout) (vk.DescriptorSet, error) {
	ai := &vk.DescriptorSetAllocateInfo{SType: vk.StructureTypeDescriptorSetAllocateInfo, DescriptorPool: pool,
		DescriptorSetCount: 1, PSetLayouts: []vk.DescriptorSetLayout{layout}}
	var set vk.DescriptorSet
	var err error
	vkx.NoGC(func() { err = vkx.Check(vk.AllocateDescriptorSets(d.Device, ai, &set), "vkAllocateDescriptorSets") })
	ai.Free()
	return set, err
}
