package stream

import (
	"fmt"
	"sync"
	"time"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/gpu"
	"github.com/ycbcrkit/ycbcrkit/internal/vkx"
	"github.com/ycbcrkit/ycbcrkit/planes"
	"github.com/ycbcrkit/ycbcrkit/ycbcr"
)

// Options tune New. The zero value works: two slots, uploads chosen per frame.
type Options struct {
	// Slots is the number of frames in flight; 0 means 2 (the CPU stages frame N+1 while the GPU
	// converts frame N).
	Slots int
	// Upload is how planes reach the GPU (planes.UploadAuto: import where the device and layout
	// allow it, else copy).
	Upload planes.Upload
	// Measure, if set, replaces the GPU measurement of the conversion variants (VariantAuto): tests
	// inject timings with it.
	Measure MeasureFunc
	// QueueLock and Borrowed are the ring's (RingOptions): an engine's device and queue.
	QueueLock sync.Locker
	Borrowed  bool
	// OwnPictures says the caller keeps its own pictures (videotex: a pool an engine holds beyond
	// the stream's fences): Configure then decides the plan and makes no images, and Begin fails.
	OwnPictures bool
	// Paths, if set, are conversion paths shared with other streams on the same device (a wall of
	// videos: one conversion cache and one set of pipelines for all); the caller destroys them after
	// every stream that uses them is closed. nil: the stream makes its own.
	Paths *ycbcr.Paths
}

// Config is what a stream's images and conversions are made for; a change of any field is a new
// configuration.
type Config struct {
	Format        *formats.PixelFormat
	Width, Height int
	Params        ycbcr.Params
	Choice        formats.Choice
	// Both holds both paths' images and bindings, for comparisons; the sampler must express the
	// stream.
	Both bool
	// Variant is how the conversion runs (drawn or compute); VariantAuto measures both.
	Variant Variant
	// Peak measures PQ pictures' peak and tone-maps with it (quality.go); Deband debands 8-bit
	// sources before the scale pass (Iterations 0: off).
	Peak   bool
	Deband ycbcr.DebandParams
	// Route is how hardware-decoded pictures (LoadForeign) reach the conversion; RouteAuto
	// chooses per frame.
	Route Route
	// Decode is how the source decodes the pictures (the plan records it).
	Decode Decode
}

// picture is one slot's images and bindings for the current configuration.
type picture struct {
	img      *planes.Image
	bindings map[formats.Path]*ycbcr.Binding
	compute  *computeTarget // the compute variant's storage image and bindings
	scaled   *scaled        // the scale pass's images, made on first need
	quality  *quality       // peak detection and debanding (quality.go), when configured
}

func (p *picture) destroy() {
	if p.quality != nil {
		p.quality.destroy()
	}
	if p.scaled != nil {
		p.scaled.destroy()
	}
	if p.compute != nil {
		p.compute.destroy()
	}
	for _, b := range p.bindings {
		b.Destroy()
	}
	if p.img != nil {
		p.img.Destroy()
	}
}

// Stream owns a stream of pictures on the GPU: the path choice, the ring of slots with their images
// and bindings, the import cache, and the lifetime of everything a frame uses, retired on the fence
// of the slot that last used it.
type Stream struct {
	Dev *gpu.Device
	// Conv holds both conversion paths (the sampler path's conversion cache, the shader path) for
	// the stream's life; they also convert single pictures offscreen (a player's screenshots).
	Conv    *ycbcr.Paths
	ownConv bool // Conv is the stream's own (not Options.Paths)
	Ring    *Ring
	// Timer measures each frame between Begin and Submit on the GPU, with its Pre batch (a
	// hardware-decoded picture's copy or in-place conversion; Ring.Timer), nil without timestamps.
	Timer *gpu.GPUTimer

	upload     planes.Upload
	importer   *planes.Importer
	cfg        Config
	configured bool
	plan       Plan
	paths      []formats.Path
	pictures   []*picture
	generation int

	measure    MeasureFunc
	own        bool // Options.OwnPictures
	probes     map[ProbeKey]measured
	probeTime  time.Duration // spent in the variant probe, in all
	blit       *ycbcr.Blit   // draws compute pictures onto targets; made on first need
	scaler     *ycbcr.Scaler
	debander   *ycbcr.Debander
	peakFilter ycbcr.PeakFilter
	peak       float64 // the detected peak in use (cd/m²), 0: none
	// locked is the foreign frame loaded and not yet submitted (LoadForeign), under its lock.
	locked *foreignFrame
}

