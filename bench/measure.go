package bench

import (
	"errors"
	"fmt"
	"sync"
	"time"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/gpu"
	"github.com/ycbcrkit/ycbcrkit/planes"
	"github.com/ycbcrkit/ycbcrkit/stream"
	"github.com/ycbcrkit/ycbcrkit/testvectors/synth"
	"github.com/ycbcrkit/ycbcrkit/ycbcr"
)

// The conversion measured: BT.709 limited range, the usual HD stream. The siting is the first of
// sitings the device's sampler offers for the format, so that both paths do the same work.
const (
	benchMatrix = formats.MatrixBT709
	benchRange  = formats.RangeLimited
)

var sitings = []formats.ChromaLocation{formats.ChromaTopLeft, formats.ChromaCenter}

// Result is one format × size.
type Result struct {
	Format string `json:"format"`
	Size   string `json:"size"`
	Width  int    `json:"width"`
	Height int    `json:"height"`
	Siting string `json:"siting"`
	// FrameBytes is the bytes of the frame's planes: what the conversion reads and the upload copies.
	FrameBytes int64 `json:"frame_bytes"`
	// StagedBytes is what planes.Image.Stage writes per frame on the end-to-end path (twice FrameBytes
	// for LSB-aligned layouts when the CPU shifts them for the sampler path, FrameBytes when the GPU
	// does).
	StagedBytes int64 `json:"staged_bytes"`
	// TargetBytes is the RGBA8 target the conversion writes.
	TargetBytes int64 `json:"target_bytes"`
	// FloorMs is (FrameBytes + TargetBytes) at the measured device-copy bandwidth: no conversion
	// that reads each plane byte once and writes each target byte once can take less.
	FloorMs float64    `json:"floor_ms"`
	Sampler PathResult `json:"sampler"`
	Shader  PathResult `json:"shader"`
	// SamplerOverShader is the sampler path's median draw time over the shader path's (0: n/a).
	SamplerOverShader float64 `json:"sampler_over_shader"`
	// PathsMaxDiff is the largest difference between the two paths' outputs for the same frame, in
	// 8-bit steps (-1 when only one path ran): a check that both timed the same conversion.
	PathsMaxDiff int      `json:"paths_max_diff"`
	EndToEnd     EndToEnd `json:"end_to_end"`
	// EndToEndFast: import upload (no CPU copy) and the compute variant of the same path.
	EndToEndFast EndToEnd `json:"end_to_end_import_compute"`
	// Buffer is the buffer variant of the shader path: no image, no upload (bench/buffer.go).
	Buffer  BufferResult `json:"buffer"`
	Skipped string       `json:"skipped"` // why nothing was measured, if so
	Seconds float64      `json:"seconds"` // wall time this format × size took, set-up included
}

// PathResult is one conversion path for one format × size.
type PathResult struct {
	Available bool   `json:"available"`
	Reason    string `json:"reason"` // why not, when not available
	Key       string `json:"key"`    // the sampler path's conversion
	// Rotation is how many sets of images and targets the timed frames cycle through.
	Rotation int `json:"rotation"`
	// Draw is the GPU time of the conversion draw alone (render pass begin to end).
	Draw Stats `json:"draw_ms"`
	// OverFloor is Draw.Median / FloorMs: how many times the bandwidth floor the draw takes.
	OverFloor float64 `json:"over_floor"`
	// DrawGBps is FrameBytes + TargetBytes over Draw.Median: the memory traffic the draw implies.
	DrawGBps float64 `json:"draw_gbps"`
	// Compute is the GPU time of the compute variant (a dispatch writing a storage image) and
	// ComputeOverFloor its ratio to the bandwidth floor.
	Compute          Stats   `json:"compute_ms"`
	ComputeOverFloor float64 `json:"compute_over_floor"`
	Upload           Upload  `json:"upload"`
}

// Upload is the copy path's cost per frame: the CPU copy into the staging buffer, then the GPU's
// buffer→image copies into this path's images.
type Upload struct {
	Bytes     int64   `json:"bytes"` // copied by the GPU per frame
	StageCPU  Stats   `json:"stage_cpu_ms"`
	StageGBps float64 `json:"stage_gbps"` // StagedBytes / StageCPU.Median
	// StageOverMemcpy is StageGBps over the memcpy-to-staging reference.
	StageOverMemcpy float64 `json:"stage_over_memcpy"`
	CopyGPU         Stats   `json:"copy_gpu_ms"`
	CopyGBps        float64 `json:"copy_gbps"` // Bytes / CopyGPU.Median
	// CopyOverHostToDevice is CopyGBps over the host→device reference.
	CopyOverHostToDevice float64 `json:"copy_over_host_to_device"`
}

