package videotex_test

import (
	"path/filepath"
	"testing"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/internal/testkit/pictest"
	"github.com/ycbcrkit/ycbcrkit/internal/vkx"
	"github.com/ycbcrkit/ycbcrkit/videotex"
)

// TestFourTextures drives four textures on one Engine (one engine device, validation on): the
// bundled clip's vector twice, the top-left-sited vector and bt601 forced onto the shader path, so
// both paths and a repeated stream are shared. All four decode at once (their goroutines make
// their pictures' conversions and bindings from the shared cache and shader path while the others
// do); then each texture's first picture is drawn by its own engine pipeline in one submission
// that waits on all four frames, and each is compared with zscale's picture of that frame (1 LSB
// shader path, 4 sampler path, as TestVectorsThroughListing). The two textures of one stream hand
// out the same immutable sampler (one conversion, one engine pipeline could serve both), and the
// engine refuses to close while textures are open.
func TestFourTextures(t *testing.T) {
	dev := testDevice(t)
	vectors := map[string]pictest.Vector{}
	for _, v := range pictest.Vectors(t, mediaDir) {
		vectors[v.Name] = v
	}
	cases := []struct {
		vector string
		path   formats.Choice
	}{{"default", formats.ChooseAuto}, {"default", formats.ChooseAuto}, {"yuv420p_topleft", formats.ChooseAuto},
		{"bt601", formats.ChooseShader}}
	eng, err := videotex.NewEngine(engineDevice(dev))
	if err != nil {
		t.Fatal(err)
	}
	var texs []*videotex.Texture
	defer func() {
		for _, tex := range texs {
			tex.Close()
		}
		if err := eng.Close(); err != nil {
			t.Error(err)
		}
	}()
	for _, c := range cases {
		v, ok := vectors[c.vector]
		if !ok {
			t.Fatalf("no test vector %q", c.vector)
		}
		tex, err := eng.Open(filepath.Join(mediaDir, v.File), videotex.Options{Path: c.path})
		if err != nil {
			t.Fatal(err)
		}
		texs = append(texs, tex)
	}
	if err := eng.Close(); err == nil {
		t.Fatal("Engine.Close with four textures open succeeded")
	}

	// One engine per texture (its target, pipeline and set layout: each texture its own sampler),
	// one submission for the four frames.
	frames := make([]*videotex.Frame, len(texs))
	engines := make([]*testEngine, len(texs))
	var layouts []vk.DescriptorSetLayout
	var pools []vk.DescriptorPool
	defer func() {
		for _, l := range layouts {
			vk.DestroyDescriptorSetLayout(dev.Device, l, nil)
		}
		for _, p := range pools {
			vk.DestroyDescriptorPool(dev.Device, p, nil)
		}
	}()
	var cbs []vk.CommandBuffer
	for k, tex := range texs {
		f, err := tex.Step()
		if err != nil {
			t.Fatal(err)
		}
		frames[k] = f
		v := vectors[cases[k].vector]
		e := newTestEngine(t, dev, v.Width, v.Height)
		e.readback = true
		engines[k] = e
		set, layout, pool, err := frameSet(dev.Device, f)
		layouts, pools = append(layouts, layout), append(pools, pool)
		if err != nil {
			t.Fatal(err)
		}
		if err := e.BuildPipelines(layout); err != nil {
			t.Fatal(err)
		}
		cb, err := e.Record(0, set, f.UVScale)
		if err != nil {
			t.Fatal(err)
		}
		cbs = append(cbs, cb)
	}
	// One batch: its waits (every frame's semaphore, each once) cover all four command buffers.
	var sems []vk.Semaphore
	var stages []vk.PipelineStageFlags
	for _, f := range frames {
		sems, stages = append(sems, f.Wait), append(stages, f.WaitStage)
	}
	si := []vk.SubmitInfo{{SType: vk.StructureTypeSubmitInfo,
		WaitSemaphoreCount: uint32(len(sems)), PWaitSemaphores: sems, PWaitDstStageMask: stages,
		CommandBufferCount: uint32(len(cbs)), PCommandBuffers: cbs}}
	var res vk.Result
	fence := engines[0].Fence(0)
	vkx.NoGC(func() { res = vk.QueueSubmit(dev.Queue, 1, si, fence) })
	si[0].Free()
	if err := vkx.Check(res, "vkQueueSubmit"); err != nil {
		t.Fatal(err)
	}
	if err := engines[0].WaitSlot(0); err != nil {
		t.Fatal(err)
	}
	for _, f := range frames {
		f.Done()
	}

	limits := map[formats.Path]float64{formats.PathShader: 1, formats.PathSampler: 4}
	paths := map[formats.Path]int{}
	for k, tex := range texs {
		v := vectors[cases[k].vector]
		path, why := tex.Path()
		paths[path]++
		want := pictest.ReadPNG(t, filepath.Join(mediaDir, v.PNG))
		d, err := maxDiff(engines[k].Picture(), want)
		switch {
		case err != nil:
			t.Errorf("texture %d (%s): %v", k, v.Name, err)
		case d > limits[path]:
			t.Errorf("texture %d (%s) via %s: %.0f LSB from zscale (limit %.0f)", k, v.Name, path, d, limits[path])
		default:
			t.Logf("texture %d (%s) via %s (%s): within %.0f LSB of zscale", k, v.Name, path, why, d)
		}
	}
	if paths[formats.PathSampler] == 0 || paths[formats.PathShader] == 0 {
		t.Errorf("paths used: %v; want both", paths)
	}
	if frames[0].Sampler != frames[1].Sampler || frames[0].Generation != frames[1].Generation {
		t.Errorf("two textures of one stream on one engine: samplers %v and %v, want the same (shared cache)",
			frames[0].Sampler, frames[1].Sampler)
	}
}

