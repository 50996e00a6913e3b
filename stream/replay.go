package stream

import (
	"fmt"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/gpu"
	"github.com/ycbcrkit/ycbcrkit/internal/vkx"
	"github.com/ycbcrkit/ycbcrkit/planes"
)

// Replaying a hardware-decoded picture's frame (Options.Replay).
//
// A wall's frame of a decoded picture is always the same few commands: the barrier that takes the
// decoder's image from its layout to TRANSFER_SRC, the copy of its planes into the picture's
// images, and the compute conversion into the tile's place. What changes from picture to picture
// is the decoder's image (FFmpeg's pool holds a few per stream), its layout and its semaphore's
// values, and the semaphores are the submission's, not the command buffer's. So the commands are
// recorded once per (picture, decoder image, layout) and submitted again: on NVIDIA's driver each
// Vulkan call takes a device-wide lock that every decoding thread takes too, and a wall's step
// thread recording 64 tiles made about 13 calls a tile (docs/performance.md, "Live walls").
//
// A command buffer of p's is submitted only in frames that hold p busy (begin's count), so once
// Take hands p out none of its command buffers is pending: they may be freed or recorded again.
// They go with p's images (Picture.destroy), when FFmpeg may have destroyed an image since they
// were recorded (planes.ForeignState.Epoch: a new image may have an old one's handle), and when p
// holds replayMost of them.

// replayMost is how many command buffers a picture keeps: FFmpeg's pool for one decoder is about
// ten images (the DPB's and those in flight), two layouts at most.
const replayMost = 64

type replayKey struct {
	image  vk.Image
	sem    vk.Semaphore
	layout vk.ImageLayout
}

// replays are a picture's recorded frames, for the images of one epoch.
type replays struct {
	epoch uint64
	cbs   map[replayKey]vk.CommandBuffer
}

// drop frees every command buffer; none may be pending.
func (r *replays) drop(dev *gpu.Device) {
	for k, cb := range r.cbs {
		dev.FreeCommandBuffer(cb)
		delete(r.cbs, k)
	}
}

// Replays says the stream's next frame of a hardware-decoded picture can be a replayed one (Replay):
// the configuration converts into its place with the compute variant, through one path, with no
// quality pass, and the GPU timer does not measure that frame.
func (s *Stream) Replays() bool { return s.replayable() && !s.Timer.Due() }

func (s *Stream) replayable() bool {
	c := s.cfg
	return s.replay && s.oneBatch && s.configured && s.textures == nil && len(s.paths) == 1 &&
		(c.Route == RouteAuto || c.Route == RouteCopy) && c.Into.View != vk.NullImageView &&
		s.plan.Variant.Variant == VariantCompute && !c.debandOn(1) && !c.peakOn(s.plan.Path.Path, 1)
}

// copies says whether a frame copies the image of st (the route LoadForeign takes for it: in one
// batch, so never early), so that Replay can replay it.
func (s *Stream) copies(st planes.ForeignState) bool {
	c := s.cfg
	return !st.External && st.Epoch != 0 && (c.Route == RouteCopy || autoCopies(st.Image, c.paddedIn(st.Image), false))
}

// placedAlone says p's frame is its compute conversion into its place with no quality pass: what a
// replayed frame records (Replays checks the configuration).
func (p *Picture) placedAlone() bool { return p.compute != nil && p.compute.placed && p.quality == nil }

// Prerecord records, for each free picture of the stream, the frame Replay would submit for src
// in its present layout, and submits nothing: a wall does it for the pictures it holds before its
// clocks start, so that its first steps do not record for every stream at once (the first
// command buffers that read a decoder's image cost the most).
func (s *Stream) Prerecord(src Foreign) error {
	if !s.replayable() {
		return nil
	}
	lk, err := LockForeign(src, s.Dev.QueueFamily)
	if err != nil {
		return err
	}
	defer lk.Unlock()
	if !s.copies(lk.State) {
		return nil
	}
	s.mu.Lock()
	var free []*Picture
	for _, p := range s.pictures {
		if !p.taken && p.holds == 0 && p.busy == 0 && p.img != nil && p.gen == s.generation {
			free = append(free, p)
		}
	}
	s.mu.Unlock()
	for _, p := range free {
		if !p.placedAlone() {
			continue
		}
		if _, err := p.replayed(lk); err != nil {
			return fmt.Errorf("stream: prerecord: %w", err)
		}
	}
	return nil
}

