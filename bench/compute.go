package bench

import (
	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/stream"
)

// timeComputes times the path's compute variant over the same image sets as the draws: each set
// converts into its slot's storage image (stream.Frame.Convert), between timestamps, after a full
// barrier.
func (r *runner) timeComputes(ss *sets) (Stats, error) {
	return r.timeFrames(ss, (*stream.Frame).Convert)
}

// endToEndFast is endToEnd with the fast route: each frame's planes imported where the device and
// layout allow (no CPU copy, the GPU copies from the frame's own memory: the stream's upload
// choice) and converted by the compute variant.
func (r *runner) endToEndFast(ss *sets, frames []*formats.Frame, e *EndToEnd) error {
	cpuBytes := 0
	n := ss.len()
	err := r.streamLoop(ss, e,
		func(f *stream.Frame, i int) error {
			l, err := f.Load(frames[i%len(frames)], nil)
			if i == 2*n {
				cpuBytes = 0 // counted from the first timed frame
			}
			cpuBytes += l.CPUBytes
			e.Upload = l.Upload.String()
			return err
		},
		func(f *stream.Frame, _ int) error {
			if err := f.Convert(); err != nil {
				return err
			}
			return f.Submit(vk.NullSemaphore, vk.NullSemaphore)
		})
	e.CPUBytesPerFrame = cpuBytes / max(e.Frames, 1)
	return err
}
