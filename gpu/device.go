package gpu

import (
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/internal/vkx"
)

// ValidationLayer is the Khronos validation layer's name.
const ValidationLayer = "VK_LAYER_KHRONOS_validation"

// Device extensions the toolkit uses when the device offers them.
const (
	ExtExternalMemoryHost = "VK_EXT_external_memory_host"
	ExtSwapchain          = "VK_KHR_swapchain"
	// ExtHDRMetadata passes a stream's mastering display and content light levels to an HDR10
	// swapchain (vkSetHdrMetadataEXT); it needs VK_KHR_swapchain, and is enabled with it when offered.
	ExtHDRMetadata     = "VK_EXT_hdr_metadata"
	extHeadlessSurface = "VK_EXT_headless_surface"
	extSurface         = "VK_KHR_surface"
	extDebugUtils      = "VK_EXT_debug_utils"
	// ExtSwapchainColorspace is the instance extension that adds swapchain colour spaces beyond
	// sRGB (HDR10 among them); enabled with a window system's extensions when offered.
	ExtSwapchainColorspace = "VK_EXT_swapchain_colorspace"
)

// Options choose how a Device is opened.
type Options struct {
	// Index picks a physical device by its position in the -list-devices order; -1 picks the first
	// discrete GPU, else integrated, else the first that can sample Y′CbCr.
	Index int
	// Validation turns on the Khronos validation layer, with synchronization validation, and
	// collects its messages (tests always do).
	// It is also on when VK_INSTANCE_LAYERS names the layer.
	Validation bool
	// InstanceExtensions are extra instance extensions (a window system's, from GLFW).
	InstanceExtensions []string
	// Swapchain asks for VK_KHR_swapchain on the device (a window or headless surface will present).
	Swapchain bool
	// Video asks for what Vulkan Video decoding by FFmpeg needs, where the device offers it: Vulkan
	// 1.3, the decode queue family and the video extensions and features (gpu/video.go). Device.Video
	// says what was enabled, or why not.
	Video bool
	// Frames asks, where Video enables no decoding, for what FFmpeg's Vulkan frames
	// (hwcontext_vulkan) need without a decode queue: Vulkan 1.3, timelineSemaphore,
	// synchronization2, samplerYcbcrConversion (Device.Video.Features says what was enabled). Software
	// pictures uploaded into such frames test the in-place route of hardware frames where nothing
	// decodes (lavapipe).
	Frames bool
	// Share asks for VK_KHR_external_memory_fd where the device offers it (Device.Extensions says
	// whether it was enabled): images another device of the GPU writes and this one reads
	// (stream.Relay, a wall's decoding devices).
	Share bool
	// Queues is how many queues of the graphics family to create (0: one), at most the family's
	// count: Device.Queues. A program that submits many streams' frames at once spreads them over
	// these (a wall of videos).
	Queues int
	// CacheDir is the folder whose file seeds the device's pipeline cache, which Close writes back
	// (DefaultCacheDir for the programs); "" keeps the cache in memory only, as tests want.
	CacheDir string
}

// OpenTimes is how long Open took, by phase, for start-up figures.
type OpenTimes struct {
	Instance      time.Duration // loader, layers, vkCreateInstance
	Device        time.Duration // physical device, vkCreateDevice, queue, command pool
	PipelineCache time.Duration // reading the cache file and vkCreatePipelineCache
}

// DeviceInfo describes one physical device for -list-devices.
type DeviceInfo struct {
	Index      int
	Name       string
	Type       string
	APIVersion string
	Ycbcr      bool // samplerYcbcrConversion feature
}

func (d DeviceInfo) String() string {
	y := "Y′CbCr conversion"
	if !d.Ycbcr {
		y = "no Y′CbCr conversion"
	}
	return fmt.Sprintf("%d: %s (%s, Vulkan %s, %s)", d.Index, d.Name, d.Type, d.APIVersion, y)
}

