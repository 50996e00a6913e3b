package wall

// The display steps: untimed (Step) and timed (Tick), and what they take from the streams' pumps.

import (
	"errors"
	"fmt"
	"io"
	"time"
	"unsafe"

	"github.com/ycbcrkit/ycbcrkit/decode"
	"github.com/ycbcrkit/ycbcrkit/pump"
)

// Step draws, untimed, the next picture of every stream that has one decoded and a free slot; when
// none has, it waits for one. It returns how many tiles it drew (0 once every stream has ended).
func (w *Wall) Step() (int, error) {
	w.loop.start()
	n, err := w.step()
	err = w.flushed(err)
	w.loop.lap(loopFlush)
	w.noteSignals(time.Now())
	w.loop.markThread(n == 0 || err != nil)
	w.loop.lap(loopOther)
	return n, err
}

// flushed flushes the gathered frames whatever happened (a hardware decoder may wait on a frame's
// semaphore that only their submission signals) and returns err, or the flush's error.
func (w *Wall) flushed(err error) error {
	if ferr := w.flush(); err == nil {
		err = ferr
	}
	return err
}

func (w *Wall) step() (int, error) {
	w.begin()
	w.loop.lap(loopOther)
	for {
		w.collect()
		w.loop.lap(loopCollect)
		n := 0
		for _, t := range w.tiles {
			if t.ended || !t.st.Ring.Ready() { // a busy stream waits its turn, the others go on
				continue
			}
			if t.next == nil {
				if _, err := w.poll(t); err != nil {
					return n, err
				}
				w.loop.lap(loopPoll)
			}
			f := t.next
			if f == nil {
				continue
			}
			// Not yet, when the decoder holds the picture's lock or its next decoding uses it as a
			// reference and has not finished (tile.hold): the stream waits its turn.
			src, ok, err := t.hold(f)
			w.loop.lap(loopHold)
			if err != nil {
				t.ended, t.err = true, err
				return n, fmt.Errorf("wall: %s: %w", t.in.Label, err)
			} else if !ok {
				continue
			}
			t.next = nil
			if err := w.draw(t, f, src); err != nil {
				return n, err
			}
			w.loop.lap(loopDraw)
			n++
		}
		if err := w.flush(); err != nil { // before waiting: a decoder may wait for these frames
			return n, err
		}
		w.loop.lap(loopFlush)
		if n > 0 || w.Ended() {
			return n, nil
		}
		w.wait()
		w.loop.lap(loopWait)
	}
}

// collect gives back what the streams' finished submissions held: above all the decoders' pictures,
// which a decoder may need before it can decode the next one (a stream with nothing new to draw
// would otherwise keep its last pictures until its next Begin).
func (w *Wall) collect() {
	if w.gather != nil {
		w.gather.Poll() // each flush's fence asked once for all its slots
	}
	for _, t := range w.tiles {
		t.st.Ring.Collect()
	}
}

// wait waits for a decoded picture, or briefly, for a slot to come free or a submission to finish.
func (w *Wall) wait() {
	if w.timer == nil {
		w.timer = time.NewTimer(pollInterval)
	} else {
		w.timer.Reset(pollInterval)
	}
	t := time.Now()
	select {
	case <-w.wake:
	case <-w.timer.C:
	}
	w.idle += time.Since(t)
}

// timerEvery: each stream's GPU time is measured on one picture in timerEvery, so that a step reads
// back one stream's timestamps in timerEvery, not every stream's (gpu.GPUTimer.Every).
const timerEvery = 8

// pollInterval is how often a waiting Step looks at the streams' fences: a fence cannot be waited on
// together with a channel.
const pollInterval = 200 * time.Microsecond

// Tick draws, timed, the newest picture each stream's clock has reached at now (within half of
// Options.Period: the step's picture) and returns how many tiles it drew; pictures passed over are
// dropped, each counted with its reason. It does not wait: a stream whose pictures are not decoded
// yet, or whose slots are all still on the GPU, is passed over this step without holding up the
// others. The step's frames go to the device's queue in one submission (Options.SubmitEach). While
// paused (SetPaused) it draws nothing.
func (w *Wall) Tick(now time.Time) (int, error) {
	t0 := time.Now()
	if !w.prevTick.IsZero() && !w.clock.paused {
		w.stepGap = append(w.stepGap, w.clock.at(now).Sub(w.prevTick))
	}
	if w.opts.SampleWaits && w.waits == nil {
		h := map[string]uintptr{"VkDevice": uintptr(unsafe.Pointer(w.dev.Device))}
		for i, q := range w.dev.Queues {
			h[fmt.Sprintf("VkQueue%d", i)] = uintptr(unsafe.Pointer(q))
		}
		w.waits = startWaitSampler(&w.phases, h)
	}
	w.phases.start()
	w.threads.start()
	if w.waits != nil {
		w.waits.inStep.Store(true)
		defer w.waits.inStep.Store(false)
	}
	n, err := w.tick(now)
	w.phases.lap(phaseRecord, phaseFlush)
	err = w.flushed(err)
	w.phases.lap(phaseFlush, phaseRecord)
	w.phases.end()
	w.threads.end()
	w.stepDur = append(w.stepDur, time.Since(t0))
	w.noteSignals(now)
	return n, err
}

