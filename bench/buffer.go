package bench

import (
	"fmt"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/gpu"
	"github.com/ycbcrkit/ycbcrkit/internal/vkx"
	"github.com/ycbcrkit/ycbcrkit/planes"
	"github.com/ycbcrkit/ycbcrkit/stream"
	"github.com/ycbcrkit/ycbcrkit/ycbcr"
)

// BufferResult is the buffer variant of the shader path (ycbcr.BufferPath): the conversion from the
// planes' bytes in storage buffers into packed RGBA8, with no image, sampler or upload.
type BufferResult struct {
	Available bool   `json:"available"`
	Reason    string `json:"reason"` // why not, when not available
	// Device is the GPU time with the planes in device-local buffers; Imported with the planes read
	// where the frame lies in host memory (planes.Importer.Import).
	Device   Stats `json:"device_ms"`
	Imported Stats `json:"imported_ms"`
	// OverFloor is Device.Median over the bandwidth floor.
	OverFloor float64 `json:"over_floor"`
	// EndToEnd imports each frame and converts it, frames in flight: nothing is copied at all.
	EndToEnd EndToEnd `json:"end_to_end"`
}

// bufferSlot is one frame in flight of the buffer loop. The loop runs on a bare stream.Ring, not on
// a stream.Stream's frames: a stream's unit is a picture (the images and bindings of a
// configuration, made when a frame takes it), and the buffer variant has no image at all (the
// planes are read where the decoder left them, the output is a buffer). Driving it through a
// Stream would make images nothing reads, or put an image-less variant into the engine the player
// and videotex run on for the bench's sake alone, which issue 24 rules out (no bench hooks in
// production packages). The ring is the stream's own submission primitive (slots, fences,
// retirement), the same one the wall's canvas and videotex's empty submissions use.
type bufferSlot struct {
	bind  *ycbcr.BufferBinding
	out   *gpu.Buffer
	frame planes.ImportedFrame
	rs    *stream.Slot
}

