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
	// Pictures is the number of pictures (images and bindings) in the stream's pool, at least
	// Slots; 0 means Slots. A picture is free for a new frame once no submission that used it is in
	// flight and nobody holds it (Picture.Hold): a caller that hands pictures on (videotex: to an
	// engine, until the engine's fence) keeps more pictures than slots.
	Pictures int
	// Textures, if set, gives each picture a texture an engine samples (Picture.Texture): on the sampler
	// path the picture's multi-planar image through a view carrying the conversion, with the
	// conversion's immutable sampler; on the shader path an RGBA8 image that Frame.DrawTexture
	// converts into, with the kit's plain linear sampler. Host-memory imports are then off (uploads
	// copy). The kit may be shared by streams on one device; its maker destroys it after them.
	Textures *TextureKit
	// Queue is the ring's queue (RingOptions.Queue; nil: the device's).
	Queue vk.Queue
	// Paths, if set, are conversion paths shared with other streams on the same device (a wall of
	// videos, an engine's textures: one conversion cache and one set of pipelines for all, safe for
	// use from the streams' goroutines); the caller destroys them after every stream that uses them
	// is closed. nil: the stream makes its own.
	Paths *ycbcr.Paths
	// OneBatch records a hardware-decoded frame's read of the decoder's image (its GPU copy, or its
	// in-place compute conversion) in the frame's own command buffer, not in a batch of its own
	// ahead of it (Ring.Pre). The decoder then waits for the whole frame, not only that read,
	// before it decodes from the picture again; in exchange a frame costs the driver two calls
	// fewer (the second buffer's begin and end) and its submission one batch fewer. A wall, one
	// thread recording every stream's frame while the decoders' threads contend for the same
	// driver lock, wants that (docs/performance.md, "Live walls"); a single stream keeps the
	// decoder's wait short.
	OneBatch bool
	// Replay records the commands of a hardware-decoded picture's frame once per picture and
	// decoder image and submits them again for later pictures of that image (Stream.Replay), where
	// the frame is the GPU copy and the compute conversion into its place (Config.Into), in one
	// batch (OneBatch), with nothing else: a wall's step then makes no Vulkan call per tile but its
	// share of one submission.
	Replay bool
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
	// chooses per frame. RouteReason, if set, is why the caller asks for Route, which the plan
	// records instead of "asked for".
	Route       Route
	RouteReason string
	// Decode is how the source decodes the pictures (the plan records it).
	Decode Decode
	// Into, if its View is set, is where the compute variant writes each picture: a rectangle of a
	// larger image (Into), instead of a storage image of the picture's own, which the stream then
	// does not make (Frame.Placed).
	Into Into
}

// Into is the rectangle Width×Height at (X, Y) of a TargetFormat storage image in GENERAL layout (a
// wall's canvas: gpu.Device.NewComputedOffscreen) that the compute variant writes each picture
// into (Config.Into): the same pixels it would write into an image of the picture's own, without
// that image (8 MB at 1080p per picture in flight) or the copy out of it. The stream orders each
// write after the image's earlier uses on its queue and before its later ones. Drawn pictures, and
// configurations that read the converted picture again (debanding), ignore it; the scale pass and
// Draw refuse a placed frame.
type Into struct {
	View vk.ImageView
	X, Y int
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
	generation int

	// mu guards the pool's state (each picture's taken, holds and busy, and which configuration the
	// pool is for): a caller may stage pictures (Take) on one goroutine and submit on another.
	mu       sync.Mutex
	pictures []*Picture
	textures *TextureKit // Options.Textures: the texture passes and the plain sampler (not the stream's)

	measure    MeasureFunc
	probes     map[ProbeKey]measured
	probeTime  time.Duration // spent in the variant probe, in all
	blit       *ycbcr.Blit   // draws compute pictures onto targets; made on first need
	scaler     *ycbcr.Scaler
	debander   *ycbcr.Debander
	peakFilter ycbcr.PeakFilter
	peak       float64 // the detected peak in use (cd/m²), 0: none
	// locked is the foreign frame loaded and not yet submitted (LoadForeign), under its lock.
	locked   *foreignFrame
	oneBatch bool // Options.OneBatch
	replay   bool // Options.Replay
	replayed int  // frames Replay submitted
	recorded int  // of them, those whose commands it recorded
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
		probes: map[ProbeKey]measured{}, textures: opts.Textures, oneBatch: opts.OneBatch, replay: opts.Replay}
	var err error
	if s.Ring, err = NewRingWith(dev, n, RingOptions{QueueLock: opts.QueueLock, Borrowed: opts.Borrowed, Queue: opts.Queue}); err != nil {
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
	np := max(opts.Pictures, n)
	for i := 0; i < np; i++ {
		s.pictures = append(s.pictures, &Picture{Index: i, s: s})
	}
	return s, nil
}

