package bench

import (
	"fmt"

	vk "github.com/vulkan-go/vulkan"

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
