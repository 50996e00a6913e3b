package ycbcr

import (
	"encoding/binary"
	"fmt"
	"unsafe"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/internal/vkx"
	"github.com/ycbcrkit/ycbcrkit/present"
	"github.com/ycbcrkit/ycbcrkit/shaders"
)

func shaderModule(dev vk.Device, spv []byte) (vk.ShaderModule, error) {
	words := make([]uint32, len(spv)/4)
	copy(unsafe.Slice((*byte)(unsafe.Pointer(&words[0])), len(spv)), spv)
	ci := &vk.ShaderModuleCreateInfo{SType: vk.StructureTypeShaderModuleCreateInfo, CodeSize: uint(len(spv)), PCode: words}
	var m vk.ShaderModule
	err := vkx.Check(vk.CreateShaderModule(dev, ci, nil, &m), "vkCreateShaderModule")
	ci.Free()
	return m, err
}

// newPipeline builds the full-screen-triangle pipeline with a fragment shader, for a render pass's
// first subpass. Viewport and scissor are dynamic so one pipeline serves every target size.
func newPipeline(dev vk.Device, layout vk.PipelineLayout, rp vk.RenderPass, frag []byte, spec []int32) (vk.Pipeline, error) {
	vs, err := shaderModule(dev, shaders.FullscreenVert)
	if err != nil {
		return vk.NullPipeline, err
	}
	defer vk.DestroyShaderModule(dev, vs, nil)
	fs, err := shaderModule(dev, frag)
	if err != nil {
		return vk.NullPipeline, err
	}
	defer vk.DestroyShaderModule(dev, fs, nil)
	fragStage := vk.PipelineShaderStageCreateInfo{SType: vk.StructureTypePipelineShaderStageCreateInfo, Stage: vk.ShaderStageFragmentBit, Module: fs, PName: "main\x00"}
	if len(spec) > 0 {
		data := make([]byte, 0, 4*len(spec))
		entries := make([]vk.SpecializationMapEntry, len(spec))
		for i, v := range spec {
			data = binary.LittleEndian.AppendUint32(data, uint32(v))
			entries[i] = vk.SpecializationMapEntry{ConstantID: uint32(i), Offset: uint32(4 * i), Size: 4}
		}
		ptr, free := vkx.CBytes(data)
		defer free()
		fragStage.PSpecializationInfo = []vk.SpecializationInfo{{MapEntryCount: uint32(len(spec)), PMapEntries: entries, DataSize: uint(len(data)), PData: ptr}}
	}
	ci := []vk.GraphicsPipelineCreateInfo{{
		SType:      vk.StructureTypeGraphicsPipelineCreateInfo,
		StageCount: 2,
		PStages: []vk.PipelineShaderStageCreateInfo{
			{SType: vk.StructureTypePipelineShaderStageCreateInfo, Stage: vk.ShaderStageVertexBit, Module: vs, PName: "main\x00"},
			fragStage,
		},
		PVertexInputState:   &vk.PipelineVertexInputStateCreateInfo{SType: vk.StructureTypePipelineVertexInputStateCreateInfo},
		PInputAssemblyState: &vk.PipelineInputAssemblyStateCreateInfo{SType: vk.StructureTypePipelineInputAssemblyStateCreateInfo, Topology: vk.PrimitiveTopologyTriangleList},
		PViewportState:      &vk.PipelineViewportStateCreateInfo{SType: vk.StructureTypePipelineViewportStateCreateInfo, ViewportCount: 1, ScissorCount: 1},
		PRasterizationState: &vk.PipelineRasterizationStateCreateInfo{SType: vk.StructureTypePipelineRasterizationStateCreateInfo,
			PolygonMode: vk.PolygonModeFill, CullMode: vk.CullModeFlags(vk.CullModeNone), FrontFace: vk.FrontFaceCounterClockwise, LineWidth: 1},
		PMultisampleState: &vk.PipelineMultisampleStateCreateInfo{SType: vk.StructureTypePipelineMultisampleStateCreateInfo, RasterizationSamples: vk.SampleCount1Bit},
		PColorBlendState: &vk.PipelineColorBlendStateCreateInfo{SType: vk.StructureTypePipelineColorBlendStateCreateInfo, AttachmentCount: 1,
			PAttachments: []vk.PipelineColorBlendAttachmentState{{ColorWriteMask: vk.ColorComponentFlags(
				vk.ColorComponentRBit | vk.ColorComponentGBit | vk.ColorComponentBBit | vk.ColorComponentABit)}}},
		PDynamicState: &vk.PipelineDynamicStateCreateInfo{SType: vk.StructureTypePipelineDynamicStateCreateInfo, DynamicStateCount: 2,
			PDynamicStates: []vk.DynamicState{vk.DynamicStateViewport, vk.DynamicStateScissor}},
		Layout:     layout,
		RenderPass: rp,
	}}
	pipes := make([]vk.Pipeline, 1)
	err = vkx.Check(vk.CreateGraphicsPipelines(dev, vk.NullPipelineCache, 1, ci, nil, pipes), "vkCreateGraphicsPipelines")
	ci[0].Free()
	return pipes[0], err
}

