package bench

import (
	"time"

	"github.com/ycbcrkit/ycbcrkit/stream"
)

// frameLoop runs the loop a player runs with n frames in flight: frame i first waits for what it
// reuses (wait: its slot's previous frame), then is prepared on the CPU (load) and recorded and
// submitted (submit). After 2n warm-up frames it runs at least 2n frames and at least
// Options.EndToEnd, waits for all (waitAll), and fills e's frame count, rate and per-frame CPU split.
func (r *runner) frameLoop(n int, e *EndToEnd, wait func(i int) error, waitAll func() error, load, submit func(i int) error) error {
	warm, minFrames := 2*n, 2*n
	var start time.Time
	var loaded, waited, recorded time.Duration
	i := 0
	for ; ; i++ {
		if i == warm {
			if err := waitAll(); err != nil {
				return err
			}
			start = time.Now()
			loaded, waited, recorded = 0, 0, 0
		}
		if i >= warm+minFrames && time.Since(start) >= r.o.EndToEnd {
			break
		}
		t0 := time.Now()
		if err := wait(i); err != nil {
			return err
		}
		t1 := time.Now()
		if err := load(i); err != nil {
			return err
		}
		t2 := time.Now()
		if err := submit(i); err != nil {
			return err
		}
		t3 := time.Now()
		waited, loaded, recorded = waited+t1.Sub(t0), loaded+t2.Sub(t1), recorded+t3.Sub(t2)
	}
	t0 := time.Now()
	if err := waitAll(); err != nil {
		return err
	}
	waited += time.Since(t0)
	e.Frames = i - warm
	e.Seconds = time.Since(start).Seconds()
	e.FPS = ratio(float64(e.Frames), e.Seconds)
	e.StageMs = ms(loaded) / float64(e.Frames)
	e.WaitMs = ms(waited) / float64(e.Frames)
	e.RecordMs = ms(recorded) / float64(e.Frames)
	return nil
}

// streamLoop is frameLoop on the stream's slots: wait is Begin (the next slot, once its previous
// frame is done, its recording started), which hands the frame to load and submit.
func (r *runner) streamLoop(ss *sets, e *EndToEnd, load, submit func(f *stream.Frame, i int) error) error {
	var f *stream.Frame
	return r.frameLoop(ss.len(), e,
		func(int) (err error) { f, err = ss.st.Begin(); return err },
		ss.st.Ring.Drain,
		func(i int) error { return load(f, i) },
		func(i int) error { return submit(f, i) })
}
