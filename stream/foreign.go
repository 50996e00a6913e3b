package stream

import (
	"fmt"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/planes"
	"github.com/ycbcrkit/ycbcrkit/ycbcr"
)

// Foreign is a picture in an image that another library owns and synchronizes: FFmpeg's AVVkFrame
// (decode.HWFrame.Foreign), whose contract (libavutil/hwcontext_vulkan.h) is: lock_frame just
// before building and submitting, wait on the frame's timeline semaphore at sem_value and signal
// sem_value+1 in that submission, write back the layout and access the submission left, unlock.
type Foreign interface {
	// Lock takes the owner's lock on the frame and reads its state.
	Lock() (planes.ForeignState, error)
	// Submitted records, under the lock, the submission that waited and signalled: the image is
	// now in layout with access, and the semaphore's value is one higher.
	Submitted(layout vk.ImageLayout, access vk.AccessFlags)
	// Unlock releases Lock's lock.
	Unlock()
}

// Route is how a hardware-decoded picture reaches the conversion.
type Route int

const (
	// RouteAuto is the route autoRoute picks per frame: in place where that is both exact and free,
	// the GPU copy otherwise.
	RouteAuto Route = iota
	// RouteInPlace samples the foreign image itself: its Y′CbCr view on the sampler path, views of
	// its planes on the shader path. Nothing is copied.
	RouteInPlace
	// RouteCopy copies its planes into the slot's own images on the GPU (one vkCmdCopyImage per
	// plane), which the conversion then samples as any uploaded picture.
	RouteCopy
	// RouteDownload has the source copy each picture to the CPU (av_hwframe_transfer_data), which
	// the stream then uploads as a software picture: for comparisons.
	RouteDownload
	// RouteNone is the plan's route for pictures decoded in software.
	RouteNone
)

var routeNames = [...]string{"auto", "in place", "GPU copy", "download", "none"}

func (r Route) String() string {
	if r >= 0 && int(r) < len(routeNames) {
		return routeNames[r]
	}
	return fmt.Sprintf("Route(%d)", int(r))
}

// ParseRoute reads -hwdec-route's values: auto, inplace, copy, download.
func ParseRoute(s string) (Route, error) {
	switch s {
	case "", "auto":
		return RouteAuto, nil
	case "inplace":
		return RouteInPlace, nil
	case "copy":
		return RouteCopy, nil
	case "download":
		return RouteDownload, nil
	}
	return 0, fmt.Errorf("-hwdec-route %q: want auto, inplace, copy or download", s)
}

// foreignFrame is what a Frame loaded from a Foreign frame keeps until Submit: the frame, under its
// lock, and early: in place, the compute conversion is the image's only read and goes in the
// slot's Pre command buffer (Convert), whose batch then signals the frame's semaphore.
type foreignFrame struct {
	*Locked
	early bool
}

