package bench

import (
	"errors"
	"fmt"
	"sync"
	"time"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/gpu"
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
	dev *gpu.Device
	bp  *ycbcr.BufferPath // made by the first measureBuffer
	o   *Options
	ref *Reference
	rp  vk.RenderPass
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

// sets are the image sets the timed frames cycle through: a stream.Stream of that many slots, each
// slot with its picture's images, both conversions (the path's drawn binding and its compute
// variant) and the upload's staging buffer, and bench's own target per slot. Frames go through the
// stream as a player's do (Begin, record, Submit); what bench adds is its timestamps around the
// piece it times.
type sets struct {
	st   *stream.Stream
	path formats.Path
	tgts []*target
}

func (r *runner) newSets(pf *formats.PixelFormat, w, h int, p ycbcr.Params, path formats.Path, n int) (*sets, error) {
	st, err := stream.New(r.dev, stream.Options{Slots: n})
	if err != nil {
		return nil, err
	}
	ss := &sets{st: st, path: path}
	choice := formats.ChooseShader
	if path == formats.PathSampler {
		choice = formats.ChooseSampler
	}
	if _, err := st.Configure(stream.Config{Format: pf, Width: w, Height: h, Params: p, Choice: choice,
		Variant: stream.VariantCompute}); err != nil {
		return ss, err
	}
	if got := st.Plan().Path.Path; got != path {
		return ss, fmt.Errorf("bench: the stream chose the %s path, not %s: %s", got, path, st.Plan().Path.Reason)
	}
	for i := 0; i < n; i++ {
		t, err := newTarget(r.dev, r.rp, w, h)
		if err != nil {
			return ss, err
		}
		ss.tgts = append(ss.tgts, t)
	}
	return ss, nil
}

func (ss *sets) close() {
	ss.st.Close() // waits for the sets' last frames
	for _, t := range ss.tgts {
		t.destroy()
	}
}

func (ss *sets) len() int { return ss.st.Ring.Len() }

// draw records the conversion draw of f's picture into its slot's target, alone in its render pass.
func (ss *sets) draw(f *stream.Frame) error {
	t := ss.tgts[f.Slot.Index]
	t.begin(f.Slot.CB)
	err := f.Bindings[ss.path].Draw(f.Slot.CB, t)
	vk.CmdEndRenderPass(f.Slot.CB)
	return err
}

// timed keeps one timestamp pair per slot and collects a slot's interval once its previous frame
// is done (Begin waited for it).
type timed struct {
	q       *queries
	pending []bool
	ms      []float64
}

func newTimed(d *gpu.Device, slots int) (*timed, error) {
	q, err := newQueries(d, slots)
	if err != nil {
		return nil, err
	}
	return &timed{q: q, pending: make([]bool, slots)}, nil
}

func (t *timed) collect(k int) error {
	if !t.pending[k] {
		return nil
	}
	t.pending[k] = false
	iv, err := t.q.intervals(k, 1)
	t.ms = append(t.ms, iv...)
	return err
}

// around records work between slot k's timestamps, after a full barrier.
func (t *timed) around(cb vk.CommandBuffer, k int, work func() error) error {
	t.q.reset(cb, k, 1)
	t.q.start(cb, k)
	err := work()
	t.q.stop(cb, k)
	t.pending[k] = true
	return err
}

// finish waits for the stream's frames and collects the last intervals.
func (t *timed) finish(ss *sets) error {
	if err := ss.st.Ring.Drain(); err != nil {
		return err
	}
	for k := range t.pending {
		if err := t.collect(k); err != nil {
			return err
		}
	}
	return nil
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
	ss, err := r.newSets(pf, w, h, p, path, n)
	if ss != nil {
		defer ss.close()
	}
	if err != nil {
		return nil, err
	}
	if err := r.timeUploads(ss, frames, pr, res); err != nil {
		return nil, fmt.Errorf("upload: %w", err)
	}
	progress(r.o, "%s %s: %s path: stage %.3g ms (CPU), copy %.3g ms (GPU, %.1f GB/s)", pf.Name, sz.Name, path,
		pr.Upload.StageCPU.Median, pr.Upload.CopyGPU.Median, pr.Upload.CopyGBps)
	if pr.Draw, err = r.timeDraws(ss); err != nil {
		return nil, fmt.Errorf("conversion: %w", err)
	}
	progress(r.o, "%s %s: %s path: conversion %.3g ms [%.3g–%.3g] (GPU)", pf.Name, sz.Name, path,
		pr.Draw.Median, pr.Draw.P10, pr.Draw.P90)
	if pr.Compute, err = r.timeComputes(ss); err != nil {
		return nil, fmt.Errorf("compute conversion: %w", err)
	}
	progress(r.o, "%s %s: %s path: compute conversion %.3g ms [%.3g–%.3g] (GPU)", pf.Name, sz.Name, path,
		pr.Compute.Median, pr.Compute.P10, pr.Compute.P90)
	pixels, err := r.readback(ss, frames[0])
	if err != nil {
		return nil, fmt.Errorf("read-back: %w", err)
	}
	if e2e != nil {
		// The end-to-end loops run r.o.InFlight frames in flight: a stream of that many slots.
		if n != r.o.InFlight {
			if ss, err = r.newSets(pf, w, h, p, path, r.o.InFlight); ss != nil {
				defer ss.close()
			}
			if err != nil {
				return nil, err
			}
		}
		*e2e = EndToEnd{Path: path.String(), InFlight: r.o.InFlight}
		if err := r.endToEnd(ss, frames, e2e); err != nil {
			return nil, fmt.Errorf("end to end: %w", err)
		}
		progress(r.o, "%s %s: %s path: end to end %.1f fps (%d frames, %d in flight)", pf.Name, sz.Name, path,
			e2e.FPS, e2e.Frames, e2e.InFlight)
		*fast = EndToEnd{Path: path.String() + " compute", InFlight: r.o.InFlight}
		if err := r.endToEndFast(ss, frames, fast); err != nil {
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
func (r *runner) timeUploads(ss *sets, frames []*formats.Frame, pr *PathResult, res *Result) error {
	n := ss.len()
	t, err := newTimed(r.dev, n)
	if err != nil {
		return err
	}
	defer t.q.destroy()
	var cpu []float64
	// Warm-up covers every set once: the first write into a fresh staging buffer may fault its pages
	// in, which is set-up, not a frame's cost.
	total := max(r.o.Warmup, n) + r.o.Frames
	var staged int64
	for i := 0; i < total; i++ {
		f, err := ss.st.Begin()
		if err != nil {
			return err
		}
		k := f.Slot.Index
		if err := t.collect(k); err != nil {
			return err
		}
		t0 := time.Now()
		if err := f.Image.Stage(frames[i%len(frames)]); err != nil {
			return err
		}
		stage := time.Since(t0)
		staged = int64(f.Image.StagedBytes())
		t.around(f.Slot.CB, k, func() error { f.Image.RecordUpload(f.Slot.CB); return nil })
		if i < total-r.o.Frames {
			t.pending[k] = false // warm-up: not collected
		} else {
			cpu = append(cpu, ms(stage))
		}
		if err := f.Submit(vk.NullSemaphore, vk.NullSemaphore); err != nil {
			return err
		}
	}
	if err := t.finish(ss); err != nil {
		return err
	}
	u := &pr.Upload
	u.Bytes = res.FrameBytes
	u.StageCPU, u.CopyGPU = summarize(cpu), summarize(t.ms)
	if pr == &res.Sampler || !res.Sampler.Available {
		res.StagedBytes = staged
	}
	u.StageGBps = gbps(staged, u.StageCPU.Median)
	u.StageOverMemcpy = ratio(u.StageGBps, r.ref.MemcpyToStaging.GBps)
	u.CopyGBps = gbps(u.Bytes, u.CopyGPU.Median)
	u.CopyOverHostToDevice = ratio(u.CopyGBps, r.ref.HostToDevice.GBps)
	return nil
}

// timeDraws times conversion draws alone: the planes are already on the GPU (timeUploads), each
// draw is fenced off from the work before it by a full barrier, and the sets rotate so each draw
// reads other planes and writes another target than the last.
func (r *runner) timeDraws(ss *sets) (Stats, error) {
	return r.timeFrames(ss, ss.draw)
}

// timeFrames runs Warmup untimed frames, then Frames frames, each recording work between its
// slot's timestamps after a full barrier, and summarizes the intervals. The warm-up makes pipelines
// (at first use) and lets clocks ramp up.
func (r *runner) timeFrames(ss *sets, work func(f *stream.Frame) error) (Stats, error) {
	t, err := newTimed(r.dev, ss.len())
	if err != nil {
		return Stats{}, err
	}
	defer t.q.destroy()
	for i := 0; i < r.o.Warmup+r.o.Frames; i++ {
		f, err := ss.st.Begin()
		if err != nil {
			return Stats{}, err
		}
		k := f.Slot.Index
		if err := t.collect(k); err != nil {
			return Stats{}, err
		}
		if i < r.o.Warmup {
			serialize(f.Slot.CB)
			err = work(f)
		} else {
			err = t.around(f.Slot.CB, k, func() error { return work(f) })
		}
		if err != nil {
			f.Submit(vk.NullSemaphore, vk.NullSemaphore) // the slot's recording ends either way
			return Stats{}, err
		}
		if err := f.Submit(vk.NullSemaphore, vk.NullSemaphore); err != nil {
			return Stats{}, err
		}
	}
	if err := t.finish(ss); err != nil {
		return Stats{}, err
	}
	return summarize(t.ms), nil
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

// readback converts pic through the sets' next slot and returns its target's pixels.
func (r *runner) readback(ss *sets, pic *formats.Frame) ([]byte, error) {
	t0 := ss.tgts[0]
	buf, err := r.dev.NewBuffer(t0.w*t0.h*4, vk.BufferUsageTransferDstBit,
		vk.MemoryPropertyHostVisibleBit|vk.MemoryPropertyHostCoherentBit)
	if err != nil {
		return nil, err
	}
	defer buf.Destroy()
	f, err := ss.st.Begin()
	if err != nil {
		return nil, err
	}
	err = f.Image.Stage(pic)
	if err == nil {
		f.Image.RecordUpload(f.Slot.CB)
		if err = ss.draw(f); err == nil {
			ss.tgts[f.Slot.Index].recordReadback(f.Slot.CB, buf)
		}
	}
	if serr := f.Submit(vk.NullSemaphore, vk.NullSemaphore); err == nil {
		err = serr
	}
	if err == nil {
		err = ss.st.Ring.Wait(f.Slot)
	}
	if err != nil {
		return nil, err
	}
	return append([]byte(nil), buf.Bytes()...), nil
}

// endToEnd runs the player's loop on the stream: wait for the slot's previous frame, stage, record
// upload and conversion, submit; frames per second over the whole loop, after one round of warm-up
// frames per slot.
func (r *runner) endToEnd(ss *sets, frames []*formats.Frame, e *EndToEnd) error {
	return r.streamLoop(ss, e,
		func(f *stream.Frame, i int) error { return f.Image.Stage(frames[i%len(frames)]) },
		func(f *stream.Frame, _ int) error {
			f.Image.RecordUpload(f.Slot.CB)
			if err := ss.draw(f); err != nil {
				return err
			}
			return f.Submit(vk.NullSemaphore, vk.NullSemaphore)
		})
}