// Device is an opened Vulkan device with its graphics queues.
type Device struct {
	Instance vk.Instance
	Physical vk.PhysicalDevice
	Device   vk.Device
	// Queue is queue 0 of QueueFamily, the toolkit's own and FFmpeg's; Queues are all the queues of
	// the family the device was created with (Options.Queues), Queue first.
	Queue       vk.Queue
	Queues      []vk.Queue
	QueueFamily uint32
	Info        DeviceInfo
	Limits      vk.PhysicalDeviceLimits
	Memory      vk.PhysicalDeviceMemoryProperties
	// Extensions enabled on the device.
	Extensions map[string]bool
	// HeadlessSurface is true when VK_EXT_headless_surface was enabled on the instance.
	HeadlessSurface bool
	Validation      bool
	// InstanceExtensions are the extensions enabled on the instance.
	InstanceExtensions []string
	// APIVersion is the instance's apiVersion (1.1, or 1.3 with Options.Video where the loader has it).
	APIVersion uint32
	// Video is what the device offers for Vulkan Video decoding (Options.Video).
	Video Video
	// Identity keys what is cached about the device (pipeline cache header, driver version).
	Identity Identity
	// CacheDir is Options.CacheDir ("" when nothing is kept between runs).
	CacheDir string
	// PipelineCacheState says whether a file seeded the pipeline cache, or why not.
	PipelineCacheState PipelineCacheState
	// Closing is where Close's time went (set by Close).
	Closing CloseTimes
	// OpenTimes is how long Open's phases took.
	OpenTimes OpenTimes
	// QueueLock, set on a wrapped device (Wrap) only, is the engine's lock on queue 0 of
	// QueueFamily: FFmpeg's submissions to that queue (AVVulkanDeviceContext.lock_queue) and Submit
	// take it instead of the toolkit's C lock, which the engine's own submissions do not take.
	QueueLock sync.Locker
	// InternallySynchronized, set on a wrapped device only, says the engine created the queues of
	// QueueFamily and of Video.DecodeFamily with VK_KHR_internally_synchronized_queues' flag: FFmpeg's
	// lock_queue takes no lock for them and its queues are fetched with vkGetDeviceQueue2 and the flag.
	InternallySynchronized bool

	pool           vk.CommandPool
	commandBuffers atomic.Int64 // NewCommandBuffer's, not yet freed (CommandBuffers)
	messenger      vkx.Messenger
	layerSpec      uint32 // the validation layer's specVersion (0: no validation)
	pipelineCache  vk.PipelineCache
	seedSum        [32]byte // SHA-256 of the cache's seed, so an unchanged cache is not written back
	mem            memAccount
}

func cstr(s string) string { return s + "\x00" }

func apiString(v uint32) string {
	return fmt.Sprintf("%d.%d.%d", v>>22, (v>>12)&0x3ff, v&0xfff)
}

func deviceTypeName(t vk.PhysicalDeviceType) string {
	switch t {
	case vk.PhysicalDeviceTypeDiscreteGpu:
		return "discrete GPU"
	case vk.PhysicalDeviceTypeIntegratedGpu:
		return "integrated GPU"
	case vk.PhysicalDeviceTypeVirtualGpu:
		return "virtual GPU"
	case vk.PhysicalDeviceTypeCpu:
		return "CPU"
	}
	return "other"
}

// instanceLayers maps the installed layers' names to their specVersion (the Vulkan header version
// each was built against).
func instanceLayers() map[string]uint32 {
	var n uint32
	vk.EnumerateInstanceLayerProperties(&n, nil)
	props := make([]vk.LayerProperties, n)
	vkx.NoGC(func() { vk.EnumerateInstanceLayerProperties(&n, props) })
	out := map[string]uint32{}
	for _, p := range props[:n] {
		p.Deref()
		out[vk.ToString(p.LayerName[:])] = p.SpecVersion
	}
	return out
}

func instanceExtensions() map[string]bool {
	var n uint32
	vk.EnumerateInstanceExtensionProperties("", &n, nil)
	props := make([]vk.ExtensionProperties, n)
	vkx.NoGC(func() { vk.EnumerateInstanceExtensionProperties("", &n, props) })
	out := map[string]bool{}
	for _, p := range props[:n] {
		p.Deref()
		out[vk.ToString(p.ExtensionName[:])] = true
	}
	return out
}

