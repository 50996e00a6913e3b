package videotex

import (
	"fmt"
	"time"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/gpu"
	"github.com/ycbcrkit/ycbcrkit/internal/vkx"
)

// Frame is one picture handed to the engine for one of its frames. Give it back with Done once the
// engine's submission that sampled it has completed (or with Discard if no submission waited on
// Wait).
type Frame struct {
	// Image and View are what the engine samples, in Layout. On the sampler path View carries the
	// Y′CbCr conversion: do not make other views of Image.
	Image  vk.Image
	View   vk.ImageView
	Layout vk.ImageLayout
	// Sampler is the immutable sampler: it goes into the set layout (LayoutBinding), not into
	// descriptor writes.
	Sampler vk.Sampler
	// DescriptorCount is how many descriptors one combined image sampler of this frame consumes
	// (combinedImageSamplerDescriptorCount): size descriptor pools with it (PoolSize).
	DescriptorCount uint32
	// Generation changes exactly when Sampler or DescriptorCount does: the engine must then
	// rebuild the set layout, pipeline layout, pipelines and descriptor pool it made for them.
	Generation uint64
	// Wait is signalled once the picture is in Image. The engine's submission that samples the
	// frame waits on it at WaitStage, exactly once.
	Wait      vk.Semaphore
	WaitStage vk.PipelineStageFlags
	// UVScale scales texture coordinates (0..1 over the picture) into the image, which may be
	// padded to whole chroma samples: sample at uv·UVScale.
	UVScale [2]float32
	// Width and Height are the picture size.
	Width, Height int
	// PTS is the picture's media time: 0 for the first picture, growing across loops.
	PTS time.Duration
	// Index is the picture's number in decode order, from 0 (across loops).
	Index int64
	// Advanced is true when the picture differs from the previous Acquire's or Step's.
	Advanced bool
	Path     formats.Path

	t     *Texture
	s     *slot
	given bool // Done or Discard was called
}

// LayoutBinding is the descriptor-set-layout binding for this frame's combined image sampler at
// binding, visible to stages, with the immutable sampler.
func (f *Frame) LayoutBinding(binding uint32, stages vk.ShaderStageFlags) vk.DescriptorSetLayoutBinding {
	return vk.DescriptorSetLayoutBinding{Binding: binding, DescriptorType: vk.DescriptorTypeCombinedImageSampler,
		DescriptorCount: 1, StageFlags: stages, PImmutableSamplers: []vk.Sampler{f.Sampler}}
}

// ImageInfo is the descriptor write's image info (the sampler is immutable, so it is left null).
func (f *Frame) ImageInfo() vk.DescriptorImageInfo {
	return vk.DescriptorImageInfo{ImageView: f.View, ImageLayout: f.Layout}
}

// PoolSize is the descriptor pool size for sets sets holding one such binding each.
func (f *Frame) PoolSize(sets uint32) vk.DescriptorPoolSize {
	return vk.DescriptorPoolSize{Type: vk.DescriptorTypeCombinedImageSampler, DescriptorCount: sets * f.DescriptorCount}
}

// Done gives the frame back: the engine's submission that waited on Wait and sampled the image has
// completed (its fence has signalled). It may be called from any goroutine; a second call, or a
// call after Close, does nothing.
func (f *Frame) Done() {
	t := f.t
	t.mu.Lock()
	defer t.mu.Unlock()
	if f.given || t.closed {
		return
	}
	f.given = true
	f.s.refs--
	t.sems = append(t.sems, f.Wait) // waited on and completed: unsignalled, reusable
	t.tryFree(f.s)
}

// Discard gives back a frame whose Wait no submission waited on (the engine skipped the frame).
// It submits a wait on the semaphore to the toolkit's queue, so it follows the same queue rule as
// Acquire.
func (f *Frame) Discard() error {
	t := f.t
	t.mu.Lock()
	defer t.mu.Unlock()
	if f.given || t.closed {
		return nil
	}
	f.given = true
	f.s.refs--
	t.tryFree(f.s)
	// The semaphore is signalled (or about to be): consume the signal, recycle it afterwards.
	sub, err := t.submit(nil, []vk.Semaphore{f.Wait}, nil)
	if err != nil {
		return fmt.Errorf("videotex: discard: %w", err)
	}
	sub.recycle = f.Wait
	return nil
}