// LoadForeign records what makes src's picture (the current configuration's format and size) the
// frame's: through the plan's route (Config.Route; RouteAuto: chosen per frame by its coded size).
// src stays locked until Submit, whose submission waits on and signals its semaphore (Locked).
// release, if not nil, runs once the GPU is done with src's image (the slot's fence), or at once
// on failure. It returns the route taken and why, which the plan records.
func (f *Frame) LoadForeign(src Foreign, release func()) (Route, string, error) {
	s, pic := f.s, f.Picture
	route := pic.cfg.Route
	if route != RouteInPlace && route != RouteCopy {
		route = RouteAuto // download and none: a foreign frame came anyway
	}
	lk, err := LockForeign(src, s.Dev.QueueFamily)
	if err != nil {
		if release != nil {
			release()
		}
		return route, "", err
	}
	fail := func(err error) (Route, string, error) {
		lk.Unlock()
		if release != nil {
			release()
		}
		return route, "", fmt.Errorf("stream: foreign frame: %w", err)
	}
	st := lk.State
	c := pic.cfg
	reason := c.routeAsked()
	padded := c.paddedIn(st.Image)
	// early: with the compute conversion and one path, the conversion is the frame's only read of
	// the image and can go in a batch of its own (below), unless the stream keeps a frame in one
	// batch (Options.OneBatch).
	early := !s.oneBatch && f.compute != nil && len(pic.paths) == 1
	switch {
	case st.External:
		// The image stays in the layout its writer released it in (Relay), which a copy reads.
		route, reason = RouteCopy, "decoded on another device of the GPU and copied to this one (a relay)"
	case route == RouteAuto:
		route, reason = autoRoute(st.Image, c.Width, c.Height, padded, early)
	}
	if route == RouteInPlace {
		if err := st.Image.InPlace(c.Format, c.Width, c.Height, pic.paths...); err != nil {
			route, reason = RouteCopy, "in place impossible: "+err.Error()
		} else if reason == "asked for" {
			reason = "the decoder's image is sampled through the conversion"
			if padded {
				reason += fmt.Sprintf(", cropped from %dx%d", st.Image.Width, st.Image.Height)
			}
		}
	}
	ff := &foreignFrame{Locked: lk}
	if route == RouteInPlace {
		fi, bindings, compute, err := f.bindForeign(st.Image)
		if err != nil {
			return fail(err)
		}
		f.Slot.Retire(func() {
			if compute != nil {
				compute.Destroy()
			}
			for _, b := range bindings {
				b.Destroy()
			}
			fi.Destroy()
		})
		cb := f.Slot.CB
		if early { // bindForeign made compute: the slot has the compute variant
			// The compute conversion into the slot's own image is then the frame's only read of the
			// decoder's image (scaling and drawing read the slot's image): the barrier here and the
			// dispatch (Convert) go in the slot's Pre command buffer, whose batch signals the frame's
			// semaphore, so the decoder, waiting on it to decode from this picture, waits for the
			// conversion alone. Without Convert (a compare mode) the semaphore is signalled at the
			// end of the frame, as the bindings are then drawn in the frame's own batch.
			if cb, err = s.Ring.Pre(f.Slot); err != nil {
				return fail(err)
			}
			ff.early = true
		}
		lk.Read(cb, vk.ImageLayoutShaderReadOnlyOptimal, vk.AccessFlags(vk.AccessShaderReadBit),
			vk.PipelineStageFlags(vk.PipelineStageFragmentShaderBit|vk.PipelineStageComputeShaderBit), false)
		f.Image, f.Bindings = fi, bindings
		if compute != nil {
			t := *f.compute
			t.compute = compute
			f.compute = &t
		}
	} else {
		cb := f.Slot.CB
		if !s.oneBatch { // the copy's batch of its own releases the image before the conversion
			if cb, err = s.Ring.Pre(f.Slot); err != nil {
				return fail(err)
			}
		}
		if err := lk.Copy(cb, !s.oneBatch, f.Image); err != nil {
			return fail(err)
		}
	}
	f.foreign, s.locked = ff, ff
	if release != nil {
		f.Slot.Retire(release)
	}
	if s.oneBatch {
		reason += "; read in the frame's own batch (one batch)"
	}
	s.plan.Route = RouteStep{route, reason}
	s.plan.Upload = planes.Loaded{Reason: "none: the picture is on the GPU already (" + route.String() + ")"}
	return route, reason, nil
}

// usageDecodeDPB is VK_IMAGE_USAGE_VIDEO_DECODE_DPB_BIT_KHR (vulkan-go predates Vulkan Video).
const usageDecodeDPB = 0x00001000