// DeviceExtensions are the extensions pd advertises (not only those a device enabled: Device.Extensions).
func DeviceExtensions(pd vk.PhysicalDevice) map[string]bool {
	var n uint32
	vk.EnumerateDeviceExtensionProperties(pd, "", &n, nil)
	props := make([]vk.ExtensionProperties, n)
	vkx.NoGC(func() { vk.EnumerateDeviceExtensionProperties(pd, "", &n, props) })
	out := map[string]bool{}
	for _, p := range props[:n] {
		p.Deref()
		out[vk.ToString(p.ExtensionName[:])] = true
	}
	return out
}

type instance struct {
	handle     vk.Instance
	messenger  vkx.Messenger
	validation bool
	layerSpec  uint32 // the validation layer's specVersion, when validation is on
	headless   bool
	exts       []string
	version    uint32
}

func createInstance(opts Options) (instance, error) {
	if err := vkx.Load(); err != nil {
		return instance{}, fmt.Errorf("gpu: %w", err)
	}
	envLayers := os.Getenv("VK_INSTANCE_LAYERS")
	validation := opts.Validation || strings.Contains(envLayers, ValidationLayer)
	var layers []string
	if opts.Validation {
		if _, ok := instanceLayers()[ValidationLayer]; !ok {
			return instance{}, fmt.Errorf("gpu: validation requested but %s is not installed (Debian: vulkan-validationlayers)", ValidationLayer)
		}
		layers = append(layers, cstr(ValidationLayer))
		enableSyncValidation()
	}
	have := instanceExtensions()
	var exts []string
	for _, e := range opts.InstanceExtensions {
		exts = append(exts, cstr(strings.TrimRight(e, "\x00")))
	}
	if len(opts.InstanceExtensions) > 0 && have[ExtSwapchainColorspace] {
		exts = append(exts, cstr(ExtSwapchainColorspace))
	}
	headless := false
	if have[extHeadlessSurface] && have[extSurface] && len(opts.InstanceExtensions) == 0 {
		exts = append(exts, cstr(extSurface), cstr(extHeadlessSurface))
		headless = true
	}
	if validation && have[extDebugUtils] {
		exts = append(exts, cstr(extDebugUtils))
	}
	version := vk.MakeVersion(1, 1, 0)
	if (opts.Video || opts.Frames) && vkx.InstanceVersion() >= vkx.APIVersion13 {
		// FFmpeg's Vulkan decoding calls Vulkan 1.3 commands (vkQueueSubmit2, vkCmdPipelineBarrier2),
		// which need an instance of that version.
		version = vkx.APIVersion13
	}
	app := &vk.ApplicationInfo{
		SType:            vk.StructureTypeApplicationInfo,
		PApplicationName: cstr("ycbcrkit"),
		PEngineName:      cstr("ycbcrkit"),
		ApiVersion:       version,
	}
	ci := &vk.InstanceCreateInfo{
		SType:                   vk.StructureTypeInstanceCreateInfo,
		PApplicationInfo:        app,
		EnabledLayerCount:       uint32(len(layers)),
		PpEnabledLayerNames:     layers,
		EnabledExtensionCount:   uint32(len(exts)),
		PpEnabledExtensionNames: exts,
	}
	var inst vk.Instance
	err := vkx.Check(vk.CreateInstance(ci, nil, &inst), "vkCreateInstance")
	ci.Free()
	app.Free()
	if err != nil {
		return instance{}, fmt.Errorf("gpu: %w", err)
	}
	if err := vkx.LoadInstance(inst); err != nil {
		vk.DestroyInstance(inst, nil)
		return instance{}, fmt.Errorf("gpu: %w", err)
	}
	var messenger vkx.Messenger
	if validation && have[extDebugUtils] {
		if messenger, err = vkx.CreateDebugMessenger(inst); err != nil {
			vk.DestroyInstance(inst, nil)
			return instance{}, fmt.Errorf("gpu: %w", err)
		}
	}
	names := make([]string, len(exts))
	for i, e := range exts {
		names[i] = strings.TrimRight(e, "\x00")
	}
	var layerSpec uint32
	if validation {
		layerSpec = instanceLayers()[ValidationLayer]
	}
	return instance{inst, messenger, validation, layerSpec, headless, names, version}, nil
}