// measureBuffer fills res.Buffer.
func (r *runner) measureBuffer(pf *formats.PixelFormat, sz Size, frames []*formats.Frame, p ycbcr.Params, res *Result) error {
	br := &res.Buffer
	if r.bp == nil {
		bp, err := ycbcr.NewBufferPath(r.dev)
		if err != nil {
			br.Reason = err.Error()
			return nil
		}
		r.bp = bp
	}
	imp, err := planes.NewImporter(r.dev, planes.DefaultImportCapacity)
	if err != nil {
		br.Reason = "no import: " + err.Error()
		return nil
	}
	defer imp.Destroy()
	n := r.o.InFlight
	slots := make([]*bufferSlot, n)
	ring, err := stream.NewRing(r.dev, n)
	if err != nil {
		return err
	}
	defer func() {
		ring.Close() // waits for the last frames and releases their imports
		for _, s := range slots {
			if s == nil {
				continue
			}
			s.frame.Release()
			if s.bind != nil {
				s.bind.Destroy()
			}
			if s.out != nil {
				s.out.Destroy()
			}
		}
	}()
	w, h := sz.Width, sz.Height
	for i := range slots {
		s := &bufferSlot{rs: ring.Slot(i)}
		slots[i] = s
		if s.bind, err = r.bp.Bind(pf, w, h, p, false); err != nil {
			return err
		}
		if s.out, err = r.dev.NewBuffer(4*w*h, vk.BufferUsageStorageBufferBit, vk.MemoryPropertyDeviceLocalBit); err != nil {
			return err
		}
	}
	// Device-local planes: frame 0 copied into one buffer, planes one after the other.
	f := frames[0]
	total, offs := 0, [3]uint64{}
	for i, pl := range f.Planes {
		offs[i] = uint64(total)
		total += (len(pl) + 255) &^ 255
	}
	dev, err := r.dev.NewBuffer(total, vk.BufferUsageStorageBufferBit|vk.BufferUsageTransferDstBit, vk.MemoryPropertyDeviceLocalBit)
	if err != nil {
		return err
	}
	defer dev.Destroy()
	stage, err := r.dev.NewBuffer(total, vk.BufferUsageTransferSrcBit, vk.MemoryPropertyHostVisibleBit|vk.MemoryPropertyHostCoherentBit)
	if err != nil {
		return err
	}
	defer stage.Destroy()
	for i, pl := range f.Planes {
		copy(stage.Bytes()[offs[i]:], pl)
	}
	if err := r.dev.Submit(func(cb vk.CommandBuffer) {
		vkx.CmdCopyBuffer(cb, stage.Handle, dev.Handle, 0, 0, uint64(total))
	}); err != nil {
		return err
	}
	dh := vkx.BufferHandle(dev.Handle)
	var strides [3]int
	for i := range f.Planes {
		strides[i] = f.Strides[i]
	}
	for i := len(f.Planes); i < 3; i++ {
		offs[i], strides[i] = offs[0], strides[0]
	}
	s0 := slots[0]
	out0 := vkx.BufferHandle(s0.out.Handle)
	if br.Device, err = r.timeEach(func(cb vk.CommandBuffer, _ int) error {
		return s0.bind.Record(cb, [3]uint64{dh, dh, dh}, offs, strides, out0, 0, w)
	}); err != nil {
		return fmt.Errorf("buffer path: %w", err)
	}
	if err := imp.Import(f, &s0.frame); err != nil {
		br.Reason = "import: " + err.Error()
		return nil
	}
	if br.Imported, err = r.timeEach(func(cb vk.CommandBuffer, _ int) error {
		return s0.bind.Record(cb, s0.frame.Buffers, s0.frame.Offsets, s0.frame.Strides, out0, 0, w)
	}); err != nil {
		return fmt.Errorf("buffer path, imported: %w", err)
	}
	s0.frame.Release()
	br.Available = true
	br.OverFloor = ratio(br.Device.Median, res.FloorMs)
	progress(r.o, "%s %s: buffer path: %.3g ms from device memory, %.3g ms from the frame's own memory (GPU)",
		pf.Name, sz.Name, br.Device.Median, br.Imported.Median)
	if err := r.bufferEndToEnd(ring, slots, frames, imp, w, &br.EndToEnd); err != nil {
		return fmt.Errorf("buffer path, end to end: %w", err)
	}
	progress(r.o, "%s %s: buffer path: end to end %.1f fps, nothing copied", pf.Name, sz.Name, br.EndToEnd.FPS)
	return nil
}

// bufferEndToEnd is the player's loop on the buffer path: import the frame, convert, frames in
// flight. Each frame's import is released on its slot's fence.
func (r *runner) bufferEndToEnd(ring *stream.Ring, slots []*bufferSlot, frames []*formats.Frame, imp *planes.Importer, w int, e *EndToEnd) error {
	*e = EndToEnd{Path: "shader buffer", InFlight: len(slots), Upload: "none (imported, read in place)"}
	n := len(slots)
	return r.frameLoop(n, e,
		func(i int) error { return ring.Wait(slots[i%n].rs) },
		func() error {
			for _, s := range slots {
				if err := ring.Wait(s.rs); err != nil {
					return err
				}
			}
			return nil
		},
		func(i int) error {
			s := slots[i%n]
			if err := gpu.Begin(s.rs.CB); err != nil {
				return err
			}
			if err := imp.Import(frames[i%len(frames)], &s.frame); err != nil {
				return err
			}
			s.rs.Retire(s.frame.Release)
			return nil
		},
		func(i int) error {
			s := slots[i%n]
			if err := s.bind.Record(s.rs.CB, s.frame.Buffers, s.frame.Offsets, s.frame.Strides, vkx.BufferHandle(s.out.Handle), 0, w); err != nil {
				return err
			}
			return ring.Submit(s.rs, vk.NullSemaphore, vk.NullSemaphore)
		})
}
