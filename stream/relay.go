package stream

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/gpu"
	"github.com/ycbcrkit/ycbcrkit/internal/vkx"
	"github.com/ycbcrkit/ycbcrkit/planes"
)

// Relay hands pictures that one device of a GPU decodes (From) to another device of the same GPU
// (To), which shows them: each picture is copied, on From, into an image whose memory both devices
// bind (VK_KHR_external_memory_fd, opaque fds; gpu.Options.Share on both), which To then reads as a
// Foreign frame. A GPU's video engines run one decoding at a time per queue, and a device has as
// many decode queues as engines (7 on NVIDIA's H200, docs/performance.md "Live walls"): more
// streams than that decode faster on devices of their own, and a relay brings their pictures to the
// device that draws the wall.
//
// The source's decoding is waited for on the CPU before the copy is submitted (a copy waiting on
// From's queue would hold every other stream's copies behind it), and the copy before To reads the
// image (Submit returns the wait, so that a stream's next decoding can be submitted first), so To
// needs no semaphore of From's (and lavapipe, which exports no semaphores, runs it too). The
// copy's last barrier releases the image to VK_QUEUE_FAMILY_EXTERNAL, and To's reading barrier
// acquires it (planes.ForeignState.External).
// An image goes back to the relay when To has finished reading it (the release Submit returns), so
// From never writes what To reads.
//
// A Relay serves one stream, from one goroutine: it records on a command pool of its own.
type Relay struct {
	from, to *gpu.Device
	pool     vk.CommandPool // on From
	slots    [relayInFlight]relaySlot
	next     int // the slot the next copy records into
	free     chan *relayImage
	all      []*relayImage
	closing  sync.Once
}

// relaySlot is a copy's command buffer and fence. gen counts its copies, so that the wait Submit
// returned for one does nothing once a later copy has waited for the slot.
type relaySlot struct {
	cb    vk.CommandBuffer
	fence vk.Fence
	busy  bool // submitted, its fence not yet waited for
	gen   uint64
}

// relayDecodeWait bounds Submit's wait for the work on its source (a hung decoder fails the stream).
const relayDecodeWait = 10 * time.Second

// relayInFlight is how many copies may be submitted and not yet waited for (Submit).
const relayInFlight = 2

// relayImage is one shared picture: an image on each device over one memory, and To's timeline
// semaphore for the Foreign protocol (To's own submissions wait on it and signal it).
type relayImage struct {
	r        *Relay
	key      relayKey
	src      vk.Image // From's
	srcMem   vk.DeviceMemory
	dst      vk.Image // To's
	dstMem   vk.DeviceMemory
	sem      vk.Semaphore // To's
	mu       sync.Mutex   // the Foreign lock
	value    uint64
	released bool        // released to EXTERNAL by From at least once
	lost     atomic.Bool // its copy's wait failed: it may still be written, never handed out again
	slot     *relaySlot  // its last copy's (Submit), waited for before the next: a picture given
	gen      uint64      // back unread (a stream dropping it) may still be being copied
}

type relayKey struct {
	format        formats.VkFormat
	width, height int
}

// relayUsage: From copies into its image, To copies out of its own.
const relayUsage = vk.ImageUsageFlags(vk.ImageUsageTransferSrcBit | vk.ImageUsageTransferDstBit)

// NewRelay makes a relay of n pictures from from to to (n ≥ 1: how many To may hold at once, a
// stream's queue and frames in flight; Submit waits for one beyond that). Both devices need
// gpu.Options.Share and must be devices of one GPU.
func NewRelay(from, to *gpu.Device, n int) (*Relay, error) {
	switch {
	case n < 1:
		return nil, fmt.Errorf("stream: a relay of %d pictures", n)
	case !from.Extensions[vkx.ExtExternalMemoryFd] || !to.Extensions[vkx.ExtExternalMemoryFd]:
		return nil, fmt.Errorf("stream: relay: %s on both devices is needed (gpu.Options.Share)", vkx.ExtExternalMemoryFd)
	}
	fdev, fdrv := vkx.DeviceUUIDs(from.Physical)
	if tdev, tdrv := vkx.DeviceUUIDs(to.Physical); fdev != tdev || fdrv != tdrv {
		return nil, errors.New("stream: relay: the devices are not one GPU with one driver (opaque fds need both)")
	}
	r := &Relay{from: from, to: to, free: make(chan *relayImage, n)}
	ci := &vk.CommandPoolCreateInfo{SType: vk.StructureTypeCommandPoolCreateInfo, QueueFamilyIndex: from.QueueFamily,
		Flags: vk.CommandPoolCreateFlags(vk.CommandPoolCreateResetCommandBufferBit)}
	var pool vk.CommandPool
	err := vkx.Check(vk.CreateCommandPool(from.Device, ci, nil, &pool), "vkCreateCommandPool")
	ci.Free()
	r.pool = pool
	if err == nil {
		ai := &vk.CommandBufferAllocateInfo{SType: vk.StructureTypeCommandBufferAllocateInfo, CommandPool: r.pool,
			Level: vk.CommandBufferLevelPrimary, CommandBufferCount: relayInFlight}
		cbs := make([]vk.CommandBuffer, relayInFlight)
		err = vkx.Check(vk.AllocateCommandBuffers(from.Device, ai, cbs), "vkAllocateCommandBuffers")
		ai.Free()
		for i := range r.slots {
			r.slots[i].cb = cbs[i]
		}
	}
	for i := range r.slots {
		if err == nil {
			r.slots[i].fence, err = from.NewFence(false)
		}
	}
	if err != nil {
		r.Close()
		return nil, fmt.Errorf("stream: relay: %w", err)
	}
	for range n {
		im := &relayImage{r: r}
		r.all = append(r.all, im)
		r.free <- im
	}
	return r, nil
}