func physicalDevices(inst vk.Instance) ([]vk.PhysicalDevice, []DeviceInfo, error) {
	var n uint32
	if err := vkx.Check(vk.EnumeratePhysicalDevices(inst, &n, nil), "vkEnumeratePhysicalDevices"); err != nil {
		return nil, nil, err
	}
	pds := make([]vk.PhysicalDevice, n)
	if err := vkx.Check(vk.EnumeratePhysicalDevices(inst, &n, pds), "vkEnumeratePhysicalDevices"); err != nil {
		return nil, nil, err
	}
	infos := make([]DeviceInfo, n)
	for i, pd := range pds[:n] {
		var p vk.PhysicalDeviceProperties
		vk.GetPhysicalDeviceProperties(pd, &p)
		p.Deref()
		infos[i] = DeviceInfo{
			Index: i, Name: vk.ToString(p.DeviceName[:]), Type: deviceTypeName(p.DeviceType),
			APIVersion: apiString(p.ApiVersion),
			Ycbcr:      p.ApiVersion >= vk.MakeVersion(1, 1, 0) && vkx.YcbcrConversionFeature(pd),
		}
	}
	return pds[:n], infos, nil
}

// ListDevices returns every physical device the loader sees.
func ListDevices() ([]DeviceInfo, error) {
	in, err := createInstance(Options{})
	if err != nil {
		return nil, err
	}
	defer func() {
		vkx.DestroyDebugMessenger(in.handle, in.messenger)
		vk.DestroyInstance(in.handle, nil)
	}()
	_, infos, err := physicalDevices(in.handle)
	if err != nil {
		return nil, fmt.Errorf("gpu: %w", err)
	}
	return infos, nil
}

func pick(infos []DeviceInfo, index int) (int, error) {
	if len(infos) == 0 {
		return 0, fmt.Errorf("gpu: no Vulkan device found (is a driver installed? Debian: mesa-vulkan-drivers from bookworm-backports)")
	}
	if index >= 0 {
		if index >= len(infos) {
			return 0, fmt.Errorf("gpu: no device %d: %d device(s) found (see -list-devices)", index, len(infos))
		}
		if !infos[index].Ycbcr {
			return 0, fmt.Errorf("gpu: device %d (%s) cannot sample Y′CbCr (samplerYcbcrConversion is off)", index, infos[index].Name)
		}
		return index, nil
	}
	rank := map[string]int{"discrete GPU": 0, "integrated GPU": 1, "virtual GPU": 2, "CPU": 3, "other": 4}
	order := make([]DeviceInfo, 0, len(infos))
	for _, d := range infos {
		if d.Ycbcr {
			order = append(order, d)
		}
	}
	if len(order) == 0 {
		return 0, fmt.Errorf("gpu: none of the %d Vulkan device(s) can sample Y′CbCr (lavapipe needs Mesa ≥ 25 from bookworm-backports)", len(infos))
	}
	sort.SliceStable(order, func(a, b int) bool { return rank[order[a].Type] < rank[order[b].Type] })
	return order[0].Index, nil
}

// Open creates the instance, picks a physical device and creates the logical device.
func Open(opts Options) (*Device, error) {
	t0 := time.Now()
	in, err := createInstance(opts)
	if err != nil {
		return nil, err
	}
	d := &Device{Instance: in.handle, messenger: in.messenger, Validation: in.validation, HeadlessSurface: in.headless,
		InstanceExtensions: in.exts, APIVersion: in.version, layerSpec: in.layerSpec, CacheDir: opts.CacheDir}
	t1 := time.Now()
	d.OpenTimes.Instance = t1.Sub(t0)
	if err := d.open(opts); err != nil {
		d.Close()
		return nil, err
	}
	t2 := time.Now()
	d.OpenTimes.Device = t2.Sub(t1)
	if err := d.openPipelineCache(opts.CacheDir); err != nil {
		d.Close()
		return nil, err
	}
	d.OpenTimes.PipelineCache = time.Since(t2)
	return d, nil
}

