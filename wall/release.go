package wall

import (
	"os"

	"github.com/ycbcrkit/ycbcrkit/decode"
)

// releaser frees the wall's decoded frames on a goroutine of its own, off the display steps'
// thread. Freeing a hardware frame gives its image back to FFmpeg's frames pool under the pool's
// mutex (libavutil/buffer.c, pool_release_buffer), which a decoder holds while the pool grows:
// making an image, its memory and its first layout transition, submitted and waited for
// (libavutil/hwcontext_vulkan.c, vulkan_pool_alloc), tens of milliseconds with 64 decoders on one
// device. A step that freed the frame itself waited that long (row waits38: the 64-stream wall's
// slow steps asleep in pool_release_buffer).
type releaser struct {
	frames chan *decode.Frame
	done   chan struct{}
}

// releaseBacklog is how many frames may wait to be freed before free waits: more than a step
// drops and retires at once on the largest walls.
const releaseBacklog = 4096

// startReleaser starts the wall's releaser, unless YCBCRKIT_RELEASER=0 (frames freed on the
// calling thread, as before: an A/B switch for the device rows).
func (w *Wall) startReleaser() {
	if os.Getenv("YCBCRKIT_RELEASER") == "0" {
		return
	}
	r := &releaser{frames: make(chan *decode.Frame, releaseBacklog), done: make(chan struct{})}
	go func() {
		defer close(r.done)
		for f := range r.frames {
			f.Release()
		}
	}()
	w.releaser = r
}

// free frees f, on the releaser when the wall has one.
func (w *Wall) free(f *decode.Frame) {
	if w.releaser == nil {
		f.Release()
		return
	}
	w.releaser.frames <- f
}

// release is f's release for a stream's slot (run once the GPU is done with f).
func (w *Wall) release(f *decode.Frame) func() { return func() { w.free(f) } }

// stopReleaser frees what waits and ends the releaser: after the streams' last releases, before
// the decoders and relays that the frames came from close.
func (w *Wall) stopReleaser() {
	if r := w.releaser; r != nil {
		w.releaser = nil
		close(r.frames)
		<-r.done
	}
}
