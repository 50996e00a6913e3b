package videotex

import (
	"fmt"
	"time"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/internal/vkx"
	"github.com/ycbcrkit/ycbcrkit/stream"
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
	// FrameInfo describes the picture beyond its pixels: colour, pixel aspect and orientation, for
	// the engine to apply (the toolkit converts to R′G′B′; it does not turn or stretch the picture).
	FrameInfo

	t     *Texture
	p     *picture
	given bool // Done or Discard was called
	// handed says SignalTimeline consumed Wait: Discard then submits nothing.
	handed bool
}

// FrameInfo is what a decoded picture says about itself.
type FrameInfo struct {
	// Color is the stream's resolved colour description: matrix, range and chroma siting (what the
	// conversion applied), and the primaries, transfer and static HDR metadata (mastering display
	// luminance, content light level) of its R′G′B′. That is the R′G′B′ the engine receives unless
	// ToTarget.
	Color formats.Color
	// ToTarget says the picture was converted to Options.Target (PQ or HLG tone-mapped to SDR, or
	// any stream encoded for HDR10): its R′G′B′ has the target's primaries and transfer.
	ToTarget bool
	// SampleAspect is the pixel aspect ratio, numerator and denominator (1:1 when the stream says
	// nothing): display width = Width × SampleAspect[0] / SampleAspect[1].
	SampleAspect [2]int
	// Orientation is how the stream's display matrix turns the picture for display (flip, then
	// clockwise quarter turns), as FFmpeg's autorotation reads it.
	Orientation formats.Orientation
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
	f.p.refs--
	t.sems = append(t.sems, f.Wait) // waited on and completed: unsignalled, reusable
	t.tryFree(f.p)
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
	f.p.refs--
	t.tryFree(f.p)
	if f.handed {
		t.sems = append(t.sems, f.Wait) // SignalTimeline's submission waited on it
		return nil
	}
	// The semaphore is signalled (or about to be): consume the signal with an empty submission, and
	// reuse the semaphore once that submission's fence has signalled.
	sl, err := t.ring.Next()
	if err != nil {
		return fmt.Errorf("videotex: discard: %w", err)
	}
	wait := []vkx.SubmitSemaphore{{Semaphore: f.Wait, Stage: vk.PipelineStageFlags(vk.PipelineStageAllCommandsBit)}}
	if err := t.ring.SubmitSplit(sl, nil, nil, wait, nil); err != nil {
		return fmt.Errorf("videotex: discard: %w", err)
	}
	sem := f.Wait
	sl.Retire(func() { t.sems = append(t.sems, sem) })
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
	defer t.cond.Broadcast() // the ring's fences may have freed pictures for the decoder
	t.reclaim()
	var fresh *picture
	if i := pick(); i >= 0 {
		fresh = t.ready[i]
		for _, p := range t.ready[:i] { // due but superseded: never uploaded, straight back
			p.drop()
			t.stats.Dropped++
		}
		t.ready = append(t.ready[:0], t.ready[i+1:]...)
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
			fresh.drop()
		} else {
			fresh.sp.Hold() // until it is neither current nor referenced (tryFree)
			fresh.shown, fresh.current = true, true
			if prev := t.current; prev != nil {
				prev.current = false
				t.tryFree(prev)
			}
			t.current = fresh
			t.stats.Shown++
		}
	} else {
		// Nothing new: a fresh semaphore for this frame, signalled by an empty submission after the
		// earlier upload (a semaphore signal's first synchronization scope holds every command
		// submitted before it on the queue: Vulkan spec, "Semaphore Signaling").
		var sl *stream.Slot
		if sl, err = t.ring.Next(); err == nil {
			err = t.ring.Submit(sl, vk.NullSemaphore, sem)
		}
	}
	if err != nil {
		t.sems = append(t.sems, sem)
		t.mu.Unlock()
		return nil, fmt.Errorf("videotex: %w", err)
	}
	p := t.current
	p.refs++
	tex, cfg, plan := p.sp.Texture(), p.sp.Config(), p.sp.Plan()
	shown := &shownConfig{cfg: cfg, path: tex.Path, reason: plan.Path.Reason, sampler: tex.Sampler, count: tex.DescriptorCount}
	var change *Change
	if prev := t.shown; prev == nil || prev.cfg != cfg || prev.path != shown.path {
		rebuild := prev == nil || prev.sampler != shown.sampler || prev.count != shown.count
		if rebuild {
			t.gen++
		}
		change = &Change{Generation: t.gen, Rebuild: rebuild, Path: shown.path, Reason: shown.reason,
			Format: cfg.Format.Name, Width: cfg.Width, Height: cfg.Height, Params: cfg.Params.String()}
		t.shown = shown
	}
	f := &Frame{Image: tex.Image, View: tex.View, Layout: tex.Layout, Sampler: tex.Sampler, DescriptorCount: tex.DescriptorCount,
		Generation: t.gen, Wait: sem, WaitStage: vk.PipelineStageFlags(vk.PipelineStageFragmentShaderBit), UVScale: tex.UVScale,
		Width: cfg.Width, Height: cfg.Height, PTS: p.pts, Index: p.index, Advanced: fresh != nil,
		Path: tex.Path, FrameInfo: p.meta, t: t, p: p}
	t.mu.Unlock()
	if change != nil && t.opts.OnChange != nil {
		t.opts.OnChange(*change)
	}
	return f, nil
}

// shownConfig is what a frame handed out was made for: its configuration, path and why, and what
// the engine's layouts depend on (the immutable sampler and the descriptor count).
type shownConfig struct {
	cfg     stream.Config
	path    formats.Path
	reason  string
	sampler vk.Sampler
	count   uint32
}

// upload records and submits p's upload on a frame of the stream (and on the shader path its
// conversion into the picture's RGBA8 texture), signalling sem. The stream keeps p from being
// taken again until that frame's fence has signalled. Called with t.mu held.
func (t *Texture) upload(p *picture, sem vk.Semaphore) error {
	fr, err := t.st.BeginPicture(p.sp)
	if err != nil {
		return err
	}
	hw := p.hw
	if hw != nil {
		// The GPU copy (the configuration's route), in a batch of its own that waits on and
		// signals the decoder's timeline semaphore ahead of the conversion (stream.Locked): the
		// decoder waits for the copy alone. FFmpeg may reuse the image once the copy is done.
		p.hw = nil
		if _, _, err := fr.LoadForeign(hw.HW.Foreign(), hw.Release); err != nil {
			return fmt.Errorf("%w: %v", errNoHW, err) // unsubmitted: the slot's next use resets it
		}
	} else {
		fr.Upload()
	}
	if err := fr.DrawTexture(); err != nil {
		return err // unsubmitted: the stream unlocks a foreign frame at its next frame
	}
	if err := fr.Submit(vk.NullSemaphore, sem); err != nil {
		return err
	}
	if hw != nil {
		t.stats.HWCopied++
	}
	return nil
}

// reclaim runs what the ring retired on submissions whose fences have signalled (semaphores to
// reuse, pictures whose upload is done). Called with t.mu held, as every call on the ring is:
// vkResetFences needs the fence externally synchronized, and the decoder goroutine reclaims too.
func (t *Texture) reclaim() {
	t.ring.Collect()
}

// semaphore is an unsignalled semaphore for a Frame: a recycled one, or a new one. Called with t.mu
// held.
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