// readPhysical reads what the toolkit keeps of d.Physical (Limits, Identity, Memory) and returns its
// properties.
func (d *Device) readPhysical() vk.PhysicalDeviceProperties {
	var props vk.PhysicalDeviceProperties
	vk.GetPhysicalDeviceProperties(d.Physical, &props)
	props.Deref()
	props.Limits.Deref()
	d.Limits = props.Limits
	d.Identity = identityOf(&props)
	vk.GetPhysicalDeviceMemoryProperties(d.Physical, &d.Memory)
	d.Memory.Deref()
	for i := range d.Memory.MemoryTypes[:d.Memory.MemoryTypeCount] {
		d.Memory.MemoryTypes[i].Deref()
	}
	for i := range d.Memory.MemoryHeaps[:d.Memory.MemoryHeapCount] {
		d.Memory.MemoryHeaps[i].Deref()
	}
	return props
}

func (d *Device) open(opts Options) error {
	pds, infos, err := physicalDevices(d.Instance)
	if err != nil {
		return fmt.Errorf("gpu: %w", err)
	}
	idx, err := pick(infos, opts.Index)
	if err != nil {
		return err
	}
	d.Physical, d.Info = pds[idx], infos[idx]
	d.readPhysical()

	var nq uint32
	vk.GetPhysicalDeviceQueueFamilyProperties(d.Physical, &nq, nil)
	qs := make([]vk.QueueFamilyProperties, nq)
	vkx.NoGC(func() { vk.GetPhysicalDeviceQueueFamilyProperties(d.Physical, &nq, qs) })
	family, queues := -1, uint32(1)
	for i, q := range qs[:nq] {
		q.Deref()
		if vk.QueueFlagBits(q.QueueFlags)&vk.QueueGraphicsBit != 0 {
			family = i
			queues = min(max(uint32(opts.Queues), 1), q.QueueCount, vkx.MaxQueues)
			break
		}
	}
	if family < 0 {
		return fmt.Errorf("gpu: device %s has no graphics queue", d.Info.Name)
	}
	d.QueueFamily = uint32(family)

	have := DeviceExtensions(d.Physical)
	d.Extensions = map[string]bool{}
	var exts []string
	for _, e := range []string{ExtExternalMemoryHost, vkx.ExtExternalMemoryFd} {
		if have[e] && (e != vkx.ExtExternalMemoryFd || opts.Share) {
			exts = append(exts, e)
			d.Extensions[e] = true
		}
	}
	if opts.Swapchain || d.HeadlessSurface {
		if !have[ExtSwapchain] {
			if opts.Swapchain {
				return fmt.Errorf("gpu: device %s cannot present (no %s)", d.Info.Name, ExtSwapchain)
			}
		} else {
			exts = append(exts, ExtSwapchain)
			d.Extensions[ExtSwapchain] = true
			if have[ExtHDRMetadata] {
				exts = append(exts, ExtHDRMetadata)
				d.Extensions[ExtHDRMetadata] = true
			}
		}
	}
	if opts.Video {
		d.Video = planVideo(d.Instance, d.APIVersion, d.Physical, have, d.layerSpec)
	}
	if d.Video.Enabled {
		for _, e := range d.Video.Extensions {
			exts = append(exts, e)
			d.Extensions[e] = true
		}
		d.Device, err = vkx.CreateVideoDevice(d.Physical, d.QueueFamily, queues, int(d.Video.DecodeFamily),
			d.Video.DecodeQueues, exts, d.Video.Features)
	} else if f, ok := framesFeatures(d, opts); ok {
		d.Video.Features = f
		d.Device, err = vkx.CreateVideoDevice(d.Physical, d.QueueFamily, queues, -1, 0, exts, f)
	} else {
		d.Device, err = vkx.CreateDevice(d.Physical, d.QueueFamily, queues, exts, true)
	}
	if err != nil {
		return fmt.Errorf("gpu: %w", err)
	}
	vkx.LoadDevice(d.Device)
	for i := uint32(0); i < queues; i++ {
		var q vk.Queue
		vk.GetDeviceQueue(d.Device, d.QueueFamily, i, &q)
		d.Queues = append(d.Queues, q)
		// Submissions to the queue take the lock FFmpeg's decoder takes (AVVulkanDeviceContext.lock_queue).
		vkx.RegisterQueue(q, d.QueueFamily, i)
	}
	d.Queue = d.Queues[0]
	pci := &vk.CommandPoolCreateInfo{
		SType:            vk.StructureTypeCommandPoolCreateInfo,
		Flags:            vk.CommandPoolCreateFlags(vk.CommandPoolCreateResetCommandBufferBit),
		QueueFamilyIndex: d.QueueFamily,
	}
	var pool vk.CommandPool
	err = vkx.Check(vk.CreateCommandPool(d.Device, pci, nil, &pool), "vkCreateCommandPool")
	pci.Free()
	if err != nil {
		return fmt.Errorf("gpu: %w", err)
	}
	d.pool = pool
	return nil
}

