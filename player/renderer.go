package player

import (
	"fmt"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/gpu"
	"github.com/ycbcrkit/ycbcrkit/internal/vkx"
	"github.com/ycbcrkit/ycbcrkit/planes"
	"github.com/ycbcrkit/ycbcrkit/ycbcr"
)

// Compare is the side-by-side mode.
type Compare int

const (
	CompareOff   Compare = iota
	CompareSplit         // sampler path left of the middle, shader path right
	CompareDiff          // |sampler − shader| × DiffGain
)

// DiffGain amplifies the difference in CompareDiff: one 8-bit step shows as 16.
const DiffGain = 16

// ParseCompare reads -compare.
func ParseCompare(s string) (Compare, error) {
	switch s {
	case "off":
		return CompareOff, nil
	case "split":
		return CompareSplit, nil
	case "diff":
		return CompareDiff, nil
	}
	return 0, fmt.Errorf("bad -compare %q: off, split or diff", s)
}

func (c Compare) String() string { return [...]string{"off", "split", "diff"}[c] }

// framesInFlight: the CPU stages frame N+1 while the GPU converts frame N.
const framesInFlight = 2

// slot is everything one frame in flight owns.
type slot struct {
	img *planes.Image
	// done is called once the GPU has finished this slot's last frame: it returns the frame's
	// buffers to the decoder (the import path reads them straight from there).
	done     func()
	bindings map[formats.Path]*ycbcr.Binding
	// diff mode: each path's picture at the video's size, and the difference pass over them
	pictures map[formats.Path]*gpu.Offscreen
	diff     *ycbcr.Binding
	cb       vk.CommandBuffer
	fence    vk.Fence
	acquired vk.Semaphore
}

// Renderer uploads frames and draws them through a conversion path into a target.
type Renderer struct {
	Dev  *gpu.Device
	Conv *ycbcr.Converter

	Choice  formats.Choice
	Compare Compare
	// Path is the path in use and PathReason why (for -stats and the info key).
	Path       formats.Path
	PathReason string
	Key        ycbcr.Key // the sampler path's conversion, when it is used

	// Timer measures each frame's upload and conversion on the GPU (nil without timestamps).
	Timer *gpu.GPUTimer
	// Upload is how planes reach the GPU; Loaded says what the last frame used and why.
	Upload   planes.Upload
	Loaded   planes.Loaded
	importer *planes.Importer

	slots  []*slot
	cur    int
	diff   *ycbcr.Diff
	dirty  bool // the path or compare mode changed: rebuild at the next frame
	format *formats.PixelFormat
	width  int
	height int
	params ycbcr.Params
}

// NewRenderer prepares the conversion paths and frame slots.
func NewRenderer(dev *gpu.Device, choice formats.Choice, compare Compare, upload planes.Upload) (*Renderer, error) {
	conv, err := ycbcr.NewConverter(dev)
	if err != nil {
		return nil, err
	}
	r := &Renderer{Dev: dev, Conv: conv, Choice: choice, Compare: compare, Upload: upload}
	if r.Timer, err = dev.NewGPUTimer(framesInFlight); err != nil {
		conv.Destroy()
		return nil, err
	}
	for i := 0; i < framesInFlight; i++ {
		s := &slot{bindings: map[formats.Path]*ycbcr.Binding{}, pictures: map[formats.Path]*gpu.Offscreen{}}
		if s.cb, err = dev.NewCommandBuffer(); err == nil {
			if s.fence, err = dev.NewFence(true); err == nil {
				s.acquired, err = dev.NewSemaphore()
			}
		}
		r.slots = append(r.slots, s)
		if err != nil {
			r.Destroy()
			return nil, fmt.Errorf("player: %w", err)
		}
	}
	return r, nil
}

// choosePath decides the path for the current stream and says why.
func (r *Renderer) choosePath() error {
	d, err := ycbcr.Choose(r.Dev, r.format, r.params, r.Choice)
	if err != nil {
		return err
	}
	r.Path, r.Key, r.PathReason = d.Path, d.Key, d.Reason
	if r.Compare != CompareOff && d.SamplerErr != nil {
		return fmt.Errorf("-compare %s needs the sampler path: %v", r.Compare, d.SamplerErr)
	}
	return nil
}

// paths lists the paths drawn each frame.
func (r *Renderer) paths() []formats.Path {
	if r.Compare != CompareOff {
		return []formats.Path{formats.PathSampler, formats.PathShader}
	}
	return []formats.Path{r.Path}
}