// Paths are the paths the current configuration draws (both for comparisons).
func (s *Stream) Paths() []formats.Path { return s.paths }

// Generation grows with each new configuration.
func (s *Stream) Generation() int { return s.generation }

// Configure makes c the stream's configuration: its plan (decide), for which pictures are made as
// frames take them. It does nothing when c is the current configuration; changed reports a new one.
// What the old configuration made is retired on the fence of the last submission (pictures held or
// taken then are remade once free), so nothing waits here.
func (s *Stream) Configure(c Config) (changed bool, err error) {
	if s.configured && c == s.cfg {
		return false, nil
	}
	s.retireConfiguration()
	if err := s.newImporter(); err != nil {
		return true, err
	}
	plan, err := s.decide(c)
	if err != nil {
		return true, err
	}
	s.mu.Lock()
	s.plan, s.paths = plan, plan.paths(c.Both)
	s.peakFilter.Reset()
	s.peak = 0
	s.cfg, s.configured = c, true
	s.generation++
	s.mu.Unlock()
	return true, nil
}

// retireConfiguration hands the free pictures' images and bindings, and the import cache, to the last
// submission's fence; pictures held or taken keep theirs until they are free again (take remakes
// them). The import cache goes after the images, which drop their holds on it.
func (s *Stream) retireConfiguration() {
	s.mu.Lock()
	var old []*Picture
	for _, p := range s.pictures {
		if p.gen != 0 && !p.taken && p.holds == 0 {
			old = append(old, p.detach())
		}
	}
	imp := s.importer
	s.importer, s.configured = nil, false
	s.mu.Unlock()
	if len(old) == 0 && imp == nil {
		return
	}
	s.Ring.RetireLast(func() {
		for _, p := range old {
			p.destroy()
		}
		if imp != nil {
			imp.Destroy()
		}
	})
}