// Acquire returns the picture to show at media time now (the first picture is at 0): the latest
// one decoded with PTS ≤ now, skipping older ones. It never waits for decoding: when nothing newer
// is due or ready, it returns the current picture again (Advanced false). It submits the upload
// to the queue; see the package documentation.
func (t *Texture) Acquire(now time.Duration) (*Frame, error) {
	return t.next(func() int {
		pick := -1
		for i, s := range t.ready {
			if s.pts > now {
				break
			}
			pick = i
		}
		if pick < 0 && t.current == nil && len(t.ready) > 0 {
			pick = 0 // the first picture, even if now is before it
		}
		return pick
	})
}

// Step returns the next picture in decode order whatever its time, or the current one again when
// the next is not decoded yet (WaitReady waits for it). Like Acquire it never waits for decoding.
func (t *Texture) Step() (*Frame, error) {
	return t.next(func() int {
		if len(t.ready) > 0 {
			return 0
		}
		return -1
	})
}

func (t *Texture) next(pick func() int) (*Frame, error) {
	t.mu.Lock()
	if t.closed || t.closing {
		t.mu.Unlock()
		return nil, ErrClosed
	}
	t.reclaim()
	var fresh *slot
	if i := pick(); i >= 0 {
		fresh = t.ready[i]
		for _, s := range t.ready[:i] { // due but superseded: never uploaded, straight back
			s.state = slotFree
			t.stats.Dropped++
		}
		t.ready = append(t.ready[:0], t.ready[i+1:]...)
		t.cond.Broadcast()
	}
	if fresh == nil && t.current == nil {
		t.mu.Unlock()
		return nil, fmt.Errorf("videotex: no picture decoded yet")
	}
	sem, err := t.semaphore()
	if err != nil {
		t.mu.Unlock()
		return nil, fmt.Errorf("videotex: %w", err)
	}
	if fresh != nil {
		err = t.upload(fresh, sem)
		if err != nil {
			fresh.state = slotFree
		} else {
			if prev := t.current; prev != nil {
				prev.current = false
				t.tryFree(prev)
			}
			fresh.state, fresh.current = slotShown, true
			t.current = fresh
			t.stats.Shown++
		}
	} else {
		// Nothing new: a fresh semaphore for this frame, signalled after the earlier upload.
		_, err = t.submit(nil, nil, []vk.Semaphore{sem})
	}
	if err != nil {
		t.sems = append(t.sems, sem)
		t.mu.Unlock()
		return nil, fmt.Errorf("videotex: %w", err)
	}
	s := t.current
	s.refs++
	c := s.conv
	f := &Frame{Layout: vk.ImageLayoutShaderReadOnlyOptimal, Sampler: c.sampler, DescriptorCount: c.count,
		Generation: c.gen, Wait: sem, WaitStage: vk.PipelineStageFlags(vk.PipelineStageFragmentShaderBit),
		Width: c.cfg.width, Height: c.cfg.height, PTS: s.pts, Index: s.index, Advanced: fresh != nil,
		Path: c.path, t: t, s: s}
	if c.path == formats.PathSampler {
		f.Image, f.View = s.img.Multi, s.view
		f.UVScale = [2]float32{float32(s.img.Width) / float32(s.img.PaddedWidth), float32(s.img.Height) / float32(s.img.PaddedHeight)}
	} else {
		f.Image, f.View, f.UVScale = s.rgba.image, s.rgba.view, [2]float32{1, 1}
	}
	var change *Change
	if t.shown != c {
		ch := Change{Generation: c.gen, Rebuild: t.shown == nil || t.shown.gen != c.gen, Path: c.path, Reason: c.reason,
			Format: c.cfg.format.Name, Width: c.cfg.width, Height: c.cfg.height, Params: c.cfg.params.String()}
		change = &ch
		t.shown = c
	}
	t.mu.Unlock()
	if change != nil && t.opts.OnChange != nil {
		t.opts.OnChange(*change)
	}
	return f, nil
}

// upload records and submits s's upload (and on the shader path its conversion into the RGBA
// image), signalling sem. Called with t.mu held.
func (t *Texture) upload(s *slot, sem vk.Semaphore) error {
	cb, err := t.commandBuffer()
	if err != nil {
		return err
	}
	if err := gpu.Begin(cb); err != nil {
		t.cbs = append(t.cbs, cb)
		return err
	}
	s.img.RecordUpload(cb)
	if s.conv.path == formats.PathShader {
		r := s.rgba
		gpu.BeginPass(cb, r.rp, r.fb, r.width, r.height)
		gpu.SetViewport(cb, 0, 0, r.width, r.height)
		// The first draw of these constants creates the shader path's pipeline; ycbcr makes it
		// in C (vkx), out of reach of vulkan-go's finalizer problem, so nothing waits for it.
		err = s.draw.Draw(cb, r)
		vk.CmdEndRenderPass(cb)
	}
	if e := vkx.Check(vk.EndCommandBuffer(cb), "vkEndCommandBuffer"); err == nil {
		err = e
	}
	if err != nil {
		t.cbs = append(t.cbs, cb)
		return err
	}
	sub, err := t.submit(cb, nil, []vk.Semaphore{sem})
	if err != nil {
		t.cbs = append(t.cbs, cb)
		return err
	}
	s.upload = sub
	return nil
}

