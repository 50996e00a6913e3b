package videotex_test

import (
	"fmt"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/videotex"
)

// The code between the listing markers is docs/engine.md's listing, word for word (TestDocListing
// checks it); TestListing runs it.

// listing:begin

// renderer is the engine's own code: its command buffers, fences and pipelines.
type renderer interface {
	WaitSlot(i int) error // waits for frame slot i's fence (its last submission) and resets it
	Fence(i int) vk.Fence // the fence slot i's next submission signals
	BuildPipelines(setLayout vk.DescriptorSetLayout) error
	Record(i int, set vk.DescriptorSet, uvScale [2]float32) (vk.CommandBuffer, error)
}

// playVideo draws frames frames of url with the engine's renderer r. next picks each frame: a
// clock's tex.Acquire(now), or tex.Step().
func playVideo(dev videotex.EngineDevice, url string, opts videotex.Options, frames int, r renderer,
	next func(tex *videotex.Texture) (*videotex.Frame, error)) error {
	tex, err := videotex.Open(dev, url, opts)
	if err != nil {
		return err
	}
	const inFlight = 2
	held := make([]*videotex.Frame, inFlight) // the Frame each slot's last submission sampled
	sets := make([]vk.DescriptorSet, inFlight)
	var gen uint64
	var setLayout vk.DescriptorSetLayout
	var pool vk.DescriptorPool
	defer func() {
		videotex.DeviceWaitIdle(dev) // the GPU work is done (vkDeviceWaitIdle under every queue lock)
		for _, f := range held {
			if f != nil {
				f.Done()
			}
		}
		vk.DestroyDescriptorPool(dev.Device, pool, nil)
		vk.DestroyDescriptorSetLayout(dev.Device, setLayout, nil)
		tex.Close()
	}()
	for n := 0; n < frames; n++ {
		i := n % inFlight
		if err := r.WaitSlot(i); err != nil {
			return err
		}
		if held[i] != nil {
			held[i].Done() // the submission that sampled it has completed
			held[i] = nil
		}
		f, err := next(tex) // never waits for decoding
		if err != nil {
			return err
		}
		if f.Generation != gen {
			// A new immutable sampler: rebuild everything that embeds it. (Its own frames are idle.)
			videotex.DeviceWaitIdle(dev) // not a plain vkDeviceWaitIdle: FFmpeg submits meanwhile
			vk.DestroyDescriptorPool(dev.Device, pool, nil)
			vk.DestroyDescriptorSetLayout(dev.Device, setLayout, nil)
			lci := &vk.DescriptorSetLayoutCreateInfo{SType: vk.StructureTypeDescriptorSetLayoutCreateInfo, BindingCount: 1,
				PBindings: []vk.DescriptorSetLayoutBinding{f.LayoutBinding(0, vk.ShaderStageFlags(vk.ShaderStageFragmentBit))}}
			res := vk.CreateDescriptorSetLayout(dev.Device, lci, nil, &setLayout)
			lci.Free()
			if res != vk.Success {
				f.Discard()
				return fmt.Errorf("vkCreateDescriptorSetLayout: %d", res)
			}
			pci := &vk.DescriptorPoolCreateInfo{SType: vk.StructureTypeDescriptorPoolCreateInfo, MaxSets: inFlight,
				PoolSizeCount: 1, PPoolSizes: []vk.DescriptorPoolSize{f.PoolSize(inFlight)}} // × DescriptorCount
			res = vk.CreateDescriptorPool(dev.Device, pci, nil, &pool)
			pci.Free()
			if res != vk.Success {
				f.Discard()
				return fmt.Errorf("vkCreateDescriptorPool: %d", res)
			}
			for k := range sets {
				ai := &vk.DescriptorSetAllocateInfo{SType: vk.StructureTypeDescriptorSetAllocateInfo, DescriptorPool: pool,
					DescriptorSetCount: 1, PSetLayouts: []vk.DescriptorSetLayout{setLayout}}
				var set vk.DescriptorSet
				res = vk.AllocateDescriptorSets(dev.Device, ai, &set)
				ai.Free()
				if res != vk.Success {
					f.Discard()
					return fmt.Errorf("vkAllocateDescriptorSets: %d", res)
				}
				sets[k] = set
			}
			if err := r.BuildPipelines(setLayout); err != nil {
				f.Discard()
				return err
			}
			gen = f.Generation
		}
		// The image changes from frame to frame: write it into this slot's set every time.
		w := []vk.WriteDescriptorSet{{SType: vk.StructureTypeWriteDescriptorSet, DstSet: sets[i], DstBinding: 0,
			DescriptorCount: 1, DescriptorType: vk.DescriptorTypeCombinedImageSampler,
			PImageInfo: []vk.DescriptorImageInfo{f.ImageInfo()}}}
		vk.UpdateDescriptorSets(dev.Device, 1, w, 0, nil)
		cb, err := r.Record(i, sets[i], f.UVScale)
		if err != nil {
			f.Discard()
			return err
		}
		si := []vk.SubmitInfo{{SType: vk.StructureTypeSubmitInfo,
			WaitSemaphoreCount: 1, PWaitSemaphores: []vk.Semaphore{f.Wait}, PWaitDstStageMask: []vk.PipelineStageFlags{f.WaitStage},
			CommandBufferCount: 1, PCommandBuffers: []vk.CommandBuffer{cb}}}
		res := vk.QueueSubmit(dev.Queue, 1, si, r.Fence(i))
		si[0].Free()
		if res != vk.Success {
			f.Discard()
			return fmt.Errorf("vkQueueSubmit: %d", res)
		}
		held[i] = f
	}
	return nil
}

// listing:end
