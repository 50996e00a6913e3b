package bench

import (
	"fmt"
	"time"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/planes"
	"github.com/ycbcrkit/ycbcrkit/present"
	"github.com/ycbcrkit/ycbcrkit/ycbcr"
)

// computeSlot is one image set's storage target and compute binding.
type computeSlot struct {
	tgt  *present.Offscreen
	bind *ycbcr.ComputeBinding
}

// computeTargets gives each slot a storage target of its size and the path's compute binding, and
// puts the targets in GENERAL layout once (the dispatches then overwrite them). free releases them.
func (r *runner) computeTargets(slots []*slot, p ycbcr.Params, path ycbcr.Path) (cs []computeSlot, free func(), err error) {
	free = func() {
		vk.DeviceWaitIdle(r.dev.Device)
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
func (r *runner) timeComputes(slots []*slot, p ycbcr.Params, path ycbcr.Path) (Stats, error) {
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
func (r *runner) endToEndFast(slots []*slot, frames []*formats.Frame, p ycbcr.Params, path ycbcr.Path, e *EndToEnd) error {
	imp, err := planes.NewImporter(r.dev, planes.DefaultImportCapacity)
	if err != nil {
		return fmt.Errorf("import: %w", err)
	}
	defer imp.Destroy()
	if err := r.waitAll(slots); err != nil {
		return err
	}
	defer func() {
		vk.DeviceWaitIdle(r.dev.Device)
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
	warm, minFrames := 2*len(slots), 2*len(slots)
	var start time.Time
	var load, wait, rec time.Duration
	cpuBytes := 0
	i := 0
	for ; ; i++ {
		if i == warm {
			if err := r.waitAll(slots); err != nil {
				return err
			}
			start = time.Now()
			load, wait, rec, cpuBytes = 0, 0, 0, 0
		}
		if i >= warm+minFrames && time.Since(start) >= r.o.EndToEnd {
			break
		}
		k := i % len(slots)
		s, f := slots[k], fs[k]
		t0 := time.Now()
		if err := r.wait(s); err != nil {
			return err
		}
		t1 := time.Now()
		if err := present.Begin(s.cb); err != nil {
			return err
		}
		l, err := s.img.Load(s.cb, frames[i%len(frames)], planes.UploadAuto)
		if err != nil {
			return err
		}
		cpuBytes += l.CPUBytes
		e.Upload = l.Upload.String()
		t2 := time.Now()
		if err := f.bind.Dispatch(s.cb, f.tgt.Width, f.tgt.Height); err != nil {
			return err
		}
		if err := r.dev.SubmitFrame(s.cb, vk.NullSemaphore, vk.NullSemaphore, s.fence); err != nil {
			return err
		}
		s.busy = true
		t3 := time.Now()
		wait, load, rec = wait+t1.Sub(t0), load+t2.Sub(t1), rec+t3.Sub(t2)
	}
	t0 := time.Now()
	if err := r.waitAll(slots); err != nil {
		return err
	}
	wait += time.Since(t0)
	e.Frames = i - warm
	e.Seconds = time.Since(start).Seconds()
	e.FPS = ratio(float64(e.Frames), e.Seconds)
	e.StageMs = ms(load) / float64(e.Frames)
	e.WaitMs = ms(wait) / float64(e.Frames)
	e.RecordMs = ms(rec) / float64(e.Frames)
	e.CPUBytesPerFrame = cpuBytes / max(e.Frames, 1)
	return nil
}
