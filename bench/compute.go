package bench

import (
	"fmt"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/gpu"
	"github.com/ycbcrkit/ycbcrkit/planes"
	"github.com/ycbcrkit/ycbcrkit/ycbcr"
)

// computeSlot is one image set's storage target and compute binding.
type computeSlot struct {
	tgt  *gpu.Offscreen
	bind *ycbcr.ComputeBinding
}

// computeTargets gives each slot a storage target of its size and the path's compute binding, and
// puts the targets in GENERAL layout once (the dispatches then overwrite them). free releases them.
func (r *runner) computeTargets(slots []*slot, p ycbcr.Params, path formats.Path) (cs []computeSlot, free func(), err error) {
	free = func() {
		r.waitAll(slots) // the fast loop's last frames; timeEach's submissions are waited for already
		for _, c := range cs {
			if c.bind != nil {
				c.bind.Destroy()
			}
			if c.tgt != nil {
				c.tgt.Destroy()
			}
		}
	}
	for _, s := range slots {
		var c computeSlot
		if c.tgt, err = r.dev.NewStorageOffscreen(s.img.Width, s.img.Height); err == nil {
			c.bind, err = r.conv.BindCompute(s.img, p, path, c.tgt.View)
		}
		cs = append(cs, c)
		if err != nil {
			return cs, free, fmt.Errorf("compute: %w", err)
		}
	}
	err = r.dev.Submit(func(cb vk.CommandBuffer) {
		for _, c := range cs {
			c.tgt.BeginCompute(cb)
		}
	})
	return cs, free, err
}

// timeComputes times the path's compute variant over the same image sets as the draws: each set
// converts into its own storage image, between timestamps, after a full barrier.
func (r *runner) timeComputes(slots []*slot, p ycbcr.Params, path formats.Path) (Stats, error) {
	cs, free, err := r.computeTargets(slots, p, path)
	defer free()
	if err != nil {
		return Stats{}, err
	}
	return r.timeEach(func(cb vk.CommandBuffer, i int) error {
		c := cs[i%len(cs)]
		return c.bind.Dispatch(cb, c.tgt.Width, c.tgt.Height)
	})
}

// endToEndFast is endToEnd with the fast route: each frame's planes imported (no CPU copy, the GPU
// copies from the frame's own memory) and converted by the compute variant.
func (r *runner) endToEndFast(slots []*slot, frames []*formats.Frame, p ycbcr.Params, path formats.Path, e *EndToEnd) error {
	imp, err := planes.NewImporter(r.dev, planes.DefaultImportCapacity)
	if err != nil {
		return fmt.Errorf("import: %w", err)
	}
	defer imp.Destroy()
	if err := r.waitAll(slots); err != nil {
		return err
	}
	defer func() {
		r.waitAll(slots)
		for _, s := range slots {
			s.img.Done()
			s.img.SetImporter(nil)
		}
	}()
	for _, s := range slots {
		s.img.SetImporter(imp)
	}
	fs, free, err := r.computeTargets(slots, p, path)
	defer free()
	if err != nil {
		return err
	}
	cpuBytes := 0
	err = r.frameLoop(len(slots), e,
		func(k int) error { return r.wait(slots[k]) },
		func(k, i int) error {
			s := slots[k]
			if err := gpu.Begin(s.cb); err != nil {
				return err
			}
			l, err := s.img.Load(s.cb, frames[i%len(frames)], planes.UploadAuto)
			if i == 2*len(slots) {
				cpuBytes = 0 // counted from the first timed frame
			}
			cpuBytes += l.CPUBytes
			e.Upload = l.Upload.String()
			return err
		},
		func(k, _ int) error {
			s, f := slots[k], fs[k]
			if err := f.bind.Dispatch(s.cb, f.tgt.Width, f.tgt.Height); err != nil {
				return err
			}
			return s.ring.Submit(s.rs, vk.NullSemaphore, vk.NullSemaphore)
		})
	e.CPUBytesPerFrame = cpuBytes / max(e.Frames, 1)
	return err
}