// New prepares a stream on dev: the conversion paths, the slots and the GPU timer.
func New(dev *gpu.Device, opts Options) (*Stream, error) {
	n := opts.Slots
	if n == 0 {
		n = 2
	}
	conv, ownConv := opts.Paths, opts.Paths == nil
	if ownConv {
		var err error
		if conv, err = ycbcr.NewPaths(dev); err != nil {
			return nil, err
		}
	}
	s := &Stream{Dev: dev, Conv: conv, ownConv: ownConv, upload: opts.Upload, measure: opts.Measure,
		probes: map[ProbeKey]measured{}, own: opts.OwnPictures}
	var err error
	if s.Ring, err = NewRingWith(dev, n, RingOptions{QueueLock: opts.QueueLock, Borrowed: opts.Borrowed}); err != nil {
		if ownConv {
			conv.Destroy()
		}
		return nil, err
	}
	if s.Timer, err = dev.NewGPUTimer(n); err != nil {
		s.Close()
		return nil, err
	}
	s.Ring.Timer = s.Timer
	if !s.own {
		s.pictures = make([]*picture, n)
	}
	return s, nil
}

// Paths are the paths the current configuration draws (both for comparisons).
func (s *Stream) Paths() []formats.Path { return s.paths }

// Generation grows with each new configuration.
func (s *Stream) Generation() int { return s.generation }

// Configure makes c the stream's configuration: its plan (decide), and the slots' images and
// bindings for it. It does nothing when c is the current configuration; changed reports a new one.
// What the old configuration made is retired on the fence of the last submission, so nothing waits
// here.
func (s *Stream) Configure(c Config) (changed bool, err error) {
	if s.configured && c == s.cfg {
		return false, nil
	}
	if err := s.Dev.CheckImageSize(c.Width, c.Height); err != nil {
		return true, fmt.Errorf("stream: %w", err)
	}
	s.retireConfiguration()
	if err := s.newImporter(); err != nil {
		return true, err
	}
	plan, err := s.decide(c)
	if err != nil {
		return true, err
	}
	paths := plan.paths(c.Both)
	s.plan, s.paths = plan, paths
	for i := range s.pictures {
		p := &picture{bindings: map[formats.Path]*ycbcr.Binding{}}
		s.pictures[i] = p
		if p.img, err = planes.New(s.Dev, c.Format, c.Width, c.Height, paths...); err != nil {
			return true, err
		}
		if s.importer != nil {
			p.img.SetImporter(s.importer)
		}
		for _, path := range paths {
			b, err := s.Conv.Bind(p.img, c.Params, path)
			if err != nil {
				return true, err
			}
			p.bindings[path] = b
		}
		if plan.Variant.Variant == VariantCompute {
			if p.compute, err = s.newComputeTarget(p.img, c, plan.Path.Path); err != nil {
				return true, fmt.Errorf("stream: configure: compute: %w", err)
			}
		}
	}
	if err := s.configureQuality(c, plan.Path.Path); err != nil {
		return true, err
	}
	s.cfg, s.configured = c, true
	s.generation++
	return true, nil
}

// retireConfiguration hands the current images, bindings and import cache to the last submission's
// fence. The import cache goes after the images, which drop their holds on it.
func (s *Stream) retireConfiguration() {
	if s.own {
		s.configured = false
		return // nothing made: the ring, which the caller may be using on another goroutine, is left alone
	}
	old := append([]*picture(nil), s.pictures...)
	imp := s.importer
	s.importer, s.configured = nil, false
	for i := range s.pictures {
		s.pictures[i] = nil
	}
	s.Ring.RetireLast(func() {
		for _, p := range old {
			if p != nil {
				p.destroy()
			}
		}
		if imp != nil {
			imp.Destroy()
		}
	})
}

// newImporter starts an import cache for a new configuration: a decoder reallocates its buffer pool
// when the size or format changes, and imports of freed memory must not outlive it.
func (s *Stream) newImporter() error {
	if s.own || s.upload == planes.UploadCopy || s.upload == planes.UploadDirect || !s.Dev.Extensions[gpu.ExtExternalMemoryHost] {
		return nil
	}
	imp, err := planes.NewImporter(s.Dev, planes.DefaultImportCapacity)
	if err != nil {
		if s.upload == planes.UploadImport {
			return fmt.Errorf("stream: -upload import: %w", err)
		}
		return nil // auto: the copy path it is
	}
	s.importer = imp
	return nil
}

// Frame is one slot taken for a picture: record the upload with Load, draw with Bindings into the
// slot's command buffer, then Submit.
type Frame struct {
	Slot     *Slot
	Image    *planes.Image
	Bindings map[formats.Path]*ycbcr.Binding
	s        *Stream
	compute  *computeTarget
	view     *ycbcr.ScaleView // set by Scale: Draw draws the scale pass's second half
	scaled   *ycbcr.ScaleTarget
	into     bool          // set by ScaleInto when the pass wrote the target itself: Draw draws nothing
	foreign  *foreignFrame // set by LoadForeign: Submit waits on and signals its semaphore
	debanded *quality      // set by Convert when it debanded: Scale and Draw read the debanded picture
}

// Begin takes the next slot (after its previous submission is done, releasing what that held) and
// starts recording, timed.
func (s *Stream) Begin() (*Frame, error) {
	if !s.configured || s.own {
		return nil, fmt.Errorf("stream: Begin before Configure, or on a stream whose caller keeps its pictures")
	}
	s.unlockAbandoned()
	sl, err := s.Ring.Next()
	if err != nil {
		return nil, err
	}
	p := s.pictures[sl.Index]
	if err := s.collectPeak(p); err != nil {
		return nil, err
	}
	s.Timer.Start(sl.CB, sl.Index)
	return &Frame{Slot: sl, Image: p.img, Bindings: p.bindings, s: s, compute: p.compute}, nil
}