// autoRoute is RouteAuto's choice for a foreign image holding a width×height picture, and why.
// padded: the image is larger than the picture (rounded to whole chroma samples); early: the frame's
// conversion is its only read of the image and goes in a batch of its own (the compute variant, one
// path). The GPU copy where
//   - the image is padded (1920×1088 for 1080p): in place, the conversion's chroma reconstruction at
//     the picture's last row or column reads the decoder's coded padding where every other route
//     repeats the edge (H100: up to 10/255 at the edge in place, 0 through the copy);
//   - the image is also the decoder's reference picture (usage VIDEO_DECODE_DPB: the decoder's
//     output and DPB coincide, FFmpeg's reuse_dst_dpb) and not early: the decoder waits on the
//     frame's semaphore before decoding a later picture from it, and sampled in the frame's own
//     batch (the drawn conversion, a comparison) the image is held until the frame's end, while the
//     copy's batch releases it at once (H100, interleaved: the copy 15–22% faster than such an
//     in-place frame).
//
// In place otherwise: a reference picture whose conversion is early is released as soon as the
// copy would be (H100: in place and copy within 2% of each other), and any other image has nothing
// to wait for.
func autoRoute(img planes.Foreign, width, height int, padded, early bool) (Route, string) {
	switch {
	case padded:
		return RouteCopy, fmt.Sprintf("auto: the decoder's image is %dx%d for a %dx%d picture; in place, the edge's chroma would come from its coded padding", img.Width, img.Height, width, height)
	case autoCopies(img, padded, early):
		return RouteCopy, "auto: the decoder's image is also its reference picture, read until the frame's end by this conversion; the copy releases it to the decoder sooner"
	case isReference(img):
		return RouteInPlace, "auto: the decoder's image is the picture's size; its reference picture is released once the conversion, in a batch of its own, has read it"
	}
	return RouteInPlace, "auto: the decoder's image is the picture's size and not a reference picture"
}

// autoCopies is autoRoute's choice without its reason (a replayed frame's, each step): the copy
// where the image is padded, or is a reference picture read by a frame that is not early.
func autoCopies(img planes.Foreign, padded, early bool) bool {
	return padded || isReference(img) && !early
}

// isReference says img is also its decoder's reference picture (usage VIDEO_DECODE_DPB).
func isReference(img planes.Foreign) bool { return img.Usage&usageDecodeDPB != 0 }

// paddedIn says img is larger than c's picture, rounded to whole chroma samples (a decoder's
// coded size: 1920×1088 for 1080p).
func (c Config) paddedIn(img planes.Foreign) bool {
	return img.Width > roundUp(c.Width, c.Format.Log2ChromaW) || img.Height > roundUp(c.Height, c.Format.Log2ChromaH)
}

// bindForeign makes the frame's in-place image and bindings: for each path of the configuration,
// and the compute variant's dispatch into the slot's storage image.
func (f *Frame) bindForeign(img planes.Foreign) (*planes.Image, map[formats.Path]*ycbcr.Binding, *ycbcr.ComputeBinding, error) {
	s, pic := f.s, f.Picture
	c := pic.cfg
	fi, err := planes.NewForeign(s.Dev, c.Format, c.Width, c.Height, img, pic.paths...)
	if err != nil {
		return nil, nil, nil, err
	}
	bindings := map[formats.Path]*ycbcr.Binding{}
	undo := func(err error) (*planes.Image, map[formats.Path]*ycbcr.Binding, *ycbcr.ComputeBinding, error) {
		for _, b := range bindings {
			b.Destroy()
		}
		fi.Destroy()
		return nil, nil, nil, err
	}
	for _, p := range pic.paths {
		b, err := s.Conv.Bind(fi, c.Params, p)
		if err != nil {
			return undo(err)
		}
		bindings[p] = b
	}
	var compute *ycbcr.ComputeBinding
	if f.compute != nil {
		if compute, err = f.compute.bind(s, fi, c.Params, pic.plan.Path.Path); err != nil {
			return undo(err)
		}
	}
	return fi, bindings, compute, nil
}

// unlockAbandoned unlocks a foreign frame loaded into a frame that was never submitted (an error
// between Load and Submit), before the next frame.
func (s *Stream) unlockAbandoned() {
	if s.locked != nil {
		s.locked.Unlock()
		s.locked = nil
	}
}

func roundUp(v, shift int) int { return (v + (1 << shift) - 1) >> shift << shift }