// EndToEnd is the offscreen loop a player runs: stage, upload and convert, InFlight frames in flight.
type EndToEnd struct {
	Path     string  `json:"path"`
	InFlight int     `json:"in_flight"`
	Frames   int     `json:"frames"`
	Seconds  float64 `json:"seconds"`
	FPS      float64 `json:"fps"`
	// Where the CPU spent each frame, on average: staging, waiting for the slot's previous frame
	// (GPU-bound when this dominates), and recording plus submitting.
	StageMs  float64 `json:"stage_ms"`
	WaitMs   float64 `json:"wait_ms"`
	RecordMs float64 `json:"record_ms"`
	// Upload and CPUBytesPerFrame: how the planes went up (the fast loop imports where it can).
	Upload           string `json:"upload,omitempty"`
	CPUBytesPerFrame int    `json:"cpu_bytes_per_frame"`
}

type runner struct {
	dev  *gpu.Device
	conv *ycbcr.Converter
	bp   *ycbcr.BufferPath // made by the first measureBuffer
	o    *Options
	ref  *Reference
	rp   vk.RenderPass
}

func (r *runner) destroy() {
	if r.bp != nil {
		r.bp.Destroy() // its last users, the buffer loop's slots, were waited for when it ended
	}
	if r.rp != vk.NullRenderPass {
		vk.DestroyRenderPass(r.dev.Device, r.rp, nil)
	}
}

// choose picks the parameters: the first siting the sampler path can express, or the first siting
// and the reason the sampler cannot when none can.
func (r *runner) choose(pf *formats.PixelFormat) (ycbcr.Params, *ycbcr.Key, error) {
	var firstErr error
	for _, loc := range sitings {
		p := ycbcr.Params{Matrix: benchMatrix, Range: benchRange, ChromaLocation: loc}
		k, err := ycbcr.SamplerKey(r.dev, pf, p)
		if err == nil {
			return p, &k, nil
		}
		switch {
		case firstErr == nil:
			firstErr = err
		case err.Error() != firstErr.Error(): // 4:4:4 fails the same way at every siting
			firstErr = fmt.Errorf("%w; %s siting: %v", firstErr, loc, err)
		}
	}
	return ycbcr.Params{Matrix: benchMatrix, Range: benchRange, ChromaLocation: sitings[0]}, nil, firstErr
}

