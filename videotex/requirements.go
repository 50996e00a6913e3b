package videotex

import (
	"fmt"
	"strings"
	"unsafe"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/internal/vkx"
)

// DeviceRequirements is what an engine must enable on its VkInstance and VkDevice before Open.
type DeviceRequirements struct {
	// APIVersion is the lowest Vulkan version the instance (VkApplicationInfo.apiVersion) and the
	// device must offer: 1.1, where sampler Y′CbCr conversion is core.
	APIVersion uint32
	// SamplerYcbcrConversion is the device feature that must be enabled: always true. Enable it with
	// VkPhysicalDeviceSamplerYcbcrConversionFeatures in VkDeviceCreateInfo.pNext (FeatureChain builds
	// one), or with VkPhysicalDeviceVulkan11Features.samplerYcbcrConversion if the engine already
	// chains that struct (the two must not both be in one chain).
	SamplerYcbcrConversion bool
	// Extensions are device extensions that must be enabled. None today; the field exists so that a
	// future need does not change the API.
	Extensions []string
	// QueueFlags are the capabilities the family of EngineDevice.Queue needs: graphics, because the
	// fallback path converts with a draw.
	QueueFlags vk.QueueFlags
	// InternallySynchronized says whether the device offers VK_KHR_internally_synchronized_queues
	// with its feature: optional; where the engine creates its queues with it
	// (EngineDevice.InternallySynchronizedQueues) no queue lock is needed. Enable the extension and
	// the feature (InternallySynchronizedChain) and set DeviceQueueCreateInternallySynchronized on
	// the queues' create infos.
	InternallySynchronized InternallySynchronized
}

// Requirements says what to enable for textures on physical, a device of instance. It fails, with
// the reason, when the device cannot sample Y′CbCr at all (Vulkan below 1.1, or no
// samplerYcbcrConversion feature). The instance must have been created with apiVersion ≥ 1.1.
func Requirements(instance vk.Instance, physical vk.PhysicalDevice) (DeviceRequirements, error) {
	r := DeviceRequirements{APIVersion: vk.MakeVersion(1, 1, 0), SamplerYcbcrConversion: true,
		QueueFlags: vk.QueueFlags(vk.QueueGraphicsBit)}
	if instance == nil || physical == nil {
		return r, fmt.Errorf("videotex: requirements: instance and physical device must be set")
	}
	if err := vkx.Load(); err != nil {
		return r, fmt.Errorf("videotex: requirements: %w", err)
	}
	// The toolkit's Vulkan 1.1 queries (features2, format properties2) are looked up on the instance.
	if err := vkx.LoadInstance(instance); err != nil {
		return r, fmt.Errorf("videotex: requirements: %w", err)
	}
	var props vk.PhysicalDeviceProperties
	vk.GetPhysicalDeviceProperties(physical, &props)
	props.Deref()
	name := vk.ToString(props.DeviceName[:])
	if props.ApiVersion < r.APIVersion {
		return r, fmt.Errorf("videotex: requirements: %s offers Vulkan %d.%d; Y′CbCr sampling needs 1.1",
			name, props.ApiVersion>>22, (props.ApiVersion>>12)&0x3ff)
	}
	if !vkx.YcbcrConversionFeature(physical) {
		return r, fmt.Errorf("videotex: requirements: %s has no samplerYcbcrConversion feature", name)
	}
	r.InternallySynchronized = internallySynchronized(physical, name)
	return r, nil
}

// Missing lists what of r the given device extensions and feature state lack: required extensions
// not in enabled, and the feature when ycbcrEnabled is false. Engines that let another library
// create the device check its result with it.
func (r DeviceRequirements) Missing(enabled []string, ycbcrEnabled bool) []string {
	have := map[string]bool{}
	for _, e := range enabled {
		have[strings.TrimRight(e, "\x00")] = true
	}
	var out []string
	for _, e := range r.Extensions {
		if !have[e] {
			out = append(out, e)
		}
	}
	if r.SamplerYcbcrConversion && !ycbcrEnabled {
		out = append(out, "samplerYcbcrConversion feature")
	}
	return out
}

// FeatureChain returns a VkPhysicalDeviceSamplerYcbcrConversionFeatures with samplerYcbcrConversion
// on, in C memory (a Go-memory pNext chain makes cgo panic), for VkDeviceCreateInfo.PNext; next is
// chained after it (nil or another C-memory struct). Call free once vkCreateDevice has returned.
func (r DeviceRequirements) FeatureChain(next unsafe.Pointer) (pNext unsafe.Pointer, free func()) {
	f := &vk.PhysicalDeviceSamplerYcbcrConversionFeatures{
		SType: vk.StructureTypePhysicalDeviceSamplerYcbcrConversionFeatures, PNext: next,
		SamplerYcbcrConversion: vk.True,
	}
	ref, _ := f.PassRef()
	return unsafe.Pointer(ref), f.Free
}

// InternallySynchronizedChain returns a VkPhysicalDeviceInternallySynchronizedQueuesFeaturesKHR with
// internallySynchronizedQueues on, in C memory, followed by next (nil or C memory), for
// VkDeviceCreateInfo.PNext of a device whose queues are created with
// DeviceQueueCreateInternallySynchronized (vulkan-go lacks the struct). Call free once
// vkCreateDevice has returned.
func (r DeviceRequirements) InternallySynchronizedChain(next unsafe.Pointer) (pNext unsafe.Pointer, free func()) {
	return vkx.InternallySynchronizedQueuesChain(next)
}
