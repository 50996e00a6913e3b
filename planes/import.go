package planes

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"sync"
	"unsafe"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/gpu"
	"github.com/ycbcrkit/ycbcrkit/internal/vkx"
)

// DefaultImportCapacity is the import cache size an Image uses when it makes its own Importer: one
// entry per plane, enough for the buffers of a decoder pool (references + frame threads) of 3-plane
// frames.
const DefaultImportCapacity = 48

// ErrInUse is returned by Importer.Forget for memory that a submission may still read: an Image
// loaded it and has not been told (Load, Done) that the GPU finished.
var ErrInUse = errors.New("imported memory still in use by the GPU")

// ErrCacheFull is returned when every cache entry is held by unfinished submissions.
var ErrCacheFull = errors.New("import cache full of memory in use by the GPU")

// Importer imports host memory as VkBuffers with VK_EXT_external_memory_host, so that the GPU copies
// frame planes straight from the decoder's memory (no CPU copy).
//
// Addresses are rounded down to minImportedHostPointerAlignment and the remainder becomes the copy's
// bufferOffset; lengths are rounded up to the alignment (FFmpeg hwcontext_vulkan and libplacebo do
// the same). Rounding to the page that holds a valid byte never leaves the mapping, since mappings
// are whole pages: the Importer therefore refuses devices whose alignment exceeds the page size.
// decode's pool (internal/avx) goes further: each plane starts on its own page and every buffer is a
// whole number of pages with spare bytes after each plane.
//
// Imports are cached by (rounded address, rounded size), least recently used first out, at most
// Capacity at a time. An entry is held ("pinned") by each Image whose last Load used it, until that
// Image learns that the GPU is done with it: its next Load (which, like Stage, must follow the wait
// on the fence of the submission that used the previous load) or its Done. Host memory must outlive
// the imports made from it: call Forget before unmapping or freeing it (decoder buffers are reused, so
// in steady state every frame is a cache hit and nothing is imported or freed).
//
// Go memory (a formats.Frame made with make) may be imported too: the entry pins it with a
// runtime.Pinner, so the collector cannot free it while the GPU may read it; Forget or eviction
// unpins it. Frames that arrive in fresh memory every time miss every time (an import per plane per
// frame, and up to Capacity planes kept alive): the cache pays off for a decoder's reused buffers.
//
// An Importer may be shared by several Images (one per frame in flight) and is safe for concurrent
// use; it must be destroyed before its device is closed.
type Importer struct {
	dev      *gpu.Device
	align    uint64
	capacity int

	mu         sync.Mutex
	entries    map[importKey]*importEntry
	head, tail *importEntry // most and least recently used
	stats      ImportStats
}

type importKey struct {
	base uintptr
	size uint64
}

type importEntry struct {
	key        importKey
	buffer     vk.Buffer
	memory     vk.DeviceMemory
	pins       int
	prev, next *importEntry
	pinner     runtime.Pinner
}

// ImportStats counts what the cache did.
type ImportStats struct {
	Live      int   // imported allocations alive now (never more than Capacity)
	Capacity  int   // the bound
	Imports   int64 // cache misses: vkAllocateMemory with an imported host pointer
	Hits      int64
	Evictions int64 // least recently used entries freed to make room
	Forgotten int64 // entries freed by Forget
}

// NewImporter makes an import cache of at most capacity buffers (at least one frame's planes).
func NewImporter(dev *gpu.Device, capacity int) (*Importer, error) {
	if !dev.Extensions[gpu.ExtExternalMemoryHost] {
		return nil, fmt.Errorf("planes: importer: device %s has no %s", dev.Info.Name, gpu.ExtExternalMemoryHost)
	}
	if capacity < maxPlanes {
		return nil, fmt.Errorf("planes: importer: capacity %d below one frame's %d planes", capacity, maxPlanes)
	}
	align := vkx.ImportAlignment(dev.Physical)
	if align == 0 || align&(align-1) != 0 {
		return nil, fmt.Errorf("planes: importer: minImportedHostPointerAlignment %d is not a power of two", align)
	}
	if page := uint64(os.Getpagesize()); align > page {
		// Rounding a plane out to such an alignment could reach memory that is not mapped.
		return nil, fmt.Errorf("planes: importer: minImportedHostPointerAlignment %d exceeds the page size %d", align, page)
	}
	return &Importer{dev: dev, align: align, capacity: capacity, entries: make(map[importKey]*importEntry, capacity)}, nil
}

