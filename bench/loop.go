package bench

import "time"

// frameLoop runs the loop a player runs with n frames in flight: frame i goes to slot k = i mod n,
// which first waits for its previous frame (wait), then prepares frame i on the CPU (load) and
// records and submits it (submit). After 2n warm-up frames it runs at least 2n frames and at least
// Options.EndToEnd, waits for all, and fills e's frame count, rate and per-frame CPU split.
func (r *runner) frameLoop(n int, e *EndToEnd, wait func(k int) error, load, submit func(k, i int) error) error {
	waitAll := func() error {
		for k := 0; k < n; k++ {
			if err := wait(k); err != nil {
				return err
			}
		}
		return nil
	}
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
		k := i % n
		t0 := time.Now()
		if err := wait(k); err != nil {
			return err
		}
		t1 := time.Now()
		if err := load(k, i); err != nil {
			return err
		}
		t2 := time.Now()
		if err := submit(k, i); err != nil {
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
