package vkx

/*
#include <stdlib.h>
#include "vkx.h"
*/
import "C"

import (
	"fmt"
	"unsafe"

	vk "github.com/vulkan-go/vulkan"
)

// YcbcrConversionFeature reports VkPhysicalDeviceSamplerYcbcrConversionFeatures.samplerYcbcrConversion.
func YcbcrConversionFeature(pd vk.PhysicalDevice) bool {
	var b C.VkBool32
	C.vkx_ycbcr_feature(cPhysical(pd), &b)
	return b != 0
}

// VK_KHR_internally_synchronized_queues, which the installed headers lack (vkx.h cites the
// registry): its name, feature struct type and queue-create flag.
const (
	ExtInternallySynchronizedQueues            = C.VKX_EXT_INTERNALLY_SYNCHRONIZED_QUEUES
	StructureTypeInternallySynchronizedQueues  = uint32(C.VKX_STRUCTURE_TYPE_INTERNALLY_SYNCHRONIZED_QUEUES_FEATURES)
	DeviceQueueCreateInternallySynchronizedBit = uint32(C.VKX_DEVICE_QUEUE_CREATE_INTERNALLY_SYNCHRONIZED_BIT)
)

// InternallySynchronizedQueuesFeature reports
// VkPhysicalDeviceInternallySynchronizedQueuesFeaturesKHR.internallySynchronizedQueues. Call it only
// for a device that lists ExtInternallySynchronizedQueues.
func InternallySynchronizedQueuesFeature(pd vk.PhysicalDevice) bool {
	var b C.VkBool32
	C.vkx_isq_feature(cPhysical(pd), &b)
	return b != 0
}

// GetDeviceQueue2 is vkGetDeviceQueue2: queue index of family, created with flags (a queue created
// with flags must be fetched this way, not with vkGetDeviceQueue).
func GetDeviceQueue2(dev vk.Device, family, index, flags uint32) vk.Queue {
	q := C.vkx_get_device_queue2(cDevice(dev), C.uint32_t(family), C.uint32_t(index), C.VkDeviceQueueCreateFlags(flags))
	return *(*vk.Queue)(unsafe.Pointer(&q))
}

// InternallySynchronizedQueuesChain returns, in C memory, the feature struct with
// internallySynchronizedQueues on, followed by next (nil or C memory): for VkDeviceCreateInfo.pNext.
// Call free once vkCreateDevice has returned.
func InternallySynchronizedQueuesChain(next unsafe.Pointer) (pNext unsafe.Pointer, free func()) {
	p := C.vkx_isq_feature_chain(next)
	return p, func() { C.free(p) }
}

// FormatFeatures holds vkGetPhysicalDeviceFormatProperties2's three feature sets.
type FormatFeatures struct{ Linear, Optimal, Buffer vk.FormatFeatureFlags }

// FormatProperties queries a format's features.
func FormatProperties(pd vk.PhysicalDevice, format uint32) FormatFeatures {
	var l, o, b C.VkFormatFeatureFlags
	C.vkx_format_properties(cPhysical(pd), C.VkFormat(format), &l, &o, &b)
	return FormatFeatures{vk.FormatFeatureFlags(l), vk.FormatFeatureFlags(o), vk.FormatFeatureFlags(b)}
}

// ImageFormatQuery is the input of vkGetPhysicalDeviceImageFormatProperties2.
type ImageFormatQuery struct {
	Format uint32
	Tiling vk.ImageTiling
	Usage  vk.ImageUsageFlags
	Flags  vk.ImageCreateFlags
	// ExternalHandle, when non-zero, asks about import with that handle type.
	ExternalHandle uint32
}

// ImageFormatInfo is what the driver answered.
type ImageFormatInfo struct {
	MaxWidth, MaxHeight uint32
	// CombinedImageSamplerDescriptorCount is how many descriptors one combined image sampler of this
	// format with a Y′CbCr conversion consumes (1..planes): pools are sized from it.
	CombinedImageSamplerDescriptorCount uint32
	ExternalFeatures                    uint32
}

// ImageFormatProperties asks whether an image of that kind can be made.
func ImageFormatProperties(pd vk.PhysicalDevice, q ImageFormatQuery) (ImageFormatInfo, error) {
	var p C.VkImageFormatProperties
	var combined C.uint32_t
	var ext C.VkExternalMemoryFeatureFlags
	r := C.vkx_image_format_properties(cPhysical(pd), C.VkFormat(q.Format), C.VK_IMAGE_TYPE_2D,
		C.VkImageTiling(q.Tiling), C.VkImageUsageFlags(q.Usage), C.VkImageCreateFlags(q.Flags),
		C.VkExternalMemoryHandleTypeFlagBits(q.ExternalHandle), &p, &combined, &ext)
	if err := Check(vk.Result(r), "vkGetPhysicalDeviceImageFormatProperties2"); err != nil {
		return ImageFormatInfo{}, err
	}
	return ImageFormatInfo{uint32(p.maxExtent.width), uint32(p.maxExtent.height), uint32(combined), uint32(ext)}, nil
}