// frameSet makes a set layout with f's binding, a pool sized for it and one set with f's image.
func frameSet(d vk.Device, f *videotex.Frame) (vk.DescriptorSet, vk.DescriptorSetLayout, vk.DescriptorPool, error) {
	var layout vk.DescriptorSetLayout
	var pool vk.DescriptorPool
	var set vk.DescriptorSet
	lci := &vk.DescriptorSetLayoutCreateInfo{SType: vk.StructureTypeDescriptorSetLayoutCreateInfo, BindingCount: 1,
		PBindings: []vk.DescriptorSetLayoutBinding{f.LayoutBinding(0, vk.ShaderStageFlags(vk.ShaderStageFragmentBit))}}
	err := vkx.Check(vk.CreateDescriptorSetLayout(d, lci, nil, &layout), "vkCreateDescriptorSetLayout")
	lci.Free()
	if err != nil {
		return set, layout, pool, err
	}
	pci := &vk.DescriptorPoolCreateInfo{SType: vk.StructureTypeDescriptorPoolCreateInfo, MaxSets: 1,
		PoolSizeCount: 1, PPoolSizes: []vk.DescriptorPoolSize{f.PoolSize(1)}}
	err = vkx.Check(vk.CreateDescriptorPool(d, pci, nil, &pool), "vkCreateDescriptorPool")
	pci.Free()
	if err != nil {
		return set, layout, pool, err
	}
	ai := &vk.DescriptorSetAllocateInfo{SType: vk.StructureTypeDescriptorSetAllocateInfo, DescriptorPool: pool,
		DescriptorSetCount: 1, PSetLayouts: []vk.DescriptorSetLayout{layout}}
	err = vkx.Check(vk.AllocateDescriptorSets(d, ai, &set), "vkAllocateDescriptorSets")
	ai.Free()
	if err != nil {
		return set, layout, pool, err
	}
	ii := f.ImageInfo()
	vkx.WriteImages(d, set, []vk.ImageView{ii.ImageView}, ii.Sampler, ii.ImageLayout)
	return set, layout, pool, nil
}