// Alignment is the device's minImportedHostPointerAlignment.
func (p *Importer) Alignment() int { return int(p.align) }

// Stats reports the cache's counters.
func (p *Importer) Stats() ImportStats {
	p.mu.Lock()
	defer p.mu.Unlock()
	s := p.stats
	s.Live, s.Capacity = len(p.entries), p.capacity
	return s
}

// span is how plane memory at ptr, n bytes long, is imported: the rounded range and the offset of
// ptr inside it.
func (p *Importer) span(ptr uintptr, n int) (key importKey, offset uint64) {
	base := ptr &^ uintptr(p.align-1)
	offset = uint64(ptr - base)
	return importKey{base, (offset + uint64(n) + p.align - 1) &^ (p.align - 1)}, offset
}

// acquire returns the buffer over n bytes at ptr, importing it on a miss, and pins it for the
// caller: release must follow once the GPU is done with it.
func (p *Importer) acquire(ptr unsafe.Pointer, n int) (*importEntry, uint64, error) {
	key, offset := p.span(uintptr(ptr), n)
	p.mu.Lock()
	defer p.mu.Unlock()
	if e := p.entries[key]; e != nil {
		p.stats.Hits++
		p.unlink(e)
		p.pushFront(e)
		e.pins++
		return e, offset, nil
	}
	if len(p.entries) >= p.capacity {
		victim := p.tail
		for victim != nil && victim.pins > 0 {
			victim = victim.prev
		}
		if victim == nil {
			return nil, 0, fmt.Errorf("%w (%d entries)", ErrCacheFull, len(p.entries))
		}
		p.free(victim)
		p.stats.Evictions++
	}
	e := &importEntry{key: key}
	e.pinner.Pin(ptr) // Go memory stays alive while imported; a no-op for C or mmap'd memory
	buf, mem, err := vkx.ImportBuffer(p.dev.Device, key.base, key.size,
		vk.BufferUsageTransferSrcBit|vk.BufferUsageStorageBufferBit) // storage: the GPU shift pass reads it
	if err != nil {
		e.pinner.Unpin()
		return nil, 0, fmt.Errorf("%d bytes at %#x: %w", key.size, key.base, err)
	}
	e.buffer, e.memory, e.pins = buf, mem, 1
	p.entries[key] = e
	p.pushFront(e)
	p.stats.Imports++
	return e, offset, nil
}

// release drops one pin.
func (p *Importer) release(e *importEntry) {
	p.mu.Lock()
	if e.pins > 0 {
		e.pins--
	}
	p.mu.Unlock()
}

// Forget frees every import overlapping the n bytes at ptr. Call it before that memory is unmapped or
// freed. It fails with ErrInUse, freeing nothing, while an Image that loaded the memory has not been
// told that its submission finished (its next Load, or Done).
func (p *Importer) Forget(ptr unsafe.Pointer, n int) error {
	lo, hi := uintptr(ptr), uintptr(ptr)+uintptr(n)
	p.mu.Lock()
	defer p.mu.Unlock()
	var hit []*importEntry
	for k, e := range p.entries {
		if k.base < hi && lo < k.base+uintptr(k.size) {
			if e.pins > 0 {
				return fmt.Errorf("planes: forget %d bytes at %#x: %w (call Image.Done after the submission's fence)", n, lo, ErrInUse)
			}
			hit = append(hit, e)
		}
	}
	for _, e := range hit {
		p.free(e)
		p.stats.Forgotten++
	}
	return nil
}