// DriverProperties returns VkPhysicalDeviceDriverProperties' driverName and driverInfo ("llvmpipe",
// "Mesa 25.0.7 (LLVM 15.0.6)"; "NVIDIA", "580.159.04"): driverVersion alone is vendor-encoded and
// says nothing for Mesa's lavapipe (0.0.1). The device must have Vulkan 1.2 or
// VK_KHR_driver_properties (the caller checks).
func DriverProperties(pd vk.PhysicalDevice) (name, info string) {
	var n [C.VK_MAX_DRIVER_NAME_SIZE]C.char
	var i [C.VK_MAX_DRIVER_INFO_SIZE]C.char
	C.vkx_driver_properties(cPhysical(pd), &n[0], &i[0])
	return C.GoString(&n[0]), C.GoString(&i[0])
}

// PCIAddress is pd's PCI function as Linux names it ("0000:00:06.0": domain, bus, device,
// function), from VkPhysicalDevicePCIBusInfoPropertiesEXT (the caller checks that pd offers
// VK_EXT_pci_bus_info).
func PCIAddress(pd vk.PhysicalDevice) string {
	var v [4]C.uint32_t
	C.vkx_pci_bus_info(cPhysical(pd), &v[0])
	return fmt.Sprintf("%04x:%02x:%02x.%x", uint32(v[0]), uint32(v[1]), uint32(v[2]), uint32(v[3]))
}

// CreateDevice makes a logical device with queues queues of family (at least one), the extensions
// named, and the Y′CbCr feature when asked. Built in C because its pNext chain must not live in Go
// memory.
func CreateDevice(pd vk.PhysicalDevice, family, queues uint32, extensions []string, ycbcr bool) (vk.Device, error) {
	names := make([]*C.char, len(extensions))
	for i, e := range extensions {
		names[i] = C.CString(e)
	}
	arr := C.malloc(C.size_t(len(names)+1) * C.size_t(unsafe.Sizeof(uintptr(0))))
	defer C.free(arr)
	slots := unsafe.Slice((**C.char)(arr), len(names)+1)
	copy(slots, names)
	defer func() {
		for _, n := range names {
			C.free(unsafe.Pointer(n))
		}
	}()
	var y C.VkBool32
	if ycbcr {
		y = 1
	}
	var d C.VkDevice
	r := C.vkx_create_device(cPhysical(pd), C.uint32_t(family), C.uint32_t(queues), (**C.char)(arr), C.uint32_t(len(names)), y, &d)
	if err := Check(vk.Result(r), "vkCreateDevice"); err != nil {
		return nil, err
	}
	return *(*vk.Device)(unsafe.Pointer(&d)), nil
}

// ConversionCreateInfo mirrors VkSamplerYcbcrConversionCreateInfo with plain values.
type ConversionCreateInfo struct {
	Format                       uint32
	Model, Range                 uint32
	Components                   [4]vk.ComponentSwizzle // r, g, b, a
	XChromaOffset, YChromaOffset uint32
	ChromaFilter                 vk.Filter
	ForceExplicitReconstruction  bool
}

// conversionCreateInfo is the VkSamplerYcbcrConversionCreateInfo CreateConversion hands the
// driver: each field of ci copied into the member of its name, nothing else (pNext nil).
func conversionCreateInfo(ci ConversionCreateInfo) C.VkSamplerYcbcrConversionCreateInfo {
	info := C.VkSamplerYcbcrConversionCreateInfo{
		sType:         C.VK_STRUCTURE_TYPE_SAMPLER_YCBCR_CONVERSION_CREATE_INFO,
		format:        C.VkFormat(ci.Format),
		ycbcrModel:    C.VkSamplerYcbcrModelConversion(ci.Model),
		ycbcrRange:    C.VkSamplerYcbcrRange(ci.Range),
		xChromaOffset: C.VkChromaLocation(ci.XChromaOffset),
		yChromaOffset: C.VkChromaLocation(ci.YChromaOffset),
		chromaFilter:  C.VkFilter(ci.ChromaFilter),
	}
	info.components = C.VkComponentMapping{r: C.VkComponentSwizzle(ci.Components[0]),
		g: C.VkComponentSwizzle(ci.Components[1]), b: C.VkComponentSwizzle(ci.Components[2]),
		a: C.VkComponentSwizzle(ci.Components[3])}
	if ci.ForceExplicitReconstruction {
		info.forceExplicitReconstruction = 1
	}
	return info
}