// Convert records, after Load and outside a render pass, what the conversion variant does before
// the target's pass: the compute variant's dispatch into the slot's storage image. The drawn variant
// records nothing here.
func (f *Frame) Convert() error {
	if err := f.recordQuality(true); err != nil {
		return err
	}
	if f.compute == nil {
		return f.recordQuality(false)
	}
	if ff := f.foreign; ff != nil && ff.early {
		// In place, the conversion is the decoder's image's last read: into the Pre batch, which
		// then signals the frame's semaphore (LoadForeign).
		if err := f.compute.record(f.Slot.Pre); err != nil {
			return err
		}
		ff.pre = true
		return f.recordQuality(false) // debanding reads the slot's image: in the frame's own batch
	}
	if err := f.compute.record(f.Slot.CB); err != nil {
		return err
	}
	return f.recordQuality(false)
}

// Draw draws the converted picture into target, inside its render pass: the path's drawn
// conversion, or the compute variant's picture (Convert) drawn onto it.
func (f *Frame) Draw(target ycbcr.Target) error {
	if f.into {
		return nil
	}
	if f.view != nil {
		return f.scaled.Draw(f.Slot.CB, target, *f.view)
	}
	if f.debanded != nil {
		return f.debanded.blit.DrawWith(f.Slot.CB, target, f.s.cfg.Params.Dither)
	}
	if f.compute != nil {
		return f.compute.blit.Draw(f.Slot.CB, target)
	}
	return f.Bindings[f.s.plan.Path.Path].Draw(f.Slot.CB, target)
}

// Load records the upload of pic into the frame's images. release, if not nil, runs once the GPU
// no longer reads pic's memory (the import path reads the decoder's buffers in place): on the
// slot's fence, or at once when Load fails.
func (f *Frame) Load(pic *formats.Frame, release func()) (planes.Loaded, error) {
	l, err := f.Image.Load(f.Slot.CB, pic, f.s.upload)
	if err != nil {
		if release != nil {
			release()
		}
		return l, err
	}
	f.s.plan.Upload = l
	img := f.Image
	f.Slot.Retire(img.Done) // the import cache's holds of this load
	if release != nil {
		f.Slot.Retire(release)
	}
	return l, nil
}

// Submit ends the frame's recording and submits it, waiting on wait and signalling signal (either
// may be null).
func (f *Frame) Submit(wait, signal vk.Semaphore) error {
	f.s.Timer.Stop(f.Slot.CB, f.Slot.Index)
	ff := f.foreign
	if ff == nil {
		return f.s.Ring.Submit(f.Slot, wait, signal)
	}
	// A foreign frame: its semaphore waited on and signalled in the same submission, its state
	// written back and its lock released right after (Locked.Submit).
	f.foreign, f.s.locked = nil, nil
	var waits, signals []vkx.SubmitSemaphore
	if wait != vk.NullSemaphore {
		waits = append(waits, vkx.SubmitSemaphore{Semaphore: wait, Stage: vk.PipelineStageFlags(vk.PipelineStageColorAttachmentOutputBit)})
	}
	if signal != vk.NullSemaphore {
		signals = append(signals, vkx.SubmitSemaphore{Semaphore: signal})
	}
	return ff.Submit(f.s.Ring, f.Slot, waits, signals)
}

// Live counts what the stream holds on the device: each slot's images and bindings, and the
// releases waiting for a fence. A soak keeps it flat.
func (s *Stream) Live() int {
	n := s.Ring.Pending()
	for _, p := range s.pictures {
		if p != nil {
			n += 1 + len(p.bindings)
			if p.compute != nil {
				n++
			}
			if p.scaled != nil {
				n++
			}
		}
	}
	if s.importer != nil {
		n++
	}
	return n
}

// Close waits for the stream's submissions and frees everything. After an error from Submit
// (whose submission may still run) Close is the only call left.
func (s *Stream) Close() {
	s.unlockAbandoned()
	if s.Ring != nil {
		s.Ring.Close() // waits: what follows is freed directly
		s.Ring = nil
	}
	for i, p := range s.pictures {
		if p != nil {
			p.destroy()
			s.pictures[i] = nil
		}
	}
	if s.importer != nil {
		s.importer.Destroy()
		s.importer = nil
	}
	s.configured = false
	s.Timer.Finish()
	s.Timer.Destroy()
	s.Timer = nil
	if s.blit != nil {
		s.blit.Destroy()
		s.blit = nil
	}
	if s.scaler != nil {
		s.scaler.Destroy()
		s.scaler = nil
	}
	if s.debander != nil {
		s.debander.Destroy()
		s.debander = nil
	}
	if s.Conv != nil && s.ownConv {
		s.Conv.Destroy() // after Ring.Close: nothing in flight uses them
		s.Conv = nil
	}
}
