package videotex

import (
	"fmt"
	"sync"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/gpu"
	"github.com/ycbcrkit/ycbcrkit/internal/vkx"
	"github.com/ycbcrkit/ycbcrkit/planes"
	"github.com/ycbcrkit/ycbcrkit/ycbcr"
)

// Engine is what the textures on one engine device share: the sampler path's conversion cache
// (one VkSamplerYcbcrConversion and immutable sampler per distinct stream description, so textures
// of like streams hand out the same sampler and the engine's pipelines for one serve the others),
// the shader path's pipelines (made once per set of constants), and the fallback path's sampler and
// render pass. An engine that shows many videos makes one Engine per device with NewEngine and opens
// its textures with Engine.Open; the package's Open makes a private one for its texture.
//
// Each texture keeps its own decoder, goroutine, images and ring of submissions. Hardware decoders
// all submit to the engine's decode queues (EngineDevice.HWDecode), each queue under one lock for
// the whole process, so textures share those queues as they are.
type Engine struct {
	ed  EngineDevice
	dev *gpu.Device // the shared objects are made on this wrap; each texture has its own (its command pool)

	// mu serializes the use of the shared objects below from the textures' goroutines (their
	// decoders make bindings, their Acquire callers record draws): the descriptor pools and the
	// pipeline and conversion maps need external synchronization. It is taken last, after a
	// texture's own locks, and never held while taking another lock.
	mu       sync.Mutex
	paths    *ycbcr.Paths  // the conversion cache and the shader path
	plain    vk.Sampler    // the fallback path's immutable sampler
	rgbaRP   vk.RenderPass // the fallback conversion's render pass
	textures int           // open textures
	closed   bool
}

// NewEngine checks dev (Y′CbCr sampling, a graphics queue family) and prepares what its textures
// share. Close it after every texture opened on it.
func NewEngine(dev EngineDevice) (*Engine, error) {
	e, err := newEngine(dev)
	if err != nil {
		return nil, fmt.Errorf("videotex: engine: %w", err)
	}
	return e, nil
}

func newEngine(ed EngineDevice) (*Engine, error) {
	pd, err := gpu.Wrap(ed.Instance, ed.Physical, ed.Device, ed.Queue, ed.QueueFamily, ed.Extensions)
	if err != nil {
		return nil, err
	}
	e := &Engine{ed: ed, dev: pd}
	if err := checkDevice(pd); err != nil {
		e.destroy()
		return nil, err
	}
	if e.paths, err = ycbcr.NewPaths(pd); err != nil {
		e.destroy()
		return nil, err
	}
	// Linear, clamped, one level: the engine's own filtering of an RGBA8 picture, the same as the
	// Y′CbCr sampler's (LINEAR, CLAMP_TO_EDGE), so both paths look alike.
	si := &vk.SamplerCreateInfo{SType: vk.StructureTypeSamplerCreateInfo,
		MagFilter: vk.FilterLinear, MinFilter: vk.FilterLinear, MipmapMode: vk.SamplerMipmapModeNearest,
		AddressModeU: vk.SamplerAddressModeClampToEdge, AddressModeV: vk.SamplerAddressModeClampToEdge,
		AddressModeW: vk.SamplerAddressModeClampToEdge, BorderColor: vk.BorderColorFloatOpaqueBlack}
	var s vk.Sampler
	err = vkx.Check(vk.CreateSampler(pd.Device, si, nil, &s), "vkCreateSampler")
	si.Free()
	if err != nil {
		e.destroy()
		return nil, err
	}
	e.plain = s
	if e.rgbaRP, err = newRGBAPass(pd); err != nil {
		e.destroy()
		return nil, err
	}
	return e, nil
}

func checkDevice(dev *gpu.Device) error {
	if !dev.Info.Ycbcr {
		return fmt.Errorf("%s cannot sample Y′CbCr (Vulkan %s; see Requirements)", dev.Info.Name, dev.Info.APIVersion)
	}
	var n uint32
	vk.GetPhysicalDeviceQueueFamilyProperties(dev.Physical, &n, nil)
	qs := make([]vk.QueueFamilyProperties, n)
	vkx.NoGC(func() { vk.GetPhysicalDeviceQueueFamilyProperties(dev.Physical, &n, qs) })
	qs[dev.QueueFamily].Deref()
	if vk.QueueFlagBits(qs[dev.QueueFamily].QueueFlags)&vk.QueueGraphicsBit == 0 {
		return fmt.Errorf("queue family %d has no graphics: the fallback path draws", dev.QueueFamily)
	}
	return nil
}

// Open starts playing url as a texture on the engine's device, sharing the engine's conversions
// and pipelines; otherwise as the package's Open.
func (e *Engine) Open(url string, opts Options) (*Texture, error) {
	e.mu.Lock()
	if e.closed {
		e.mu.Unlock()
		return nil, fmt.Errorf("videotex: open %s: the engine is closed", url)
	}
	e.textures++ // before open: a Close meanwhile sees it
	e.mu.Unlock()
	t, err := openOn(e, url, opts, nil)
	if err != nil {
		e.release()
		return nil, fmt.Errorf("videotex: open %s: %w", url, err)
	}
	return t, nil
}

// Close frees what the textures shared. Every texture opened on the engine must be closed first
// (it fails otherwise, freeing nothing); the engine's device stays. Close is idempotent.
func (e *Engine) Close() error {
	e.mu.Lock()
	if e.closed {
		e.mu.Unlock()
		return nil
	}
	if e.textures > 0 {
		n := e.textures
		e.mu.Unlock()
		return fmt.Errorf("videotex: engine close: %d texture(s) still open", n)
	}
	e.closed = true
	e.mu.Unlock()
	e.destroy()
	return nil
}

// release is a texture's Close (or failed open): one texture fewer.
func (e *Engine) release() {
	e.mu.Lock()
	e.textures--
	e.mu.Unlock()
}

func (e *Engine) destroy() {
	d := e.dev.Device
	if e.paths != nil {
		e.paths.Destroy()
	}
	if e.rgbaRP != vk.NullRenderPass {
		vk.DestroyRenderPass(d, e.rgbaRP, nil)
	}
	if e.plain != vk.NullSampler {
		vk.DestroySampler(d, e.plain, nil)
	}
	e.dev.Release()
}

// conversion is the sampler path's conversion for key, from the shared cache.
func (e *Engine) conversion(key ycbcr.Key) (*ycbcr.Conversion, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.paths.Cache.Get(key)
}

// bind makes the shader path's binding of img (its descriptor set, from the shared pool).
func (e *Engine) bind(img *planes.Image, consts *ycbcr.ShaderConstants) (*ycbcr.Binding, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.paths.Shader.Bind(img, consts)
}

// draw records b's conversion into target (its pipeline made on first use, in the shared map).
func (e *Engine) draw(b *ycbcr.Binding, cb vk.CommandBuffer, target ycbcr.Target) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	return b.Draw(cb, target)
}

// unbind frees b's descriptor set back to the shared pool.
func (e *Engine) unbind(b *ycbcr.Binding) {
	e.mu.Lock()
	defer e.mu.Unlock()
	b.Destroy()
}