// ForgetFrame is Forget for every plane of f.
func (p *Importer) ForgetFrame(f *formats.Frame) error {
	for i, pl := range f.Planes {
		if len(pl) == 0 {
			continue
		}
		if err := p.Forget(unsafe.Pointer(&pl[0]), len(pl)); err != nil {
			return fmt.Errorf("planes: plane %d: %w", i, err)
		}
	}
	return nil
}

// Destroy frees every import, pinned or not. The GPU must be done with them.
func (p *Importer) Destroy() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, e := range p.entries {
		p.free(e)
	}
}

// free unlinks an entry and frees its buffer and memory (mu held).
func (p *Importer) free(e *importEntry) {
	p.unlink(e)
	delete(p.entries, e.key)
	vkx.FreeImport(p.dev.Device, e.buffer, e.memory)
	e.buffer, e.memory = vk.NullBuffer, vk.NullDeviceMemory
	e.pinner.Unpin()
}

func (p *Importer) unlink(e *importEntry) {
	if e.prev != nil {
		e.prev.next = e.next
	} else if p.head == e {
		p.head = e.next
	}
	if e.next != nil {
		e.next.prev = e.prev
	} else if p.tail == e {
		p.tail = e.prev
	}
	e.prev, e.next = nil, nil
}

func (p *Importer) pushFront(e *importEntry) {
	e.next = p.head
	if p.head != nil {
		p.head.prev = e
	}
	p.head = e
	if p.tail == nil {
		p.tail = e
	}
}

// ImportedFrame is a frame's planes as imported buffers, for passes that read them directly (the
// buffer variant of the shader path, ycbcr.BufferPath): no image, no copy. The entries stay held
// until Release.
type ImportedFrame struct {
	Buffers [maxPlanes]uint64 // each plane's buffer (vkx.BufferHandle); unused planes repeat plane 0's
	Offsets [maxPlanes]uint64 // byte offset of each plane in its buffer
	Strides [maxPlanes]int    // the frame's strides
	entries [maxPlanes]*importEntry
	n       int
	p       *Importer
}

// Import imports (or finds in the cache) every plane of f into out, held until out.Release, which
// must wait until the GPU has finished every submission that reads them. out is reused: frames in
// the steady state allocate nothing.
func (p *Importer) Import(f *formats.Frame, out *ImportedFrame) error {
	out.Release()
	if len(f.Planes) == 0 || len(f.Planes) > maxPlanes || len(f.Strides) != len(f.Planes) {
		return fmt.Errorf("planes: import: %d planes, %d strides", len(f.Planes), len(f.Strides))
	}
	out.p = p
	for i, pl := range f.Planes {
		if len(pl) == 0 {
			out.Release()
			return fmt.Errorf("planes: import plane %d: empty", i)
		}
		e, off, err := p.acquire(unsafe.Pointer(&pl[0]), len(pl))
		if err != nil {
			out.Release()
			return fmt.Errorf("planes: import plane %d: %w", i, err)
		}
		out.entries[i], out.n = e, i+1
		out.Buffers[i], out.Offsets[i], out.Strides[i] = vkx.BufferHandle(e.buffer), off, f.Strides[i]
	}
	for i := len(f.Planes); i < maxPlanes; i++ {
		out.Buffers[i], out.Offsets[i], out.Strides[i] = out.Buffers[0], out.Offsets[0], out.Strides[0]
	}
	return nil
}

// Release drops the hold on the imports (the GPU must be done with them). Safe to repeat.
func (fr *ImportedFrame) Release() {
	for i := 0; i < fr.n; i++ {
		fr.p.release(fr.entries[i])
		fr.entries[i] = nil
	}
	fr.n = 0
}