// Submit copies src, a picture of pf on From (FFmpeg's frame: its lock, semaphore and layout are
// kept as for any Foreign frame), into a shared image and returns that image as a Foreign frame of
// To's, with the function that gives it back once To has finished reading it (a stream's release),
// and wait, which To's first read of the image must follow, and src's release too (the copy reads
// it until then; a failed wait keeps the image from being handed out again). It waits for a free
// image; at most relayInFlight copies are unwaited: it waits for the oldest beyond that.
func (r *Relay) Submit(src Foreign, pf *formats.PixelFormat) (img Foreign, back func(), wait func() error, err error) {
	im := <-r.free
	back = func() {
		if !im.lost.Load() {
			r.free <- im
		}
	}
	if wait, err = r.copy(im, src, pf); err != nil {
		back()
		return nil, nil, nil, fmt.Errorf("stream: relay: %w", err)
	}
	return relayed{im}, back, wait, nil
}

// copy submits the copy of src into im on From's queue (Submit). When an earlier copy's wait fails,
// im is lost (it may still be written).
func (r *Relay) copy(im *relayImage, src Foreign, pf *formats.PixelFormat) (wait func() error, err error) {
	sl := &r.slots[r.next]
	err = r.settle(sl, sl.gen)
	if err == nil && im.slot != nil {
		err = r.settle(im.slot, im.gen)
	}
	if err != nil {
		im.lost.Store(true)
		return nil, err
	}
	// From's work on src (its decoding) is waited for here, on the CPU: a copy submitted before it
	// has finished would wait for it on From's queue, and every other stream's copies behind it (a
	// queue runs its submissions in order). Relayed H.264 streams then decoded 257 pictures/s
	// against 485 for the others, each copy done 3.5 ms after it was submitted (row depth40).
	p, err := ForeignPoint(src)
	if err == nil {
		err = p.Wait(r.from, relayDecodeWait)
	}
	if err != nil {
		return nil, err
	}
	lk, err := LockForeign(src, r.from.QueueFamily)
	if err != nil {
		return nil, err
	}
	defer lk.Unlock() // after SubmitAlone, nothing
	st := lk.State
	key := relayKey{st.Image.VkFormat, st.Image.Width, st.Image.Height}
	if st.Image.Images != 1 {
		return nil, fmt.Errorf("the frame is %d images, not one multi-planar image", st.Image.Images)
	}
	if im.key != key {
		im.destroy()
		if err := im.make(key); err != nil {
			return nil, err
		}
	}
	cb := sl.cb
	if err := gpu.Begin(cb); err != nil {
		return nil, err
	}
	transfer := vk.PipelineStageFlags(vk.PipelineStageTransferBit)
	lk.Read(cb, vk.ImageLayoutTransferSrcOptimal, vk.AccessFlags(vk.AccessTransferReadBit), transfer, false)
	// What To read last is not kept (UNDEFINED): a copy of every plane overwrites it. After the first
	// release, the image comes back from EXTERNAL, as To's reads leave it.
	fam, dstFam := uint32(vk.QueueFamilyIgnored), uint32(vk.QueueFamilyIgnored)
	if im.released {
		fam, dstFam = vkx.QueueFamilyExternal, r.from.QueueFamily
	}
	vkx.CmdImageBarrier(cb, vkx.ImageBarrier{Image: im.src, From: vk.ImageLayoutUndefined, To: vk.ImageLayoutTransferDstOptimal,
		DstAccess: vk.AccessFlags(vk.AccessTransferWriteBit), SrcStage: transfer, DstStage: transfer,
		SrcFamily: fam, DstFamily: dstFam})
	var ws, hs [3]uint32
	n := min(len(pf.Planes), len(ws))
	for k := range n {
		w, h := pf.PlaneSize(k, key.width, key.height)
		ws[k], hs[k] = uint32(w), uint32(h)
	}
	vkx.CmdCopyPlanes(cb, st.Image.Image, im.src, ws[:n], hs[:n])
	vkx.CmdImageBarrier(cb, vkx.ImageBarrier{Image: im.src, From: vk.ImageLayoutTransferDstOptimal, To: vk.ImageLayoutTransferSrcOptimal,
		SrcAccess: vk.AccessFlags(vk.AccessTransferWriteBit), SrcStage: transfer,
		DstStage:  vk.PipelineStageFlags(vk.PipelineStageBottomOfPipeBit),
		SrcFamily: r.from.QueueFamily, DstFamily: vkx.QueueFamilyExternal})
	if err := lk.SubmitAlone(r.from.Queue, cb, sl.fence); err != nil {
		return nil, err
	}
	sl.busy, sl.gen = true, sl.gen+1
	r.next = (r.next + 1) % relayInFlight
	im.released, im.slot, im.gen = true, sl, sl.gen
	gen := sl.gen
	return func() error {
		if err := r.settle(sl, gen); err != nil {
			im.lost.Store(true)
			return fmt.Errorf("stream: relay: %w", err)
		}
		return nil
	}, nil
}

