package wall

import (
	"fmt"
	"image"
	"image/draw"
	"sync"
	"time"

	"github.com/ycbcrkit/ycbcrkit/gpu"
)

// Split is a wall whose streams are spread over several devices (VkDevices of one GPU): a Wall per
// device (Parts), each with its share of the inputs in turn (input i on part i mod n), all laid out
// on the one layout the whole wall would have, each drawing its tiles on a canvas of its own.
//
// Why: on NVIDIA's driver (580) a decode queue runs its decodings one at a time and a device has 7:
// 16 H.264 streams decode 1.4 times as fast on three devices (a queue each) as on one, and a timed
// wall of 48 H.264 streams that drops 12 % of its pictures on one device keeps every stream at
// 59 fps on two (docs/performance.md, "Live walls"); Options.DecodeDevices gets the same decoding
// with one device drawing (a window's). A part's steps are its own: the parts run side by side (a
// goroutine each) with clocks of their own.
type Split struct {
	parts  []*Wall
	number [][]int // number[p][i]: the input number of part p's tile i
	Layout Layout  // the whole wall's
}

// OpenSplit opens the inputs over devs (one part each; a part without inputs is not made) with
// opts, as Open does on one device. OneClock needs one device: a part's clock is its own.
func OpenSplit(devs []*gpu.Device, inputs []Input, opts Options) (*Split, error) {
	if len(inputs) == 0 {
		return nil, fmt.Errorf("wall: no input")
	}
	if opts.OneClock && len(devs) > 1 {
		return nil, fmt.Errorf("wall: one clock for every stream needs one device")
	}
	n := min(len(devs), len(inputs))
	s := &Split{}
	groups := make([][]Input, n)
	s.number = make([][]int, n)
	for i, in := range inputs {
		groups[i%n] = append(groups[i%n], in)
		s.number[i%n] = append(s.number[i%n], i)
	}
	// The parts open side by side, as a part's inputs do (openInputs): a part's live feeds would
	// otherwise wait for the other parts' probes.
	s.parts = make([]*Wall, n)
	units, errs := make([]image.Point, n), make([]error, n)
	var wg sync.WaitGroup
	for p := range groups {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w, err := newWall(devs[p], opts, len(inputs))
			if err != nil {
				errs[p] = err
				return
			}
			s.parts[p] = w
			units[p], errs[p] = w.openInputs(groups[p], s.number[p])
		}()
	}
	wg.Wait()
	var unit image.Point
	for p, err := range errs {
		if err != nil {
			s.Close()
			return nil, err
		}
		unit.X, unit.Y = max(unit.X, units[p].X), max(unit.Y, units[p].Y)
	}
	// The whole wall's layout, as one Wall of every input would make it; each part's tiles keep
	// their cells on it.
	var err error
	if s.Layout, err = layoutFor(opts.Layout, len(inputs), unit); err != nil {
		s.Close()
		return nil, err
	}
	for p, w := range s.parts {
		cells := s.Layout
		cells.Cells = nil
		for _, i := range s.number[p] {
			cells.Cells = append(cells.Cells, s.Layout.unit(i))
		}
		if err := w.lay(cells); err != nil {
			s.Close()
			return nil, err
		}
	}
	return s, nil
}

// Parts are the walls, one per device used.
func (s *Split) Parts() []*Wall { return s.parts }

// Prepare prepares every part (Wall.Prepare), each waiting at most timeout.
func (s *Split) Prepare(timeout time.Duration) error {
	for _, w := range s.parts {
		if err := w.Prepare(timeout); err != nil {
			return err
		}
	}
	return nil
}

// Screenshot is the whole wall's canvas: each part's tiles from its own canvas.
func (s *Split) Screenshot() (*image.RGBA, error) {
	var out *image.RGBA
	for p, w := range s.parts {
		img, err := w.Screenshot()
		if err != nil {
			return nil, err
		}
		if out == nil {
			out = image.NewRGBA(img.Bounds())
		}
		for i := range s.number[p] {
			c := w.Layout.Cell(i)
			draw.Draw(out, c, img, c.Min, draw.Src)
		}
	}
	return out, nil
}

// Stats are the whole wall's figures: each stream's in input order, the totals over the parts, the
// run from the first part's start to the last part's end (the parts start together), and the
// process's own figures (memory, CPU, Go's scheduler) once. The steps' spreads are the part's whose
// steps' 99th percentile is the longest; GPUMemoryMB adds the parts' devices' to FFmpeg's.
func (s *Split) Stats() Stats {
	parts := make([]Stats, len(s.parts))
	for p, w := range s.parts {
		parts[p] = w.Stats()
	}
	m := parts[0]
	m.Streams, m.Frames, m.Dropped, m.LateSteps, m.Queues = 0, 0, 0, 0, 0
	m.MaxStreamDropShare, m.DisplayIdle, m.GPUMs, m.LateStepsAtS = 0, 0, 0, nil
	m.Canvas[0], m.Canvas[1] = s.Layout.Size()
	n := 0
	for _, x := range s.number {
		n += len(x)
	}
	m.PerStream = make([]StreamStats, n)
	toolkitMB, gpuFrames := 0.0, 0
	for p, st := range parts {
		for i, ss := range st.PerStream {
			m.PerStream[s.number[p][i]] = ss
		}
		m.Streams += st.Streams
		m.Frames += st.Frames
		m.Dropped += st.Dropped
		m.LateSteps += st.LateSteps
		m.LateStepsAtS = append(m.LateStepsAtS, st.LateStepsAtS...) // part after part
		m.Queues += st.Queues
		m.Seconds = max(m.Seconds, st.Seconds)
		m.MinStreamFPS = min(m.MinStreamFPS, st.MinStreamFPS)
		m.MaxStreamDropShare = max(m.MaxStreamDropShare, st.MaxStreamDropShare)
		m.DisplayIdle += st.DisplayIdle / float64(len(parts))
		m.GPUMs += st.GPUMs * float64(st.Frames)
		gpuFrames += st.Frames
		toolkitMB += st.GPUMemoryMB - st.FFmpegGPUMemoryMB
		if st.StepMs != nil && (m.StepMs == nil || st.StepMs.P99 > m.StepMs.P99) {
			m.StepMs, m.StepGapMs, m.StepPhaseMs, m.SlowStepPhaseMs, m.SlowStepThreadMs, m.AsleepMs =
				st.StepMs, st.StepGapMs, st.StepPhaseMs, st.SlowStepPhaseMs, st.SlowStepThreadMs, st.AsleepMs
		}
	}
	m.GPUMemoryMB = toolkitMB + m.FFmpegGPUMemoryMB
	if gpuFrames > 0 {
		m.GPUMs /= float64(gpuFrames)
	}
	m.FPS, m.DroppedShare, m.CPUMs = 0, 0, 0
	if m.Seconds > 0 {
		m.FPS = float64(m.Frames) / m.Seconds
	}
	if m.Frames+m.Dropped > 0 {
		m.DroppedShare = float64(m.Dropped) / float64(m.Frames+m.Dropped)
	}
	if m.Frames > 0 {
		m.CPUMs = m.CPUSeconds * 1000 / float64(m.Frames)
	}
	return m
}

// Close closes every part.
func (s *Split) Close() {
	for _, w := range s.parts {
		if w != nil { // a part not made (OpenSplit's error)
			w.Close()
		}
	}
}