func newPipelineLayout(dev vk.Device, set vk.DescriptorSetLayout, pushBytes uint32) (vk.PipelineLayout, error) {
	ci := &vk.PipelineLayoutCreateInfo{SType: vk.StructureTypePipelineLayoutCreateInfo, SetLayoutCount: 1,
		PSetLayouts: []vk.DescriptorSetLayout{set}, PushConstantRangeCount: 1,
		PPushConstantRanges: []vk.PushConstantRange{{StageFlags: vk.ShaderStageFlags(vk.ShaderStageFragmentBit), Size: pushBytes}}}
	var l vk.PipelineLayout
	err := vkx.Check(vk.CreatePipelineLayout(dev, ci, nil, &l), "vkCreatePipelineLayout")
	ci.Free()
	return l, err
}

// Target is where a conversion draws: a render pass in progress and its colour format.
type Target interface {
	Pass() (vk.RenderPass, vk.Format)
}

// pipelineKey identifies a pipeline of one layout and fragment shader. A pipeline works with any
// render pass compatible with the one it was made with, and the toolkit's one-attachment passes are
// compatible exactly when their formats match, so the format stands for the pass (render pass
// handles can be destroyed and reused). spec holds the specialization constants.
type pipelineKey struct {
	format vk.Format
	spec   [6]int32
}

// pipelines caches the pipelines of a layout and fragment shader by key.
type pipelines struct {
	layout vk.PipelineLayout
	frag   []byte
	nspec  int // how many of key.spec the shader declares
	byKey  map[pipelineKey]vk.Pipeline
}

func (p *pipelines) get(dev vk.Device, t Target, spec [6]int32) (vk.Pipeline, error) {
	rp, format := t.Pass()
	k := pipelineKey{format, spec}
	if pl, ok := p.byKey[k]; ok {
		return pl, nil
	}
	pl, err := newPipeline(dev, p.layout, rp, p.frag, spec[:p.nspec])
	if err != nil {
		return vk.NullPipeline, fmt.Errorf("ycbcr: pipeline: %w", err)
	}
	if p.byKey == nil {
		p.byKey = map[pipelineKey]vk.Pipeline{}
	}
	p.byKey[k] = pl
	return pl, nil
}

func (p *pipelines) destroy(dev vk.Device) {
	for _, pl := range p.byKey {
		vk.DestroyPipeline(dev, pl, nil)
	}
	p.byKey = nil
	if p.layout != vk.NullPipelineLayout {
		vk.DestroyPipelineLayout(dev, p.layout, nil)
	}
}

func newPool(d *present.Device, sets, descriptors uint32) (vk.DescriptorPool, error) {
	ci := &vk.DescriptorPoolCreateInfo{SType: vk.StructureTypeDescriptorPoolCreateInfo,
		Flags:   vk.DescriptorPoolCreateFlags(vk.DescriptorPoolCreateFreeDescriptorSetBit),
		MaxSets: sets, PoolSizeCount: 1,
		PPoolSizes: []vk.DescriptorPoolSize{{Type: vk.DescriptorTypeCombinedImageSampler, DescriptorCount: descriptors}}}
	var pool vk.DescriptorPool
	err := vkx.Check(vk.CreateDescriptorPool(d.Device, ci, nil, &pool), "vkCreateDescriptorPool")
	ci.Free()
	return pool, err
}

func allocateSet(dev vk.Device, pool vk.DescriptorPool, layout vk.DescriptorSetLayout) (vk.DescriptorSet, error) {
	ai := &vk.DescriptorSetAllocateInfo{SType: vk.StructureTypeDescriptorSetAllocateInfo, DescriptorPool: pool,
		DescriptorSetCount: 1, PSetLayouts: []vk.DescriptorSetLayout{layout}}
	var set vk.DescriptorSet
	err := vkx.Check(vk.AllocateDescriptorSets(dev, ai, &set), "vkAllocateDescriptorSets")
	ai.Free()
	return set, err
}

func writeImages(dev vk.Device, set vk.DescriptorSet, views []vk.ImageView, sampler vk.Sampler) {
	writes := make([]vk.WriteDescriptorSet, len(views))
	for i, v := range views {
		writes[i] = vk.WriteDescriptorSet{SType: vk.StructureTypeWriteDescriptorSet, DstSet: set, DstBinding: uint32(i),
			DescriptorCount: 1, DescriptorType: vk.DescriptorTypeCombinedImageSampler,
			PImageInfo: []vk.DescriptorImageInfo{{Sampler: sampler, ImageView: v, ImageLayout: vk.ImageLayoutShaderReadOnlyOptimal}}}
	}
	vk.UpdateDescriptorSets(dev, uint32(len(writes)), writes, 0, nil)
}

func draw(cb vk.CommandBuffer, pipe vk.Pipeline, layout vk.PipelineLayout, set vk.DescriptorSet, push []byte) {
	vk.CmdBindPipeline(cb, vk.PipelineBindPointGraphics, pipe)
	vk.CmdBindDescriptorSets(cb, vk.PipelineBindPointGraphics, layout, 0, 1, []vk.DescriptorSet{set}, 0, nil)
	vk.CmdPushConstants(cb, layout, vk.ShaderStageFlags(vk.ShaderStageFragmentBit), 0, uint32(len(push)), unsafe.Pointer(&push[0]))
	vk.CmdDraw(cb, 3, 1, 0, 0)
}