// framesFeatures is the feature chain Options.Frames enables, where the device is Vulkan 1.3 and
// offers it.
func framesFeatures(d *Device, opts Options) (vkx.VideoFeatures, bool) {
	if !opts.Frames || d.APIVersion < vkx.APIVersion13 {
		return vkx.VideoFeatures{}, false
	}
	p := vkx.ProbeVideo(d.Physical, false, false)
	if p.APIVersion < vkx.APIVersion13 || !p.Features.Timeline || !p.Features.Sync2 || !p.Features.Ycbcr {
		return vkx.VideoFeatures{}, false
	}
	return vkx.VideoFeatures{Timeline: true, Sync2: true, Ycbcr: true, HostQueryReset: p.Features.HostQueryReset}, true
}

// Close waits for the device and destroys it and the instance.
// CloseTimes is where Device.Close's time went, in milliseconds.
type CloseTimes struct {
	WaitIdle      float64 `json:"wait_idle"`      // vkDeviceWaitIdle
	PipelineCache float64 `json:"pipeline_cache"` // reading the cache back, writing its file when it changed
	Device        float64 `json:"device"`         // the command pool and vkDestroyDevice
	Instance      float64 `json:"instance"`       // the debug messenger and vkDestroyInstance
	// Left: Leave left the device and instance to the operating system (Device and Instance 0).
	Left bool `json:"left_to_os,omitempty"`
}

func msSince(t time.Time) float64 { return float64(time.Since(t).Microseconds()) / 1000 }

func (d *Device) Close() { d.close(false) }

// Leave is Close for a process about to exit: it waits for the device to be idle and writes the
// pipeline cache back, as Close does, but leaves the device and the instance for the operating system
// to reclaim at exit (vkDestroyDevice and vkDestroyInstance are a large part of a short run's end on
// some drivers). With the validation layer on it is Close: the layer reports objects never
// destroyed when the device goes, which a test must see. Nothing may use d afterwards, and the
// process should exit soon: what it holds stays allocated until then.
func (d *Device) Leave() { d.close(d.layerSpec == 0) }

func (d *Device) close(leave bool) {
	if d.Device != nil {
		t := time.Now()
		vkx.DeviceWaitIdle(d.Device)
		d.Closing.WaitIdle = msSince(t)
		t = time.Now()
		d.closePipelineCache()
		d.Closing.PipelineCache = msSince(t)
		if leave {
			d.Closing.Left = true
			d.Device, d.Instance = nil, nil
			return
		}
		t = time.Now()
		if d.pool != vk.NullCommandPool {
			vk.DestroyCommandPool(d.Device, d.pool, nil)
		}
		for _, q := range d.Queues {
			vkx.UnregisterQueue(q)
		}
		vk.DestroyDevice(d.Device, nil)
		d.Device = nil
		d.Closing.Device = msSince(t)
	}
	if d.Instance != nil {
		t := time.Now()
		vkx.DestroyDebugMessenger(d.Instance, d.messenger)
		vk.DestroyInstance(d.Instance, nil)
		d.Instance = nil
		d.Closing.Instance = msSince(t)
	}
}

// ValidationMessages drains what the validation layer said since the last call.
func (d *Device) ValidationMessages() []vkx.Message { return vkx.Messages() }

// ValidationError drains what the validation layer said since the last call into w, a line each
// ("validation: TEXT"), and returns an error counting the messages, or nil when there were none: a
// program fails a run in which the toolkit misused Vulkan.
func (d *Device) ValidationError(w io.Writer) error {
	msgs := vkx.Messages()
	for _, m := range msgs {
		fmt.Fprintf(w, "validation: %s\n", m.Text)
	}
	if len(msgs) > 0 {
		return fmt.Errorf("%d validation message(s)", len(msgs))
	}
	return nil
}