// configure (re)builds images and bindings when the stream's layout, size or metadata change.
func (r *Renderer) configure(f *formats.Frame, p ycbcr.Params) error {
	if !r.dirty && r.format == f.Format && r.width == f.Width && r.height == f.Height && r.params == p {
		return nil
	}
	r.dirty = false
	vk.DeviceWaitIdle(r.Dev.Device)
	r.releaseImages()
	r.format, r.width, r.height, r.params = f.Format, f.Width, f.Height, p
	if err := r.resetImporter(); err != nil {
		r.format = nil
		return err
	}
	if err := r.choosePath(); err != nil {
		r.format = nil
		return err
	}
	for _, s := range r.slots {
		img, err := planes.New(r.Dev, f.Format, f.Width, f.Height, r.paths()...)
		if err != nil {
			r.format = nil
			return err
		}
		s.img = img
		if r.importer != nil {
			img.SetImporter(r.importer)
		}
		for _, path := range r.paths() {
			b, err := r.Conv.Bind(img, p, path)
			if err != nil {
				r.format = nil
				return err
			}
			s.bindings[path] = b
		}
		if r.Compare == CompareDiff {
			if err := r.configureDiff(s, f.Width, f.Height); err != nil {
				r.format = nil
				return err
			}
		}
	}
	return nil
}

// resetImporter starts a new import cache for a new stream layout: a decoder reallocates its buffer
// pool when the size or format changes, and imports of freed memory must not outlive it.
func (r *Renderer) resetImporter() error {
	if r.importer != nil {
		r.importer.Destroy()
		r.importer = nil
	}
	if r.Upload == planes.UploadCopy || !r.Dev.Extensions[gpu.ExtExternalMemoryHost] {
		return nil
	}
	imp, err := planes.NewImporter(r.Dev, planes.DefaultImportCapacity)
	if err != nil {
		if r.Upload == planes.UploadImport {
			return fmt.Errorf("-upload import: %w", err)
		}
		return nil // auto: the copy path it is
	}
	r.importer = imp
	return nil
}

// configureDiff gives a slot one picture per path at the video's size and the difference pass.
func (r *Renderer) configureDiff(s *slot, w, h int) error {
	if r.diff == nil {
		d, err := ycbcr.NewDiff(r.Dev)
		if err != nil {
			return err
		}
		r.diff = d
	}
	for _, path := range r.paths() {
		o, err := r.Dev.NewSampledOffscreen(w, h)
		if err != nil {
			return err
		}
		s.pictures[path] = o
	}
	b, err := r.diff.Bind(s.pictures[formats.PathSampler].View, s.pictures[formats.PathShader].View, DiffGain)
	if err != nil {
		return err
	}
	s.diff = b
	return nil
}

// SamplerPossible says why the sampler path cannot show the current stream (nil when it can, or
// when nothing is shown yet).
func (r *Renderer) SamplerPossible() error {
	if r.format == nil {
		return nil
	}
	_, err := ycbcr.SamplerKey(r.Dev, r.format, r.params)
	return err
}

// SetChoice switches the path (the p key); the next frame rebuilds what it needs.
func (r *Renderer) SetChoice(c formats.Choice) {
	r.Choice = c
	r.dirty = true
}

// SetCompare switches the compare mode (the c key).
func (r *Renderer) SetCompare(c Compare) {
	r.Compare = c
	r.dirty = true
}

// Letterbox fits a picture of display aspect aspect (width/height) centred in a w×h target.
func Letterbox(w, h int, aspect float64) (x, y, vw, vh int) {
	if w <= 0 || h <= 0 || aspect <= 0 {
		return 0, 0, w, h
	}
	if float64(w)/float64(h) > aspect {
		vw = max(1, int(float64(h)*aspect+0.5))
		return (w - vw) / 2, 0, vw, h
	}
	vh = max(1, int(float64(w)/aspect+0.5))
	return 0, (h - vh) / 2, w, vh
}

// Target is a render target the renderer draws a frame into.
type Target interface {
	ycbcr.Target
	// Begin starts the render pass on cb (image idx for swapchains) and returns its size.
	begin(cb vk.CommandBuffer) (w, h int)
	end(cb vk.CommandBuffer)
}

