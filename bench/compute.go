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

// timeComputes times the path's compute variant over the same image sets as the draws: each set
// converts into its own storage image, between timestamps, after a full barrier.
func (r *runner) timeComputes(slots []*slot, p ycbcr.Params, path ycbcr.Path) (Stats, error) {
	type cslot struct {
		tgt  *present.Offscreen
		bind *ycbcr.ComputeBinding
	}
	var cs []cslot
	defer func() {
		vk.DeviceWaitIdle(r.dev.Device)
		for _, c := range cs {
			if c.bind != nil {
				c.bind.Destroy()
			}
			if c.tgt != nil {
				c.tgt.Destroy()
			}
		}
	}()
	for _, s := range slots {
		tgt, err := r.dev.NewStorageOffscreen(s.img.Width, s.img.Height)
		if err != nil {
			return Stats{}, err
		}
		c := cslot{tgt: tgt}
		cs = append(cs, c)
		if path == ycbcr.PathShader {
			c.bind, err = r.conv.Shader.BindCompute(s.img, p, tgt.View)
		} else {
			var k ycbcr.Key
			if k, err = ycbcr.SamplerKey(r.dev, s.img.Format, p); err == nil {
				var cv *ycbcr.Conversion
				if cv, err = r.conv.Cache.Get(k); err == nil {
					c.bind, err = cv.BindCompute(s.img, tgt.View)
				}
			}
		}
		cs[len(cs)-1] = c
		if err != nil {
			return Stats{}, fmt.Errorf("compute: %w", err)
		}
	}
	// The storage images go to GENERAL once; the dispatches then overwrite them.
	if err := r.dev.Submit(func(cb vk.CommandBuffer) {
		for _, c := range cs {
			c.tgt.BeginCompute(cb)
		}
	}); err != nil {
		return Stats{}, err
	}
	var dispatchErr error
	record := func(cb vk.CommandBuffer, q *queries, count int) {
		if q != nil {
			q.reset(cb, 0, count)
		}
		for i := 0; i < count; i++ {
			c := cs[i%len(cs)]
			if q != nil {
				q.start(cb, i)
			} else {
				serialize(cb)
			}
			if err := c.bind.Dispatch(cb, c.tgt.Width, c.tgt.Height); err != nil && dispatchErr == nil {
				dispatchErr = err
			}
			if q != nil {
				q.stop(cb, i)
			}
		}
	}
	if err := r.dev.Submit(func(cb vk.CommandBuffer) { record(cb, nil, r.o.Warmup) }); err != nil {
		return Stats{}, err
	}
	q, err := newQueries(r.dev, r.o.Frames)
	if err != nil {
		return Stats{}, err
	}
	defer q.destroy()
	if err := r.dev.Submit(func(cb vk.CommandBuffer) { record(cb, q, r.o.Frames) }); err != nil {
		return Stats{}, err
	}
	if dispatchErr != nil {
		return Stats{}, dispatchErr
	}
	iv, err := q.intervals(0, r.o.Frames)
	if err != nil {
		return Stats{}, err
	}
	return summarize(iv), nil
}

// endToEndFast is endToEnd with the fast route: each frame's planes imported (no CPU copy, the GPU
// copies from the frame's own memory) and converted by the compute variant.
func (r *runner) endToEndFast(slots []*slot, frames []*formats.Frame, p ycbcr.Params, path ycbcr.Path, e *EndToEnd) error {
	imp, err := planes.NewImporter(r.dev, planes.DefaultImportCapacity)
	if err != nil {
		return fmt.Errorf("import: %w", err)
	}
	defer imp.Destroy()
	type fslot struct {
		tgt  *present.Offscreen
		bind *ycbcr.ComputeBinding
	}
	fs := make([]fslot, len(slots))
	defer func() {
		vk.DeviceWaitIdle(r.dev.Device)
		for _, s := range slots {
			s.img.Done()
			s.img.SetImporter(nil)
		}
		for _, f := range fs {
			if f.bind != nil {
				f.bind.Destroy()
			}
			if f.tgt != nil {
				f.tgt.Destroy()
			}
		}
	}()
	for i, s := range slots {
		if err := r.wait(s); err != nil {
			return err
		}
		s.img.SetImporter(imp)
		if fs[i].tgt, err = r.dev.NewStorageOffscreen(s.img.Width, s.img.Height); err != nil {
			return err
		}
		if path == ycbcr.PathShader {
			fs[i].bind, err = r.conv.Shader.BindCompute(s.img, p, fs[i].tgt.View)
		} else {
			var k ycbcr.Key
			if k, err = ycbcr.SamplerKey(r.dev, s.img.Format, p); err == nil {
				var cv *ycbcr.Conversion
				if cv, err = r.conv.Cache.Get(k); err == nil {
					fs[i].bind, err = cv.BindCompute(s.img, fs[i].tgt.View)
				}
			}
		}
		if err != nil {
			return err
		}
	}
	if err := r.dev.Submit(func(cb vk.CommandBuffer) {
		for _, f := range fs {
			f.tgt.BeginCompute(cb)
		}
	}); err != nil {
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
