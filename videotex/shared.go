package videotex

import (
	"fmt"
	"sync"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/gpu"
	"github.com/ycbcrkit/ycbcrkit/internal/vkx"
	"github.com/ycbcrkit/ycbcrkit/stream"
	"github.com/ycbcrkit/ycbcrkit/ycbcr"
)

// Engine is what the textures on one engine device share: the sampler path's conversion cache
// (one VkSamplerYcbcrConversion and immutable sampler per distinct stream description, so textures
// of like streams hand out the same sampler and the engine's pipelines for one serve the others),
// the shader path's pipelines (made once per set of constants), and the sampler and render pass of
// the shader path's textures (stream.TextureKit). An engine that shows many videos makes one Engine per device with NewEngine and opens
// its textures with Engine.Open; the package's Open makes a private one for its texture.
//
// Each texture keeps its own decoder, goroutine and stream.Stream (its pictures and ring of
// submissions). Hardware decoders
// all submit to the engine's decode queues (EngineDevice.HWDecode), each queue under one lock for
// the whole process, so textures share those queues as they are.
type Engine struct {
	ed  EngineDevice
	dev *gpu.Device // the shared objects are made on this wrap; each texture has its own (its command pool)

	// paths and textures are used by the textures' streams from their goroutines (decoders make
	// bindings, Acquire callers record draws); ycbcr.Paths locks what they share itself.
	paths    *ycbcr.Paths       // the conversion cache and the shader path
	textures *stream.TextureKit // the shader path's passes and the plain sampler

	mu     sync.Mutex // guards count and closed
	count  int        // open textures
	closed bool
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
	pd.QueueLock = queueLocksOf(ed).Submit // its one-time submissions (gpu.Device.Submit) take the engine's lock
	e := &Engine{ed: ed, dev: pd}
	if err := checkDevice(pd); err != nil {
		e.destroy()
		return nil, err
	}
	if err := checkInternallySynchronized(ed, pd.Info.Name); err != nil {
		e.destroy()
		return nil, err
	}
	if e.paths, err = ycbcr.NewPaths(pd); err != nil {
		e.destroy()
		return nil, err
	}
	if e.textures, err = stream.NewTextureKit(pd); err != nil {
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
	e.count++ // before open: a Close meanwhile sees it
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
	if e.count > 0 {
		n := e.count
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
	e.count--
	e.mu.Unlock()
}

func (e *Engine) destroy() {
	if e.paths != nil {
		e.paths.Destroy()
	}
	if e.textures != nil {
		e.textures.Destroy()
	}
	e.dev.Release()
}
