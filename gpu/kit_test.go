package gpu

import (
	"testing"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/shaders"
)

// TestKitPoolsGrow: a kit's sets are not bounded by one descriptor pool, and no pool is asked for
// more sets than its maxSets (lavapipe grants them past it, as maintenance1 lets a driver do; NVIDIA
// refused the 17th set of a 16-set pool at 16 streams of a wall). 40 sets from pools of 16, then 10
// freed and taken again: the freed sets' pools are found again, no fourth pool. The kit's pipeline
// is made once per specialization and kept. No validation message.
func TestKitPoolsGrow(t *testing.T) {
	d := openValidated(t)
	comp := vk.ShaderStageFlags(vk.ShaderStageComputeBit)
	k, err := d.NewKit(KitDesc{Name: "test", SetsPerPool: 16,
		Bindings: []vk.DescriptorSetLayoutBinding{
			{Binding: 0, DescriptorType: vk.DescriptorTypeCombinedImageSampler, DescriptorCount: 1, StageFlags: comp},
			{Binding: 1, DescriptorType: vk.DescriptorTypeStorageBuffer, DescriptorCount: 1, StageFlags: comp},
			{Binding: 2, DescriptorType: vk.DescriptorTypeStorageImage, DescriptorCount: 1, StageFlags: comp}},
		PushStages: vk.ShaderStageComputeBit, PushBytes: shaders.ScaleCompParamsSize,
		Shaders: []Shader{{Kind: Compute, Code: shaders.ScaleComp}}})
	if err != nil {
		t.Fatal(err)
	}
	defer k.Destroy()
	var sets []Set
	for i := range 40 {
		s, err := k.Allocate()
		if err != nil {
			t.Fatalf("set %d: %v", i+1, err)
		}
		sets = append(sets, s)
	}
	pools := func() (n int, over bool) {
		k.mu.Lock()
		defer k.mu.Unlock()
		for _, u := range k.used {
			over = over || u > k.desc.SetsPerPool
		}
		return len(k.pools), over
	}
	if n, over := pools(); n != 3 || over {
		t.Errorf("40 sets from %d pools of 16 (a pool over its maxSets: %v): want 3, none over", n, over)
	}
	for _, s := range sets[:10] {
		k.Free(s)
	}
	for i := range 10 {
		if sets[i], err = k.Allocate(); err != nil {
			t.Fatalf("set %d again: %v", i+1, err)
		}
	}
	if n, over := pools(); n != 3 || over {
		t.Errorf("after 10 freed and taken again: %d pools (over: %v), want 3, none over", n, over)
	}
	for _, s := range sets {
		k.Free(s)
	}
	a, err := k.Pipeline(0, vk.NullRenderPass, 0, []int32{0, 1})
	if err != nil {
		t.Fatal(err)
	}
	b, err := k.Pipeline(0, vk.NullRenderPass, 0, []int32{0, 1})
	if err != nil {
		t.Fatal(err)
	}
	c, err := k.Pipeline(0, vk.NullRenderPass, 0, []int32{0, 0})
	if err != nil {
		t.Fatal(err)
	}
	if a != b || a == c || len(k.pipes) != 2 {
		t.Errorf("pipelines: the same specialization twice gave %v and %v, another %v; %d made, want 2", a, b, c, len(k.pipes))
	}
	if _, err := k.Pipeline(1, vk.NullRenderPass, 0, nil); err == nil {
		t.Error("a shader the kit does not have gave a pipeline")
	}
}