// MemoryType finds a memory type in bits with all of want; it returns an error naming what was missing.
func (d *Device) MemoryType(bits uint32, want vk.MemoryPropertyFlagBits) (uint32, error) {
	for i := uint32(0); i < d.Memory.MemoryTypeCount; i++ {
		if bits&(1<<i) != 0 && vk.MemoryPropertyFlagBits(d.Memory.MemoryTypes[i].PropertyFlags)&want == want {
			return i, nil
		}
	}
	return 0, fmt.Errorf("gpu: no memory type with flags %#x among %#b", uint32(want), bits)
}

// CommandPool is the device's pool for the graphics queue (resettable command buffers).
func (d *Device) CommandPool() vk.CommandPool { return d.pool }

// Submit records one command buffer with record, submits it and waits for it to finish.
// It is for set-up and tests; the frame loop keeps its own command buffers and fences.
func (d *Device) Submit(record func(cb vk.CommandBuffer)) error {
	ai := &vk.CommandBufferAllocateInfo{
		SType: vk.StructureTypeCommandBufferAllocateInfo, CommandPool: d.pool,
		Level: vk.CommandBufferLevelPrimary, CommandBufferCount: 1,
	}
	cbs := make([]vk.CommandBuffer, 1)
	err := vkx.Check(vk.AllocateCommandBuffers(d.Device, ai, cbs), "vkAllocateCommandBuffers")
	ai.Free()
	if err != nil {
		return fmt.Errorf("gpu: %w", err)
	}
	defer vk.FreeCommandBuffers(d.Device, d.pool, 1, cbs)
	bi := &vk.CommandBufferBeginInfo{SType: vk.StructureTypeCommandBufferBeginInfo,
		Flags: vk.CommandBufferUsageFlags(vk.CommandBufferUsageOneTimeSubmitBit)}
	err = vkx.Check(vk.BeginCommandBuffer(cbs[0], bi), "vkBeginCommandBuffer")
	bi.Free()
	if err != nil {
		return fmt.Errorf("gpu: %w", err)
	}
	record(cbs[0])
	if err := vkx.Check(vk.EndCommandBuffer(cbs[0]), "vkEndCommandBuffer"); err != nil {
		return fmt.Errorf("gpu: %w", err)
	}
	fi := &vk.FenceCreateInfo{SType: vk.StructureTypeFenceCreateInfo}
	var fence vk.Fence
	err = vkx.Check(vk.CreateFence(d.Device, fi, nil, &fence), "vkCreateFence")
	fi.Free()
	if err != nil {
		return fmt.Errorf("gpu: %w", err)
	}
	defer vk.DestroyFence(d.Device, fence, nil)
	if err := d.queueSubmit(cbs[0], fence); err != nil {
		return fmt.Errorf("gpu: %w", err)
	}
	if err := vkx.Check(vk.WaitForFences(d.Device, 1, []vk.Fence{fence}, vk.True, ^uint64(0)), "vkWaitForFences"); err != nil {
		return fmt.Errorf("gpu: %w", err)
	}
	return nil
}

// queueSubmit submits cb to d.Queue with fence, under QueueLock on a wrapped device: the engine and
// FFmpeg's threads submit to that queue under it (vkx's own lock covers only the toolkit's queues).
func (d *Device) queueSubmit(cb vk.CommandBuffer, fence vk.Fence) error {
	if d.QueueLock != nil {
		d.QueueLock.Lock()
		defer d.QueueLock.Unlock()
	}
	return vkx.QueueSubmit(d.Queue, cb, vk.NullSemaphore, 0, vk.NullSemaphore, fence)
}

// syncValidation is the validation layer's feature that checks barriers and subpass dependencies
// (read-after-write and other hazards between commands), which core validation does not.
const syncValidation = "VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT"

// enableSyncValidation turns synchronization validation on for the instances created from now on,
// through the layer's documented environment setting (vulkan-go has no VkValidationFeaturesEXT to
// chain, and the layer reads the setting when an instance is created). It keeps what the user set.
func enableSyncValidation() {
	cur := os.Getenv("VK_LAYER_ENABLES")
	if strings.Contains(cur, syncValidation) {
		return
	}
	if cur != "" {
		cur += ","
	}
	os.Setenv("VK_LAYER_ENABLES", cur+syncValidation)
}