func (w *Wall) tick(now time.Time) (int, error) {
	w.begin()
	w.collect()
	w.phases.lap(phaseCollect, phaseRecord)
	if w.clock.paused {
		return 0, nil
	}
	now = w.clock.at(now)
	ahead := w.opts.Period / 2
	due := now.Add(ahead)
	prev := w.prevTick
	w.prevTick = now
	w.grid.step(now, prev, w.opts.Period)
	n := 0
	for _, t := range w.tiles {
		if t.ended {
			continue
		}
		if !t.st.Ring.Ready() { // its GPU work is behind: the others go on
			t.skipped = w.steps
			continue
		}
		var show *decode.Frame
		origin, pts0, started := t.origin, t.pts0, false // started: show begins a play, its clock at origin
		for !t.ended {
			if t.next == nil {
				w.phases.lap(phaseRecord, phasePoll)
				ok, err := w.poll(t)
				w.phases.lap(phasePoll, phaseRecord)
				if err != nil {
					return n, err
				}
				if ok {
					continue
				}
				break
			}
			if t.shown > 0 || show != nil { // the clock runs from the stream's first picture
				if show != nil && (t.next.PTS < show.PTS || t.nextStart) {
					break // a new play begins: its first picture once the last one's has been shown
				}
				if t.next.PTS-pts0 > due.Sub(origin).Seconds() {
					break
				}
			}
			if show != nil {
				w.drop(t, show, origin.Add(time.Duration((show.PTS-pts0)*float64(time.Second))), prev, ahead)
			}
			show, t.next = t.next, nil
			if !started && (t.shown == 0 || show.PTS < t.lastPTS || t.nextStart) { // show begins a play, at this step
				if t.shown > 0 {
					t.plays++
					t.playGaps += max(0, now.Sub(t.shownAt)-w.opts.Period)
				}
				origin, pts0, started = w.clock.origin(t, now, w.opts.OneClock), show.PTS, true
			}
		}
		if show != nil {
			// Waits for the picture's lock: a timed step passing over one its decoder holds drops it
			// at the content's rate (row trylock: 64 HEVC 1.18, 1.37, 0.84 % dropped against 0.89,
			// 0.74, 1.06 % waiting); an untimed step passes over it (tile.hold).
			at, first := time.Now(), t.shown == 0
			if err := w.draw(t, show, nil); err != nil {
				return n, err
			}
			t.shownAt = now
			if started { // the stream's clock (re)starts with this play
				t.origin, t.pts0 = origin, pts0
				if origin.Equal(now) {
					// From when its first picture was drawn (the first draws make pipelines, which
					// would otherwise cost a short input most of its pictures), on the steps' grid
					// (w.grid): its pictures fall due on the steps, half a period from where a
					// step's jitter moves a picture to the next, even when this step came late.
					late := time.Duration(0)
					if first {
						late = time.Since(at)
					}
					t.origin = w.grid.next(now.Add(late), w.opts.Period)
					if first && w.clock.start.Equal(now) {
						w.clock.start = t.origin
					}
				}
				if first { // its presentation time: when its clock starts
					t.firstAt = t.origin
				}
			}
			n++
		}
	}
	return n, nil
}

// flush submits the step's gathered frames.
func (w *Wall) flush() error {
	if w.gather == nil {
		return nil
	}
	if err := w.gather.Flush(); err != nil {
		return fmt.Errorf("wall: %w", err)
	}
	return nil
}

// drop releases f, due at at on the wall's clock, passed over at this step for a newer picture, and
// counts why: due only after the previous step (prev), two pictures fell due between two steps
// (late display); due by then, the stream either had no free slot at that step (late conversion)
// or did not have f decoded yet (late decode).
func (w *Wall) drop(t *tile, f *decode.Frame, at, prev time.Time, ahead time.Duration) {
	f.Release()
	t.dropped++
	switch {
	case !prev.IsZero() && at.After(prev.Add(ahead)):
		t.lateDisplay++
	case t.skipped == w.steps-1:
		t.lateConversion++
	default:
		t.lateDecode++
	}
}

func (w *Wall) begin() {
	if w.steps == 0 {
		w.start = time.Now()
	}
	w.steps++
}

// poll takes t's next queued item, if one has come (take); ok says one had.
func (w *Wall) poll(t *tile) (ok bool, err error) {
	var it pump.Item[*decode.Frame]
	if len(t.ahead) > 0 {
		it, t.ahead = t.ahead[0], t.ahead[1:]
	} else if it, ok = t.pump.Poll(); !ok {
		return false, nil
	}
	return true, w.take(t, it)
}

// take handles one item of t's queue: a picture, the end, or an error that ends the stream.
func (w *Wall) take(t *tile, it pump.Item[*decode.Frame]) error {
	switch {
	case errors.Is(it.Err, io.EOF) || errors.Is(it.Err, pump.ErrEnded):
		t.ended = true
	case it.Err != nil:
		t.ended, t.err = true, it.Err
		return fmt.Errorf("wall: %s: %w", t.in.Label, it.Err)
	default:
		t.next, t.nextStart = it.Frame, it.Start
		t.arrived = time.Now()
	}
	return nil
}