// submission is one of the toolkit's queue submissions, tracked by its fence.
type submission struct {
	fence   vk.Fence
	cb      vk.CommandBuffer // nil for empty submissions
	recycle vk.Semaphore     // a semaphore to reuse once it completes (Discard)
	done    bool
}

// submit submits cb (or nothing) waiting on wait and signalling signal, with a fence. Called with
// t.mu held.
func (t *Texture) submit(cb vk.CommandBuffer, wait, signal []vk.Semaphore) (*submission, error) {
	fence, err := t.fence()
	if err != nil {
		return nil, err
	}
	si := vk.SubmitInfo{SType: vk.StructureTypeSubmitInfo}
	if cb != nil {
		si.CommandBufferCount, si.PCommandBuffers = 1, []vk.CommandBuffer{cb}
	}
	if len(wait) > 0 {
		si.WaitSemaphoreCount, si.PWaitSemaphores = uint32(len(wait)), wait
		si.PWaitDstStageMask = make([]vk.PipelineStageFlags, len(wait))
		for i := range wait {
			si.PWaitDstStageMask[i] = vk.PipelineStageFlags(vk.PipelineStageAllCommandsBit)
		}
	}
	if len(signal) > 0 {
		si.SignalSemaphoreCount, si.PSignalSemaphores = uint32(len(signal)), signal
	}
	sis := []vk.SubmitInfo{si}
	if l := t.ed.QueueLock; l != nil {
		l.Lock()
	}
	var r vk.Result
	vkx.NoGC(func() { r = vk.QueueSubmit(t.dev.Queue, 1, sis, fence) }) // vkx.NoGC says why
	if l := t.ed.QueueLock; l != nil {
		l.Unlock()
	}
	sis[0].Free()
	if err := vkx.Check(r, "vkQueueSubmit"); err != nil {
		t.fences = append(t.fences, fence)
		return nil, err
	}
	sub := &submission{fence: fence, cb: cb}
	t.pending = append(t.pending, sub)
	return sub, nil
}

// reclaim recycles the fences, command buffers and semaphores of completed submissions and frees
// slots nobody uses any more. Called with t.mu held.
func (t *Texture) reclaim() {
	keep := t.pending[:0]
	for _, s := range t.pending {
		if !s.done && vk.GetFenceStatus(t.dev.Device, s.fence) == vk.Success {
			s.done = true
		}
		if s.done {
			t.recycle(s)
		} else {
			keep = append(keep, s)
		}
	}
	clear(t.pending[len(keep):])
	t.pending = keep
	for _, s := range t.slots {
		t.tryFree(s)
	}
}

// recycle returns a completed submission's objects to their pools.
func (t *Texture) recycle(s *submission) {
	s.done = true
	fs := []vk.Fence{s.fence}
	vk.ResetFences(t.dev.Device, 1, fs)
	t.fences = append(t.fences, s.fence)
	if s.cb != nil {
		t.cbs = append(t.cbs, s.cb)
	}
	if s.recycle != vk.NullSemaphore {
		t.sems = append(t.sems, s.recycle)
	}
}

func (t *Texture) fence() (vk.Fence, error) {
	if n := len(t.fences); n > 0 {
		f := t.fences[n-1]
		t.fences = t.fences[:n-1]
		return f, nil
	}
	return t.dev.NewFence(false)
}

func (t *Texture) semaphore() (vk.Semaphore, error) {
	if n := len(t.sems); n > 0 {
		s := t.sems[n-1]
		t.sems = t.sems[:n-1]
		return s, nil
	}
	s, err := t.dev.NewSemaphore()
	if err == nil {
		t.allSems = append(t.allSems, s)
	}
	return s, err
}

func (t *Texture) commandBuffer() (vk.CommandBuffer, error) {
	if n := len(t.cbs); n > 0 {
		cb := t.cbs[n-1]
		t.cbs = t.cbs[:n-1]
		return cb, nil
	}
	return t.dev.NewCommandBuffer()
}