// newImporter starts an import cache for a new configuration: a decoder reallocates its buffer pool
// when the size or format changes, and imports of freed memory must not outlive it.
func (s *Stream) newImporter() error {
	if s.textures != nil || s.upload == planes.UploadCopy || s.upload == planes.UploadDirect || !s.Dev.Extensions[gpu.ExtExternalMemoryHost] {
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
	Picture  *Picture
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

// Begin takes the next slot (after its previous submission is done, releasing what that held) and a
// free picture of the current configuration, and starts recording, timed.
func (s *Stream) Begin() (*Frame, error) {
	if !s.configured {
		return nil, fmt.Errorf("stream: Begin before Configure")
	}
	s.unlockAbandoned()
	sl, err := s.Ring.Next()
	if err != nil {
		return nil, err
	}
	p, err := s.takePrepared()
	if err != nil {
		return nil, err
	}
	return s.begin(sl, p)
}

// takePrepared takes a free picture (Take) with its images and bindings made (Prepare).
func (s *Stream) takePrepared() (*Picture, error) {
	p, err := s.Take()
	if err == nil && p == nil {
		err = fmt.Errorf("stream: every picture is held or in flight")
	}
	if err == nil {
		err = p.Prepare()
	}
	if err != nil {
		if p != nil {
			p.Drop()
		}
		return nil, err
	}
	return p, nil
}

// inFlight puts taken p in flight on sl, until sl's fence.
func (s *Stream) inFlight(sl *Slot, p *Picture) {
	s.mu.Lock()
	p.taken = false
	p.busy++
	s.mu.Unlock()
	sl.Retire(func() {
		s.mu.Lock()
		p.busy--
		s.mu.Unlock()
	})
}

// BeginPicture takes the next slot and starts recording p's frame (p from Take, staged or to be
// loaded), timed.
func (s *Stream) BeginPicture(p *Picture) (*Frame, error) {
	s.unlockAbandoned()
	sl, err := s.Ring.Next()
	if err != nil {
		return nil, err
	}
	return s.begin(sl, p)
}

// begin makes the frame of p on sl: p is in flight until sl's fence.
func (s *Stream) begin(sl *Slot, p *Picture) (*Frame, error) {
	if err := s.collectPeak(p); err != nil {
		p.Drop()
		return nil, err
	}
	s.inFlight(sl, p)
	s.Timer.Start(sl.CB, sl.Index)
	return &Frame{Slot: sl, Picture: p, Image: p.img, Bindings: p.bindings, s: s, compute: p.compute}, nil
}

// Convert records, after Load and outside a render pass, what the conversion variant does before
// the target's pass: the compute variant's dispatch into the slot's storage image. The drawn variant
// records nothing here.
func (f *Frame) Convert() error {
	if ff := f.foreign; ff != nil && ff.early && f.compute != nil {
		// In place, the conversion is the decoder's image's last read: into the Pre batch, which
		// then signals the frame's semaphore (LoadForeign); the peak pass reads it there too.
		if err := f.recordPeak(f.Slot.Pre); err != nil {
			return err
		}
		if err := f.compute.record(f.Slot.Pre); err != nil {
			return err
		}
		ff.pre = true
		return f.recordDeband() // debanding reads the picture's image: in the frame's own batch
	}
	if err := f.recordPeak(f.Slot.CB); err != nil {
		return err
	}
	if f.compute != nil {
		if err := f.compute.record(f.Slot.CB); err != nil {
			return err
		}
	}
	return f.recordDeband()
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
		return f.debanded.blit.DrawWith(f.Slot.CB, target, f.Picture.cfg.Params.Dither)
	}
	if f.Placed() {
		return fmt.Errorf("stream: draw: the picture was converted into its place (Config.Into)")
	}
	if f.compute != nil {
		return f.compute.blit.Draw(f.Slot.CB, target)
	}
	return f.Bindings[f.Picture.plan.Path.Path].Draw(f.Slot.CB, target)
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

// Upload records the upload of what Picture.Stage copied into the frame's picture.
func (f *Frame) Upload() { f.Image.RecordUpload(f.Slot.CB) }

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

// SubmitWith is Submit for a frame loaded from no foreign frame, with semaphores of any kind
// (binary, or timeline values) at their own stages: an engine's draw into its own image.
func (f *Frame) SubmitWith(waits, signals []vkx.SubmitSemaphore) error {
	if f.foreign != nil {
		return fmt.Errorf("stream: SubmitWith on a foreign frame")
	}
	f.s.Timer.Stop(f.Slot.CB, f.Slot.Index)
	return f.s.Ring.SubmitSplit(f.Slot, nil, nil, waits, signals)
}

// Live counts what the stream holds on the device: each picture's images and bindings, and the
// releases waiting for a fence. A soak keeps it flat.
func (s *Stream) Live() int {
	n := s.Ring.Pending()
	s.mu.Lock()
	for _, p := range s.pictures {
		n += p.live()
	}
	s.mu.Unlock()
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
	for _, p := range s.pictures {
		p.destroy()
		p.forget()
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

// MemoryBytes is the device memory the stream's pictures hold: each slot's planes or textures and
// staging buffer (planes.Image.MemoryBytes) and the compute variant's storage image. The conversion
// paths, which streams may share, and the scale and quality passes' images are not counted; nor is
// what FFmpeg allocates for hardware decoding.
func (s *Stream) MemoryBytes() int64 {
	if s == nil {
		return 0
	}
	n := int64(0)
	for _, p := range s.pictures {
		if p == nil {
			continue
		}
		n += p.img.MemoryBytes()
		if p.compute != nil && !p.compute.placed {
			n += s.Dev.MemorySize(p.compute.memory)
		}
	}
	return n
}