// Draw uploads f, records its conversion into target, and submits. wait and signal are the
// swapchain's acquire and render-done semaphores (null for offscreen targets). done, if not nil,
// is called once the GPU no longer reads f's memory.
func (r *Renderer) Draw(f *formats.Frame, p ycbcr.Params, aspect float64, t Target, wait, signal vk.Semaphore, done func()) error {
	if err := r.configure(f, p); err != nil {
		if done != nil {
			done()
		}
		return err
	}
	si := r.cur
	s := r.slots[si]
	r.cur = (r.cur + 1) % len(r.slots)
	err := r.Dev.WaitFence(s.fence)
	s.finish()
	s.done = done
	if err != nil {
		return err
	}
	if err := gpu.Begin(s.cb); err != nil {
		return err
	}
	r.Timer.Start(s.cb, si)
	loaded, err := s.img.Load(s.cb, f, r.Upload)
	if err != nil {
		return err
	}
	r.Loaded = loaded
	if r.Compare == CompareDiff {
		// Each path into its own picture, then their difference into the target.
		for _, path := range r.paths() {
			o := s.pictures[path]
			gpu.BeginPass(s.cb, o.RenderPass, o.Framebuffer, o.Width, o.Height)
			gpu.SetViewport(s.cb, 0, 0, o.Width, o.Height)
			if err := s.bindings[path].Draw(s.cb, o); err != nil {
				return err
			}
			vk.CmdEndRenderPass(s.cb)
		}
		w, h := t.begin(s.cb)
		x, y, vw, vh := Letterbox(w, h, aspect)
		gpu.SetViewport(s.cb, x, y, vw, vh)
		if err := s.diff.Draw(s.cb, t); err != nil {
			return err
		}
		t.end(s.cb)
		r.Timer.Stop(s.cb, si)
		return r.Dev.SubmitFrame(s.cb, wait, signal, s.fence)
	}
	w, h := t.begin(s.cb)
	x, y, vw, vh := Letterbox(w, h, aspect)
	paths := r.paths()
	for i, path := range paths {
		sx, sw := x, vw
		if len(paths) == 2 { // split: each path draws its half of the picture, same viewport
			sw = vw / 2
			if i == 1 {
				sx, sw = x+vw/2, vw-vw/2
			}
		}
		vkx.SetViewport(s.cb, x, y, vw, vh, sx, y, sw, vh)
		if err := s.bindings[path].Draw(s.cb, t); err != nil {
			return err
		}
	}
	t.end(s.cb)
	r.Timer.Stop(s.cb, si)
	return r.Dev.SubmitFrame(s.cb, wait, signal, s.fence)
}

// AcquireSemaphore is the semaphore the next Draw's slot uses for swapchain acquisition.
func (r *Renderer) AcquireSemaphore() vk.Semaphore { return r.slots[r.cur].acquired }

// WaitNextSlot waits until the next slot's previous frame is done (so its acquire semaphore is free).
func (r *Renderer) WaitNextSlot() error {
	s := r.slots[r.cur]
	fs := []vk.Fence{s.fence}
	return vkCheck(vk.WaitForFences(r.Dev.Device, 1, fs, vk.True, ^uint64(0)), "vkWaitForFences")
}

// finish hands the slot's last frame back: the caller has waited for the slot's fence.
func (s *slot) finish() {
	if s.done != nil {
		s.done()
		s.done = nil
	}
}

func (r *Renderer) releaseImages() {
	for _, s := range r.slots {
		s.finish()
		if s.diff != nil {
			s.diff.Destroy()
			s.diff = nil
		}
		for k, o := range s.pictures {
			o.Destroy()
			delete(s.pictures, k)
		}
		for k, b := range s.bindings {
			b.Destroy()
			delete(s.bindings, k)
		}
		if s.img != nil {
			s.img.Destroy()
			s.img = nil
		}
	}
}

// Destroy waits for the GPU and frees everything.
func (r *Renderer) Destroy() {
	vk.DeviceWaitIdle(r.Dev.Device)
	r.releaseImages()
	for _, s := range r.slots {
		if s.cb != nil {
			r.Dev.FreeCommandBuffer(s.cb)
		}
		if s.fence != vk.NullFence {
			vk.DestroyFence(r.Dev.Device, s.fence, nil)
		}
		if s.acquired != vk.NullSemaphore {
			vk.DestroySemaphore(r.Dev.Device, s.acquired, nil)
		}
	}
	r.slots = nil
	if r.importer != nil {
		r.importer.Destroy()
	}
	if r.diff != nil {
		r.diff.Destroy()
	}
	r.Timer.Destroy()
	r.Conv.Destroy()
}
