package videotex

import (
	"fmt"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/internal/vkx"
	"github.com/ycbcrkit/ycbcrkit/ycbcr"
)

// DrawTarget is an engine-owned image a Frame is drawn into (Frame.DrawInto): libmpv's render
// shape, beside the texture one. The engine keeps ownership of every handle.
type DrawTarget struct {
	// Image and View (2D, one level, one layer) are the engine's, Width×Height pixels. The scale
	// pass writes it from compute (ycbcr.ScaleTarget.RecordInto): Format must be R8G8B8A8_UNORM
	// (ycbcr.CanScaleInto) and Image made with VK_IMAGE_USAGE_STORAGE_BIT, on QueueFamily.
	Image         vk.Image
	View          vk.ImageView
	Format        vk.Format
	Width, Height int
	// FinalLayout is the layout the image is left in; 0 (UNDEFINED) means SHADER_READ_ONLY_OPTIMAL.
	// Every pixel is written (the letterbox black), so the layout the image had does not matter.
	FinalLayout vk.ImageLayout
	// Wait, if set, is signalled when the engine's earlier use of the image is done: a binary
	// semaphore (WaitValue 0) or a timeline semaphore at WaitValue. The draw's writes wait on it.
	Wait      vk.Semaphore
	WaitValue uint64
	// Signal, if set, is signalled once the picture is in the image (in FinalLayout): binary
	// (SignalValue 0) or a timeline value. The engine's submission that reads the image waits on it.
	Signal      vk.Semaphore
	SignalValue uint64
	// Filter is the scale filter (zero: Lanczos, the player's default).
	Filter ycbcr.Filter
}

// DrawInto draws the frame's picture into dst as ycbcrplay draws it into its window: the
// conversion at the picture's size, then the scale pass (dst.Filter) onto the picture's display
// size fitted to dst with its aspect kept (sample aspect and orientation applied), letterboxed in
// black. It submits to the toolkit's queue (Acquire's queue rule), waiting on the frame's semaphore
// and dst.Wait and signalling dst.Signal, and gives the frame back: do not call Done, ReleaseAfter,
// Discard or SignalTimeline on it afterwards (nor before: the frame's own semaphore is consumed
// here). The picture stays the toolkit's until the draw has run. Subtitles and the on-screen
// display are not drawn.
func (f *Frame) DrawInto(dst DrawTarget) error {
	if dst.Image == vk.NullImage || dst.View == vk.NullImageView || dst.Width <= 0 || dst.Height <= 0 {
		return fmt.Errorf("videotex: draw: an image, a view and a size are needed")
	}
	if !ycbcr.CanScaleInto(dst.Format) {
		return fmt.Errorf("videotex: draw: format %d: the scale pass writes R8G8B8A8_UNORM storage images only", dst.Format)
	}
	if f.t.opts.Target.Output == ycbcr.OutputExtendedLinear {
		// The scale pass writes rgba8: linear light above 1 and below 0 would clip.
		return fmt.Errorf("videotex: draw: an extended-linear target is sampled from the frame's float16 image, not drawn into R8G8B8A8_UNORM")
	}
	final := dst.FinalLayout
	if final == vk.ImageLayoutUndefined {
		final = vk.ImageLayoutShaderReadOnlyOptimal
	}
	t := f.t
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed || t.closing {
		return ErrClosed
	}
	if f.given || f.handed {
		return fmt.Errorf("videotex: draw: frame %d was given back or handed over already", f.Index)
	}
	if !t.dev.StorageFormat(dst.Format) {
		return fmt.Errorf("videotex: draw: the device has no storage images of format %d", dst.Format)
	}
	fr, err := t.st.BeginPicture(f.p.sp)
	if err != nil {
		return fmt.Errorf("videotex: draw: %w", err)
	}
	// The player's single mode (player/modes.go, layout with zoom fit): Convert, then the scale
	// pass, into the viewport Letterbox gives for the display aspect.
	if err := fr.Convert(); err != nil {
		return fmt.Errorf("videotex: draw: %w", err)
	}
	w, h := f.Width, f.Height
	aspect := float64(w) / float64(h)
	if a := f.SampleAspect; a[0] > 0 && a[1] > 0 {
		aspect *= float64(a[0]) / float64(a[1])
	}
	if f.Orientation.Transposed() {
		aspect = 1 / aspect
	}
	x, y, vw, vh := ycbcr.Letterbox(dst.Width, dst.Height, aspect)
	v := ycbcr.Fit(w, h, vw, vh, f.Orientation, dst.Filter)
	st := ycbcr.StorageTarget{Image: dst.Image, View: dst.View, Format: dst.Format, Width: dst.Width, Height: dst.Height}
	if err := fr.ScaleAll(v, st, x, y); err != nil {
		return fmt.Errorf("videotex: draw: %w", err)
	}
	// RecordInto leaves dst in GENERAL after its compute writes: to the engine's layout, the writes
	// made visible to whatever the engine does after waiting on Signal.
	vkx.CmdBarrier(fr.Slot.CB, vk.PipelineStageComputeShaderBit, vk.PipelineStageAllCommandsBit, 0, 0,
		vkx.Transition{Image: dst.Image, From: vk.ImageLayoutGeneral, To: final,
			SrcAccess: vk.AccessShaderWriteBit, DstAccess: vk.AccessMemoryReadBit | vk.AccessMemoryWriteBit})
	stage := vk.PipelineStageFlags(vk.PipelineStageAllCommandsBit)
	waits := []vkx.SubmitSemaphore{{Semaphore: f.Wait, Stage: stage}}
	if dst.Wait != vk.NullSemaphore {
		waits = append(waits, vkx.SubmitSemaphore{Semaphore: dst.Wait, Value: dst.WaitValue, Stage: stage})
	}
	var signals []vkx.SubmitSemaphore
	if dst.Signal != vk.NullSemaphore {
		signals = append(signals, vkx.SubmitSemaphore{Semaphore: dst.Signal, Value: dst.SignalValue})
	}
	if err := fr.SubmitWith(waits, signals); err != nil {
		return fmt.Errorf("videotex: draw: %w", err)
	}
	// Given back: the picture stays busy in the stream until this submission's fence (BeginPicture),
	// and the frame's semaphore, waited on above, is free once that fence has signalled.
	f.given = true
	p, own := f.p, f.Wait
	fr.Slot.Retire(func() { t.sems = append(t.sems, own) })
	p.refs--
	t.tryFree(p)
	return nil
}
