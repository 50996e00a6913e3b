package videotex

import (
	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/decode"
)

// Hooks change where a test texture's decoder goroutine takes its pictures.
type Hooks struct {
	// BeforeNext is called before each picture is decoded: tests stall decoding with it.
	BeforeNext func()
	// HWUpload puts each software-decoded picture into one of FFmpeg's Vulkan frames
	// (decode.Uploader) before the texture takes it: the route of hardware-decoded pictures, on
	// devices that decode nothing. The device needs HWDecode.Features (timeline semaphores,
	// synchronization2).
	HWUpload bool
}

// OpenHooked is Open with h.
func OpenHooked(dev EngineDevice, url string, opts Options, h Hooks) (*Texture, error) {
	return openWith(dev, url, opts, func(t *Texture, src pictureSource) (pictureSource, error) {
		hs := &hookedSource{src: src, t: t, before: h.BeforeNext}
		if h.HWUpload {
			up, err := decode.NewUploader(t.dev)
			if err != nil {
				return nil, err
			}
			// Coded sizes in whole 16×16 macroblocks, as an H.264 decoder's frames (1920×1088 for
			// 1080p): the texture crops them.
			up.Pad = func(w, h int) (int, int) { return (w + 15) &^ 15, (h + 15) &^ 15 }
			hs.up = up
		}
		return hs, nil
	})
}

// hookedSource is the decoder's pictures with Hooks applied. The decoder goroutine calls Next
// under t.quiet.
type hookedSource struct {
	src    pictureSource
	t      *Texture
	before func()
	up     *decode.Uploader
}

func (h *hookedSource) Next() (*decode.Frame, error) {
	if h.before != nil {
		h.t.quiet.Unlock() // the hook may stall: decoding is not under way
		h.before()
		h.t.quiet.Lock()
	}
	f, err := h.src.Next()
	if err != nil || h.up == nil || f.HW != nil {
		return f, err
	}
	defer f.Release()
	hw, err := h.up.Upload(f.Picture)
	if err != nil {
		return nil, err
	}
	hw.PTS, hw.Duration, hw.Color, hw.Tagged, hw.Notes = f.PTS, f.Duration, f.Color, f.Tagged, f.Notes
	hw.SampleAspect, hw.Orient, hw.KeyFrame = f.SampleAspect, f.Orient, f.KeyFrame
	return hw, nil
}

// Close closes the uploader, once the texture has released its frames.
func (h *hookedSource) Close() error {
	if h.up != nil {
		h.up.Close()
	}
	return nil
}

// QueueLocks is the package's decision of who locks the engine's queues.
type QueueLocks = queueLocks

// QueueLocksOf is queueLocksOf.
func QueueLocksOf(ed EngineDevice) QueueLocks { return queueLocksOf(ed) }

// ClaimInternallySynchronized makes the package take every device for one that offers
// VK_KHR_internally_synchronized_queues, until the returned function restores the check.
func ClaimInternallySynchronized() (restore func()) {
	offeredISQ = func(vk.PhysicalDevice, string) InternallySynchronized { return InternallySynchronized{Offered: true} }
	return func() { offeredISQ = internallySynchronized }
}