// settle waits for sl's copy number gen, unless a later wait did. After a failed wait the slot
// stays busy (settle fails again).
func (r *Relay) settle(sl *relaySlot, gen uint64) error {
	if !sl.busy || sl.gen != gen {
		return nil
	}
	if err := r.from.WaitFence(sl.fence); err != nil {
		return err
	}
	sl.busy = false
	return nil
}

// make creates im's images over one memory, exported by From and imported by To, and To's
// semaphore.
func (im *relayImage) make(key relayKey) error {
	r := im.r
	ext := vkx.ExternalImage{Format: uint32(key.format), Width: uint32(key.width), Height: uint32(key.height),
		Tiling: vk.ImageTilingOptimal, Usage: relayUsage, Handle: vkx.HandleOpaqueFd, InitialLayout: vk.ImageLayoutUndefined}
	var err error
	if im.src, err = vkx.CreateExternalImage(r.from.Device, ext); err != nil {
		return err
	}
	mem, size, fd, err := vkx.ExportMemory(r.from.Device, im.src, r.from.LocalTypes())
	if err != nil {
		return err
	}
	im.srcMem = mem
	r.from.Count(mem, int64(size))
	if im.dst, err = vkx.CreateExternalImage(r.to.Device, ext); err != nil {
		closeFd(fd)
		return err
	}
	if im.dstMem, err = vkx.ImportMemory(r.to.Device, im.dst, r.to.LocalTypes(), fd, size); err != nil {
		return err
	}
	if im.sem, err = vkx.NewTimelineSemaphore(r.to.Device, 0); err != nil {
		return err
	}
	im.key, im.value, im.released = key, 0, false
	return nil
}

// destroy frees im's images, memory and semaphore: neither device uses them (From's copy was waited
// for, To gave the image back).
func (im *relayImage) destroy() {
	r := im.r
	if im.sem != vk.NullSemaphore {
		vk.DestroySemaphore(r.to.Device, im.sem, nil)
	}
	vkx.DestroyImage(r.to.Device, im.dst)
	r.to.Free(im.dstMem)
	vkx.DestroyImage(r.from.Device, im.src)
	r.from.Free(im.srcMem)
	*im = relayImage{r: r}
}

// Close frees the relay once every image has come back (To has finished with them all). An image
// not back within relayCloseWait is left to its devices' ends rather than hang the caller.
func (r *Relay) Close() {
	if r != nil {
		r.closing.Do(r.destroy)
	}
}

func (r *Relay) destroy() {
	deadline := time.After(relayCloseWait)
	for range r.all {
		select {
		case im := <-r.free:
			im.destroy()
		case <-deadline:
			return
		}
	}
	for i := range r.slots {
		sl := &r.slots[i]
		if sl.fence == vk.NullFence {
			continue
		}
		if sl.busy {
			vk.WaitForFences(r.from.Device, 1, []vk.Fence{sl.fence}, vk.True, uint64(relayCloseWait))
		}
		vk.DestroyFence(r.from.Device, sl.fence, nil)
	}
	if r.pool != vk.NullCommandPool {
		vk.DestroyCommandPool(r.from.Device, r.pool, nil)
	}
}

// relayCloseWait bounds Close's wait for the images To still holds.
const relayCloseWait = 5 * time.Second

// relayed is a relay's image as To's Foreign frame.
type relayed struct{ im *relayImage }

func (f relayed) Lock() (planes.ForeignState, error) {
	im := f.im
	im.mu.Lock()
	return planes.ForeignState{
		Image: planes.Foreign{Image: im.dst, VkFormat: im.key.format, Width: im.key.width, Height: im.key.height,
			Usage: relayUsage, Tiling: vk.ImageTilingOptimal, Images: 1},
		Layout: vk.ImageLayoutTransferSrcOptimal, Semaphore: im.sem, Value: im.value,
		QueueFamily: im.r.to.QueueFamily, External: true,
	}, nil
}

func (f relayed) Submitted(vk.ImageLayout, vk.AccessFlags) { f.im.value++ }
func (f relayed) Unlock()                                  { f.im.mu.Unlock() }

func closeFd(fd int) { syscall.Close(fd) }
