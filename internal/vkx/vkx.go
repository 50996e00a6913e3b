package vkx

/*
#cgo LDFLAGS: -ldl
#include <stdlib.h>
#include "vkx.h"
*/
import "C"

import (
	"errors"
	"fmt"
	"strings"
	"unsafe"

	vk "github.com/vulkan-go/vulkan"
)

// Library is the loader's soname. The unversioned libvulkan.so ships only with -dev packages.
const Library = "libvulkan.so.1"

var loaded bool

// Load opens the Vulkan loader and hands vkGetInstanceProcAddr to vulkan-go. Safe to call repeatedly.
func Load() error {
	if loaded {
		return nil
	}
	name := C.CString(Library)
	defer C.free(unsafe.Pointer(name))
	if rc := C.vkx_load(name); rc != 0 {
		return fmt.Errorf("vkx: cannot load %s: no Vulkan loader installed", Library)
	}
	vk.SetGetInstanceProcAddr(C.vkx_get_instance_proc_addr())
	if err := vk.Init(); err != nil {
		return fmt.Errorf("vkx: %w", err)
	}
	loaded = true
	return nil
}

// LoadInstance must follow vkCreateInstance: without vk.InitInstance vulkan-go's next call jumps to NULL.
func LoadInstance(instance vk.Instance) error {
	if err := vk.InitInstance(instance); err != nil {
		return fmt.Errorf("vkx: %w", err)
	}
	if n := C.vkx_load_instance(cInstance(instance)); n != 0 {
		return fmt.Errorf("vkx: %d Vulkan 1.1 instance entry points missing (need Vulkan 1.1)", int(n))
	}
	return nil
}

// LoadDevice looks up the device-level entry points through vkGetDeviceProcAddr.
func LoadDevice(device vk.Device) { C.vkx_load_device(cDevice(device)) }

// Handles are pointers on amd64 in both vulkan-go and the C headers: reinterpret the 8 bytes.
func cInstance(h vk.Instance) C.VkInstance { return *(*C.VkInstance)(unsafe.Pointer(&h)) }
func cDevice(h vk.Device) C.VkDevice       { return *(*C.VkDevice)(unsafe.Pointer(&h)) }
func cPhysical(h vk.PhysicalDevice) C.VkPhysicalDevice {
	return *(*C.VkPhysicalDevice)(unsafe.Pointer(&h))
}
func cImage(h vk.Image) C.VkImage { return *(*C.VkImage)(unsafe.Pointer(&h)) }
func cConversion(h vk.SamplerYcbcrConversion) C.VkSamplerYcbcrConversion {
	return *(*C.VkSamplerYcbcrConversion)(unsafe.Pointer(&h))
}

// Error is a failed Vulkan call: which call, and the VkResult's name.
type Error struct {
	Call   string
	Result vk.Result
}

func (e *Error) Error() string { return e.Call + ": " + ResultName(e.Result) }

// Check turns a VkResult into an error naming the call; nil for VK_SUCCESS. Tests can make it
// report a failure that did not happen (InjectFault, fault.go).
func Check(r vk.Result, call string) error {
	if faultsArmed.Load() {
		r = injected(r, call)
	}
	if r == vk.Success {
		return nil
	}
	return &Error{Call: call, Result: r}
}

// IsDeviceLost reports whether err is (or wraps) VK_ERROR_DEVICE_LOST.
func IsDeviceLost(err error) bool {
	var e *Error
	return errors.As(err, &e) && e.Result == vk.ErrorDeviceLost
}

var resultNames = map[vk.Result]string{
	0: "VK_SUCCESS", 1: "VK_NOT_READY", 2: "VK_TIMEOUT", 3: "VK_EVENT_SET", 4: "VK_EVENT_RESET",
	5: "VK_INCOMPLETE", -1: "VK_ERROR_OUT_OF_HOST_MEMORY", -2: "VK_ERROR_OUT_OF_DEVICE_MEMORY",
	-3: "VK_ERROR_INITIALIZATION_FAILED", -4: "VK_ERROR_DEVICE_LOST", -5: "VK_ERROR_MEMORY_MAP_FAILED",
	-6: "VK_ERROR_LAYER_NOT_PRESENT", -7: "VK_ERROR_EXTENSION_NOT_PRESENT", -8: "VK_ERROR_FEATURE_NOT_PRESENT",
	-9: "VK_ERROR_INCOMPATIBLE_DRIVER", -10: "VK_ERROR_TOO_MANY_OBJECTS", -11: "VK_ERROR_FORMAT_NOT_SUPPORTED",
	-12: "VK_ERROR_FRAGMENTED_POOL", -13: "VK_ERROR_UNKNOWN", -1000069000: "VK_ERROR_OUT_OF_POOL_MEMORY",
	-1000072003: "VK_ERROR_INVALID_EXTERNAL_HANDLE", -1000000000: "VK_ERROR_SURFACE_LOST_KHR",
	-1000000001: "VK_ERROR_NATIVE_WINDOW_IN_USE_KHR", 1000001003: "VK_SUBOPTIMAL_KHR",
	-1000001004: "VK_ERROR_OUT_OF_DATE_KHR", -1000011001: "VK_ERROR_VALIDATION_FAILED_EXT",
}

