package planes

import (
	"runtime"
	"sync"
)

// Stage's copy into the staging buffer runs on several cores for large frames: one core writes
// host-visible (often write-combined) memory at a fraction of what the memory system takes — 6–8.6
// GB/s on the H200 machine's host, where a plain GPU copy of a 2160p frame runs at 14.5 GB/s
// (docs/performance.md). Rows are split into bands, one per worker; the workers live as long as the
// image, so a frame allocates nothing.

// parallelStageBytes is the frame size from which Stage splits its copy: 2160p and up. Below it one
// core is quick enough, and parallel host writes slow the GPU's copy of the frame before, which
// reads the same host memory: measured on the H200 machine (ycbcrbench, frames in flight), splitting
// 1080p yuv420p frames cut the GPU copy from 0.81 to 0.41 of the host→device bandwidth, and 1080p
// p010le (6.2 MB) frames to 0.65.
const parallelStageBytes = 8 << 20

// maxStageWorkers bounds the workers: past a few cores the memory system is the limit.
const maxStageWorkers = 8

type stageJob struct {
	buf                                []byte
	d                                  stagedPlane
	src                                []byte
	stride, rowBytes, srcH, bpt, shift int
	y0, y1                             int
}

type stager struct {
	jobs chan stageJob
	wg   sync.WaitGroup
	n    int
}

// newStager starts the workers, or returns nil where there is one core.
func newStager() *stager {
	n := min(runtime.GOMAXPROCS(0), maxStageWorkers)
	if n < 2 {
		return nil
	}
	s := &stager{jobs: make(chan stageJob, n*maxPlanes*2), n: n}
	for i := 0; i < n; i++ {
		go func() {
			for j := range s.jobs {
				stageRows(j.buf, j.d, j.src, j.stride, j.rowBytes, j.srcH, j.bpt, j.shift, j.y0, j.y1)
				s.wg.Done()
			}
		}()
	}
	return s
}

// plane queues plane d's rows in n bands (stagePlane's work, split).
func (s *stager) plane(buf []byte, d stagedPlane, src []byte, stride, rowBytes, srcH, bpt, shift int) {
	band := (d.height + s.n - 1) / s.n
	for y0 := 0; y0 < d.height; y0 += band {
		s.wg.Add(1)
		s.jobs <- stageJob{buf, d, src, stride, rowBytes, srcH, bpt, shift, y0, min(y0+band, d.height)}
	}
}

// wait returns when every queued band is copied.
func (s *stager) wait() { s.wg.Wait() }

// stop ends the workers.
func (s *stager) stop() {
	if s != nil {
		close(s.jobs)
	}
}