// makeFrames makes the distinct frames, in parallel: synth is per-sample Go code, and at 4320p one
// frame takes one to three seconds on one core.
func makeFrames(pf *formats.PixelFormat, w, h, n int) ([]*formats.Frame, error) {
	frames := make([]*formats.Frame, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range frames {
		wg.Add(1)
		go func() {
			defer wg.Done()
			frames[i], errs[i] = synth.Moving(pf, w, h, 7*i) // 7: the bands and sweep move visibly
		}()
	}
	wg.Wait()
	return frames, errors.Join(errs...)
}

func (r *runner) measure(pf *formats.PixelFormat, sz Size) (res Result, err error) {
	start := time.Now()
	defer func() { res.Seconds = time.Since(start).Seconds() }()
	w, h := sz.Width, sz.Height
	res = Result{Format: pf.Name, Size: sz.Name, Width: w, Height: h, PathsMaxDiff: -1,
		FrameBytes: int64(pf.FrameBytes(w, h)), TargetBytes: int64(w) * int64(h) * 4}
	res.StagedBytes = res.FrameBytes
	if pf.SamplerShift > 0 {
		res.StagedBytes *= 2
	}
	res.FloorMs = ratio(float64(res.FrameBytes+res.TargetBytes)/1e6, r.ref.DeviceCopy.GBps)
	if lim := int(r.dev.Limits.MaxImageDimension2D); w > lim || h > lim {
		res.Skipped = fmt.Sprintf("%dx%d exceeds the device's maxImageDimension2D %d", w, h, lim)
		res.Sampler.Reason, res.Shader.Reason = res.Skipped, res.Skipped
		progress(r.o, "%s %s: skipped: %s", pf.Name, sz.Name, res.Skipped)
		return res, nil
	}
	params, key, keyErr := r.choose(pf)
	res.Siting = params.ChromaLocation.String()
	progress(r.o, "%s %s: making %d frames", pf.Name, sz.Name, r.o.DistinctFrames)
	frames, err := makeFrames(pf, w, h, r.o.DistinctFrames)
	if err != nil {
		return res, fmt.Errorf("frames: %w", err)
	}

	e2ePath := formats.PathShader
	if key != nil {
		e2ePath = formats.PathSampler
	}
	var pixels [2][]byte
	for _, path := range []formats.Path{formats.PathSampler, formats.PathShader} {
		pr := &res.Shader
		if path == formats.PathSampler {
			pr = &res.Sampler
			if key == nil {
				pr.Reason = keyErr.Error()
				progress(r.o, "%s %s: sampler path n/a: %s", pf.Name, sz.Name, pr.Reason)
				continue
			}
			pr.Key = key.String()
		}
		var e2e *EndToEnd
		if path == e2ePath {
			e2e = &res.EndToEnd
		}
		if pixels[path], err = r.measurePath(pf, sz, frames, params, path, pr, e2e, &res); err != nil {
			return res, fmt.Errorf("%s path: %w", path, err)
		}
		pr.Available = true
		pr.OverFloor = ratio(pr.Draw.Median, res.FloorMs)
		pr.DrawGBps = gbps(res.FrameBytes+res.TargetBytes, pr.Draw.Median)
		pr.ComputeOverFloor = ratio(pr.Compute.Median, res.FloorMs)
	}
	if err := r.measureBuffer(pf, sz, frames, params, &res); err != nil {
		return res, err
	}
	res.SamplerOverShader = ratio(res.Sampler.Draw.Median, res.Shader.Draw.Median)
	if pixels[0] != nil && pixels[1] != nil {
		res.PathsMaxDiff = maxDiff(pixels[0], pixels[1])
	}
	return res, nil
}

// maxDiff is the largest R, G or B difference between two RGBA8 pictures.
func maxDiff(a, b []byte) int {
	m := 0
	for i := range a {
		if i%4 == 3 {
			continue
		}
		d := int(a[i]) - int(b[i])
		m = max(m, d, -d)
	}
	return m
}

// slot is one set of what a frame in flight owns: its images and staging buffer, its binding, its
// target, and its slot of the stream's ring (command buffer, fence, what to release after it).
type slot struct {
	img  *planes.Image
	bind *ycbcr.Binding
	tgt  *target
	ring *stream.Ring
	rs   *stream.Slot
	cb   vk.CommandBuffer
}

func (r *runner) newSlots(pf *formats.PixelFormat, w, h int, p ycbcr.Params, path formats.Path, n int) ([]*slot, error) {
	var slots []*slot
	ring, err := stream.NewRing(r.dev, n)
	if err != nil {
		return nil, err
	}
	for i := 0; i < n; i++ {
		s := &slot{ring: ring, rs: ring.Slot(i), cb: ring.Slot(i).CB}
		slots = append(slots, s)
		if s.img, err = planes.New(r.dev, pf, w, h, path); err != nil {
			return slots, err
		}
		if s.bind, err = r.conv.Bind(s.img, p, path); err != nil {
			return slots, err
		}
		if s.tgt, err = newTarget(r.dev, r.rp, w, h); err != nil {
			return slots, err
		}
	}
	return slots, nil
}

func (r *runner) freeSlots(slots []*slot) {
	if len(slots) > 0 {
		slots[0].ring.Close() // waits for the sets' last frames
	}
	for _, s := range slots {
		if s.bind != nil {
			s.bind.Destroy()
		}
		if s.img != nil {
			s.img.Destroy()
		}
		if s.tgt != nil {
			s.tgt.destroy()
		}
	}
}

// wait waits for a slot's last submission, if any.
func (r *runner) wait(s *slot) error { return s.ring.Wait(s.rs) }

func (r *runner) waitAll(slots []*slot) error {
	for _, s := range slots {
		if err := r.wait(s); err != nil {
			return err
		}
	}
	return nil
}

// convert records the conversion draw of s into its target, alone in its render pass.
func convert(cb vk.CommandBuffer, s *slot) error {
	s.tgt.begin(cb)
	err := s.bind.Draw(cb, s.tgt)
	vk.CmdEndRenderPass(cb)
	return err
}

// rotation is how many slot sets the timed frames cycle through (Options.RotationBytes).
func (r *runner) rotation(perSet int64) int {
	n := r.o.InFlight
	if r.o.RotationBytes > 0 && perSet > 0 {
		n = max(n, int((r.o.RotationBytes+perSet-1)/perSet))
	}
	return min(max(n, 2), max(maxRotation, r.o.InFlight))
}

// measurePath times one path: uploads, then conversion draws, then (when e2e is not nil) the
// end-to-end loop; it returns the path's output for frames[0] to compare the paths with.
func (r *runner) measurePath(pf *formats.PixelFormat, sz Size, frames []*formats.Frame, p ycbcr.Params,
	path formats.Path, pr *PathResult, e2e *EndToEnd, res *Result) ([]byte, error) {
	fast := &res.EndToEndFast
	w, h := sz.Width, sz.Height
	// Staging buffer, images and target per set.
	n := r.rotation(res.StagedBytes + res.FrameBytes + res.TargetBytes)
	pr.Rotation = n
	progress(r.o, "%s %s: %s path: %d image sets", pf.Name, sz.Name, path, n)
	slots, err := r.newSlots(pf, w, h, p, path, n)
	defer r.freeSlots(slots)
	if err != nil {
		return nil, err
	}
	if err := r.timeUploads(slots, frames, pr, res); err != nil {
		return nil, fmt.Errorf("upload: %w", err)
	}
	progress(r.o, "%s %s: %s path: stage %.3g ms (CPU), copy %.3g ms (GPU, %.1f GB/s)", pf.Name, sz.Name, path,
		pr.Upload.StageCPU.Median, pr.Upload.CopyGPU.Median, pr.Upload.CopyGBps)
	if pr.Draw, err = r.timeDraws(slots); err != nil {
		return nil, fmt.Errorf("conversion: %w", err)
	}
	progress(r.o, "%s %s: %s path: conversion %.3g ms [%.3g–%.3g] (GPU)", pf.Name, sz.Name, path,
		pr.Draw.Median, pr.Draw.P10, pr.Draw.P90)
	if pr.Compute, err = r.timeComputes(slots, p, path); err != nil {
		return nil, fmt.Errorf("compute conversion: %w", err)
	}
	progress(r.o, "%s %s: %s path: compute conversion %.3g ms [%.3g–%.3g] (GPU)", pf.Name, sz.Name, path,
		pr.Compute.Median, pr.Compute.P10, pr.Compute.P90)
	pixels, err := r.readback(slots[0], frames[0])
	if err != nil {
		return nil, fmt.Errorf("read-back: %w", err)
	}
	if e2e != nil {
		*e2e = EndToEnd{Path: path.String(), InFlight: r.o.InFlight}
		if err := r.endToEnd(slots[:r.o.InFlight], frames, e2e); err != nil {
			return nil, fmt.Errorf("end to end: %w", err)
		}
		progress(r.o, "%s %s: %s path: end to end %.1f fps (%d frames, %d in flight)", pf.Name, sz.Name, path,
			e2e.FPS, e2e.Frames, e2e.InFlight)
		*fast = EndToEnd{Path: path.String() + " compute", InFlight: r.o.InFlight}
		if err := r.endToEndFast(slots[:r.o.InFlight], frames, p, path, fast); err != nil {
			return nil, fmt.Errorf("end to end (import, compute): %w", err)
		}
		progress(r.o, "%s %s: %s path: end to end with %s upload and compute %.1f fps (%d CPU bytes per frame)", pf.Name, sz.Name, path,
			fast.Upload, fast.FPS, fast.CPUBytesPerFrame)
	}
	return pixels, nil
}

// timeUploads stages and uploads frames slot after slot, as a player does, and times both halves:
// Stage on the CPU clock, RecordUpload between timestamps. Every set is uploaded at least once, so
// the draws that follow read real pictures.
func (r *runner) timeUploads(slots []*slot, frames []*formats.Frame, pr *PathResult, res *Result) error {
	q, err := newQueries(r.dev, len(slots))
	if err != nil {
		return err
	}
	defer q.destroy()
	timed := make([]bool, len(slots))
	var cpu, gpuMs []float64
	collect := func(k int) error {
		if !timed[k] {
			return nil
		}
		timed[k] = false
		iv, err := q.intervals(k, 1)
		gpuMs = append(gpuMs, iv...)
		return err
	}
	// Warm-up covers every set once: the first write into a fresh staging buffer may fault its pages
	// in, which is set-up, not a frame's cost.
	total := max(r.o.Warmup, len(slots)) + r.o.Frames
	for i := 0; i < total; i++ {
		k := i % len(slots)
		s := slots[k]
		if err := r.wait(s); err != nil {
			return err
		}
		if err := collect(k); err != nil {
			return err
		}
		t0 := time.Now()
		if err := s.img.Stage(frames[i%len(frames)]); err != nil {
			return err
		}
		stage := time.Since(t0)
		if err := gpu.Begin(s.cb); err != nil {
			return err
		}
		q.reset(s.cb, k, 1)
		q.start(s.cb, k)
		s.img.RecordUpload(s.cb)
		q.stop(s.cb, k)
		if err := s.ring.Submit(s.rs, vk.NullSemaphore, vk.NullSemaphore); err != nil {
			return err
		}
		if i >= total-r.o.Frames {
			cpu = append(cpu, ms(stage))
			timed[k] = true
		}
	}
	if err := r.waitAll(slots); err != nil {
		return err
	}
	for k := range slots {
		if err := collect(k); err != nil {
			return err
		}
	}
	u := &pr.Upload
	u.Bytes = res.FrameBytes
	u.StageCPU, u.CopyGPU = summarize(cpu), summarize(gpuMs)
	staged := int64(slots[0].img.StagedBytes())
	if pr == &res.Sampler || !res.Sampler.Available {
		res.StagedBytes = staged
	}
	u.StageGBps = gbps(staged, u.StageCPU.Median)
	u.StageOverMemcpy = ratio(u.StageGBps, r.ref.MemcpyToStaging.GBps)
	u.CopyGBps = gbps(u.Bytes, u.CopyGPU.Median)
	u.CopyOverHostToDevice = ratio(u.CopyGBps, r.ref.HostToDevice.GBps)
	return nil
}

// timeDraws times conversion draws alone: the planes are already on the GPU, each draw is fenced
// off from the one before by a full barrier, and the sets rotate so each draw reads other planes
// and writes another target than the last.
func (r *runner) timeDraws(slots []*slot) (Stats, error) {
	return r.timeEach(func(cb vk.CommandBuffer, i int) error { return convert(cb, slots[i%len(slots)]) })
}

// timeEach records work(i) for Warmup untimed rounds, then for Frames rounds each between two
// timestamps, every round fenced off from the one before by a full barrier, and summarizes the
// intervals. The warm-up makes pipelines (at first use) and lets clocks ramp up.
func (r *runner) timeEach(work func(cb vk.CommandBuffer, i int) error) (Stats, error) {
	var workErr error
	record := func(cb vk.CommandBuffer, q *queries, count int) {
		if q != nil {
			q.reset(cb, 0, count)
		}
		for i := 0; i < count; i++ {
			if q != nil {
				q.start(cb, i)
			} else {
				serialize(cb)
			}
			if err := work(cb, i); err != nil && workErr == nil {
				workErr = err
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
	if workErr != nil {
		return Stats{}, workErr
	}
	iv, err := q.intervals(0, r.o.Frames)
	if err != nil {
		return Stats{}, err
	}
	return summarize(iv), nil
}

// readback converts f through s and returns the target's pixels.
func (r *runner) readback(s *slot, f *formats.Frame) ([]byte, error) {
	buf, err := r.dev.NewBuffer(s.tgt.w*s.tgt.h*4, vk.BufferUsageTransferDstBit,
		vk.MemoryPropertyHostVisibleBit|vk.MemoryPropertyHostCoherentBit)
	if err != nil {
		return nil, err
	}
	defer buf.Destroy()
	if err := s.img.Stage(f); err != nil {
		return nil, err
	}
	var drawErr error
	err = r.dev.Submit(func(cb vk.CommandBuffer) {
		s.img.RecordUpload(cb)
		drawErr = convert(cb, s)
		s.tgt.recordReadback(cb, buf)
	})
	if err == nil {
		err = drawErr
	}
	if err != nil {
		return nil, err
	}
	return append([]byte(nil), buf.Bytes()...), nil
}

// endToEnd runs the player's loop on slots: wait for the slot's previous frame, stage, record
// upload and conversion, submit; frames per second over the whole loop, after one round of
// warm-up frames per slot.
func (r *runner) endToEnd(slots []*slot, frames []*formats.Frame, e *EndToEnd) error {
	return r.frameLoop(len(slots), e,
		func(k int) error { return r.wait(slots[k]) },
		func(k, i int) error { return slots[k].img.Stage(frames[i%len(frames)]) },
		func(k, _ int) error {
			s := slots[k]
			if err := gpu.Begin(s.cb); err != nil {
				return err
			}
			s.img.RecordUpload(s.cb)
			if err := convert(s.cb, s); err != nil {
				return err
			}
			return s.ring.Submit(s.rs, vk.NullSemaphore, vk.NullSemaphore)
		})
}