// ResultName is the VkResult's name as the spec spells it.
func ResultName(r vk.Result) string {
	if s, ok := resultNames[r]; ok {
		return s
	}
	return fmt.Sprintf("VkResult(%d)", int32(r))
}

// Messenger is a VkDebugUtilsMessengerEXT.
type Messenger uint64

// CreateDebugMessenger routes an instance's validation messages into the process-wide queue that
// Messages drains.
func CreateDebugMessenger(instance vk.Instance) (Messenger, error) {
	var m C.VkDebugUtilsMessengerEXT
	err := Check(vk.Result(C.vkx_create_debug_messenger(cInstance(instance), &m)), "vkCreateDebugUtilsMessengerEXT")
	return *(*Messenger)(unsafe.Pointer(&m)), err
}

// DestroyDebugMessenger removes a messenger made by CreateDebugMessenger.
func DestroyDebugMessenger(instance vk.Instance, m Messenger) {
	if m != 0 {
		C.vkx_destroy_debug_messenger(cInstance(instance), *(*C.VkDebugUtilsMessengerEXT)(unsafe.Pointer(&m)))
	}
}

// Message is one validation-layer message.
type Message struct {
	Error bool
	Text  string
}

// Messages drains the queued validation messages.
func Messages() []Message {
	for {
		need := C.vkx_take_messages(nil, 0, nil, nil)
		if need == 0 {
			return nil
		}
		buf := C.malloc(C.size_t(need))
		var count, nerr C.int
		got := C.vkx_take_messages((*C.char)(buf), need, &count, &nerr)
		if got > need { // more arrived between the two calls: try again with a larger buffer
			C.free(buf)
			continue
		}
		raw := C.GoStringN((*C.char)(buf), got)
		C.free(buf)
		var out []Message
		for _, s := range strings.Split(strings.TrimRight(raw, "\x00"), "\x00") {
			if s == "" {
				continue
			}
			out = append(out, Message{Error: strings.HasPrefix(s, "error: "), Text: s})
		}
		return out
	}
}

// MessageCount is the number of queued messages, without draining them.
func MessageCount() int { return int(C.vkx_message_count()) }

// YcbcrConversionFeature reports VkPhysicalDeviceSamplerYcbcrConversionFeatures.samplerYcbcrConversion.
func YcbcrConversionFeature(pd vk.PhysicalDevice) bool {
	var b C.VkBool32
	C.vkx_ycbcr_feature(cPhysical(pd), &b)
	return b != 0
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

// CreateDevice makes a logical device with one queue, the extensions named, and the Y′CbCr feature
// when asked. Built in C because its pNext chain must not live in Go memory.
func CreateDevice(pd vk.PhysicalDevice, family uint32, extensions []string, ycbcr bool) (vk.Device, error) {
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
	r := C.vkx_create_device(cPhysical(pd), C.uint32_t(family), (**C.char)(arr), C.uint32_t(len(names)), y, &d)
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

// CreateConversion makes a VkSamplerYcbcrConversion.
func CreateConversion(dev vk.Device, ci ConversionCreateInfo) (vk.SamplerYcbcrConversion, error) {
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

// HostPointerMemoryTypes is vkGetMemoryHostPointerPropertiesEXT: which memory types can import ptr.
func HostPointerMemoryTypes(dev vk.Device, ptr unsafe.Pointer) (uint32, error) {
	var bits C.uint32_t
	r := C.vkx_host_pointer_properties(cDevice(dev), ptr, &bits)
	return uint32(bits), Check(vk.Result(r), "vkGetMemoryHostPointerPropertiesEXT")
}

// CreateHeadlessSurface is vkCreateHeadlessSurfaceEXT.
func CreateHeadlessSurface(instance vk.Instance) (vk.Surface, error) {
	var s C.VkSurfaceKHR
	if err := Check(vk.Result(C.vkx_create_headless_surface(cInstance(instance), &s)), "vkCreateHeadlessSurfaceEXT"); err != nil {
		return vk.NullSurface, err
	}
	return *(*vk.Surface)(unsafe.Pointer(&s)), nil
}

// CBytes copies b into C memory, for pointers that Vulkan structs built by vulkan-go carry (such as
// VkSpecializationInfo.pData), which must not point into Go memory. Call free when done.
func CBytes(b []byte) (p unsafe.Pointer, free func()) {
	p = C.CBytes(b)
	return p, func() { C.free(p) }
}