// ConversionCreateInfoBytes is the memory of the create info CreateConversion hands the driver for
// ci: tests read it by the specification's member order (vk.xml), as the driver does, so that a
// value landing in the wrong member fails them without a device.
func ConversionCreateInfoBytes(ci ConversionCreateInfo) []byte {
	info := conversionCreateInfo(ci)
	return C.GoBytes(unsafe.Pointer(&info), C.int(unsafe.Sizeof(info)))
}

// CreateConversion makes a VkSamplerYcbcrConversion.
func CreateConversion(dev vk.Device, ci ConversionCreateInfo) (vk.SamplerYcbcrConversion, error) {
	info := conversionCreateInfo(ci)
	var c C.VkSamplerYcbcrConversion
	if err := Check(vk.Result(C.vkx_create_conversion(cDevice(dev), &info, &c)), "vkCreateSamplerYcbcrConversion"); err != nil {
		return nil, err
	}
	return *(*vk.SamplerYcbcrConversion)(unsafe.Pointer(&c)), nil
}

// DestroyConversion destroys a conversion made by CreateConversion.
func DestroyConversion(dev vk.Device, c vk.SamplerYcbcrConversion) {
	C.vkx_destroy_conversion(cDevice(dev), cConversion(c))
}

// ConversionInfo is a VkSamplerYcbcrConversionInfo in C memory, to chain into image-view and sampler
// create infos (a pNext into Go memory would trip cgo's pointer checks).
type ConversionInfo struct {
	p *C.VkSamplerYcbcrConversionInfo
}

// NewConversionInfo allocates the chain element; Free it after the create call.
func NewConversionInfo(c vk.SamplerYcbcrConversion) ConversionInfo {
	return ConversionInfo{C.vkx_new_conversion_info(cConversion(c))}
}

// Pointer is the value for a PNext field.
func (ci ConversionInfo) Pointer() unsafe.Pointer { return unsafe.Pointer(ci.p) }

// Free releases the C memory.
func (ci ConversionInfo) Free() { C.free(unsafe.Pointer(ci.p)) }

// MemoryRequirements is VkMemoryRequirements.
type MemoryRequirements struct {
	Size, Alignment uint64
	MemoryTypeBits  uint32
}

// ImagePlaneMemoryRequirements returns a disjoint image plane's requirements (aspect PLANE_i), or the
// whole image's with aspect 0.
func ImagePlaneMemoryRequirements(dev vk.Device, image vk.Image, aspect vk.ImageAspectFlagBits) MemoryRequirements {
	var r C.VkMemoryRequirements
	C.vkx_image_plane_requirements(cDevice(dev), cImage(image), C.VkImageAspectFlagBits(aspect), &r)
	return MemoryRequirements{uint64(r.size), uint64(r.alignment), uint32(r.memoryTypeBits)}
}

// PlaneBinding binds one plane of a disjoint image (Aspect PLANE_i), or a whole image (Aspect 0).
type PlaneBinding struct {
	Memory vk.DeviceMemory
	Offset uint64
	Aspect vk.ImageAspectFlagBits
}

// BindImagePlanes is vkBindImageMemory2 with VkBindImagePlaneMemoryInfo per plane.
func BindImagePlanes(dev vk.Device, image vk.Image, planes []PlaneBinding) error {
	if len(planes) == 0 || len(planes) > 3 {
		return fmt.Errorf("vkx: bind %d planes: want 1..3", len(planes))
	}
	var mem [3]C.VkDeviceMemory
	var off [3]C.VkDeviceSize
	var asp [3]C.VkImageAspectFlagBits
	for i, p := range planes {
		m := p.Memory
		mem[i] = *(*C.VkDeviceMemory)(unsafe.Pointer(&m))
		off[i] = C.VkDeviceSize(p.Offset)
		asp[i] = C.VkImageAspectFlagBits(p.Aspect)
	}
	r := C.vkx_bind_image_planes(cDevice(dev), cImage(image), C.uint32_t(len(planes)), &mem[0], &off[0], &asp[0])
	return Check(vk.Result(r), "vkBindImageMemory2")
}

// CreateView makes a 2D view of img's aspect in format, with the Y′CbCr conversion conv (or none),
// limited to usage (VkImageViewUsageCreateInfo): a view of an image created with usages its format
// does not support for views (a decoder's VIDEO_DECODE_DST) is valid for sampling this way.
func CreateView(dev vk.Device, img vk.Image, format vk.Format, aspect vk.ImageAspectFlags,
	conv vk.SamplerYcbcrConversion, usage vk.ImageUsageFlags) (vk.ImageView, error) {
	var out C.VkImageView
	r := C.vkx_create_view(cDevice(dev), cImage(img), C.VkFormat(format), C.VkImageAspectFlags(aspect),
		cConversion(conv), C.VkImageUsageFlags(usage), &out)
	if err := Check(vk.Result(r), "vkCreateImageView"); err != nil {
		return vk.NullImageView, err
	}
	return *(*vk.ImageView)(unsafe.Pointer(&out)), nil
}