// Replay submits the frame of src's picture (the current configuration's) from the command buffer
// recorded for its picture, decoder image and layout, recording it first if there is none, and
// retires release on the frame's slot; with a Gather, the submission waits for its Flush. Replays
// must have said yes. When src's image is not one a frame copies (Route: it is not padded and not
// a reference picture, or it comes from another device), Replay records nothing and returns rest:
// src under its lock, for the usual frame (Begin, LoadForeign), which takes the lock over.
func (s *Stream) Replay(src Foreign, release func()) (rest Foreign, err error) {
	s.unlockAbandoned()
	lk, err := LockForeign(src, s.Dev.QueueFamily)
	if err != nil {
		release()
		return nil, err
	}
	if st := lk.State; !s.copies(st) {
		return &Held{src: src, st: st}, nil
	}
	fail := func(err error) (Foreign, error) { // err says "stream: " already
		lk.Unlock()
		release()
		return nil, err
	}
	sl, err := s.Ring.take()
	if err != nil {
		return fail(err)
	}
	p, err := s.takePrepared()
	if err != nil {
		return fail(err)
	}
	s.inFlight(sl, p)
	sl.Retire(release)
	if !p.placedAlone() { // Replays said so: not expected
		lk.Unlock()
		return nil, fmt.Errorf("stream: replay: the picture is not converted into its place alone")
	}
	cb, err := p.replayed(lk)
	if err != nil {
		lk.Unlock()
		return nil, fmt.Errorf("stream: replay: %w", err)
	}
	s.Timer.Skip()
	s.replayed++
	lk.reads(vk.ImageLayoutTransferSrcOptimal, vk.AccessFlags(vk.AccessTransferReadBit), vk.PipelineStageFlags(vk.PipelineStageTransferBit), false)
	waits, signal := lk.points()
	err = s.Ring.submitEnded(sl, []vkx.Batch{{CB: cb, Waits: waits, Signals: []vkx.SubmitSemaphore{signal}}})
	if err == nil {
		lk.src.Submitted(lk.layout, lk.access)
	}
	lk.Unlock()
	if err != nil {
		return nil, fmt.Errorf("stream: replay: %w", err)
	}
	s.plan.Route, s.plan.Upload = replayedRoute, replayedUpload
	return nil, nil
}

// What a replayed frame's plan says (made once: Replay runs for every tile of every step).
var (
	replayedRoute  = RouteStep{RouteCopy, "the decoder's image copied on the GPU; read in the frame's own batch (one batch), its commands recorded once per picture and decoder image (replayed)"}
	replayedUpload = planes.Loaded{Reason: "none: the picture is on the GPU already (" + RouteCopy.String() + ")"}
)

// ReplayCounts are how many frames Replay submitted, and for how many of them it recorded the
// commands (a picture's first frame of a decoder image, or its first after the owner destroyed an
// image).
func (s *Stream) ReplayCounts() (frames, recorded int) { return s.replayed, s.recorded }

// replayed is the command buffer of p's frame from lk's image in its layout: recorded now unless p
// has it from an earlier frame of the same epoch.
func (p *Picture) replayed(lk *Locked) (vk.CommandBuffer, error) {
	st := lk.State
	r := p.replay
	if r == nil {
		r = &replays{epoch: st.Epoch, cbs: map[replayKey]vk.CommandBuffer{}}
		p.replay = r
	}
	if r.epoch != st.Epoch || len(r.cbs) >= replayMost {
		r.drop(p.s.Dev)
		r.epoch = st.Epoch
	}
	k := replayKey{st.Image.Image, st.Semaphore, st.Layout}
	if cb, ok := r.cbs[k]; ok {
		return cb, nil
	}
	cb, err := p.s.Dev.NewCommandBuffer()
	if err != nil {
		return nil, err
	}
	p.s.recorded++
	err = gpu.BeginReused(cb)
	if err == nil {
		err = lk.Copy(cb, false, p.img)
	}
	if err == nil {
		err = p.compute.record(cb)
	}
	if err == nil {
		err = vkx.Check(vk.EndCommandBuffer(cb), "vkEndCommandBuffer")
	}
	if err != nil {
		p.s.Dev.FreeCommandBuffer(cb)
		return nil, err
	}
	r.cbs[k] = cb
	return cb, nil
}
