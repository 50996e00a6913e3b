package wall

import (
	"fmt"
	"os"
	"sync/atomic"
	"syscall"
	"time"
)

// phase is a part of a timed step, timed on the wall clock so that a step's time off the CPU (a
// lock, a driver call that blocks) shows in the part that waited.
type phase int

const (
	phaseCollect phase = iota // the streams' finished submissions given back (Ring.Collect)
	phasePoll                 // the decoded pictures taken from the queues
	phaseBegin                // a tile's stream configured and its frame begun (Stream.Begin)
	phaseLock                 // FFmpeg's frame lock waited for (a decoder holds it through its submission)
	phaseLoad                 // a picture loaded: its state read under the lock, its copy recorded
	phaseConvert              // its conversion recorded (Frame.Convert)
	phasePlace                // placed in the canvas (copy, or scale and draw)
	phaseSubmit               // its command buffer ended and gathered (Frame.Submit)
	phaseRecord               // the rest: choosing the pictures, dropping, the clocks
	phaseFlush                // the step's one submission
	nPhases
)

var phaseNames = [nPhases]string{"collect", "poll", "begin", "lock", "load", "convert", "place", "submit", "record", "flush"}

// phases keeps each timed step's time per phase.
type phases struct {
	now  atomic.Int32 // the phase the step is in (waitSampler)
	cur  [nPhases]time.Duration
	mark time.Time
	all  [nPhases][]time.Duration
}

// start begins a step's timing.
func (p *phases) start() {
	p.cur = [nPhases]time.Duration{}
	p.mark = time.Now()
}

// lap ends the time spent in ph since the last lap (or start); the step is in next from then
// (what the wait sampler reads).
func (p *phases) lap(ph, next phase) {
	now := time.Now()
	p.cur[ph] += now.Sub(p.mark)
	p.mark = now
	p.now.Store(int32(next))
}

// end keeps the step's figures.
func (p *phases) end() {
	for i, d := range p.cur {
		p.all[i] = append(p.all[i], d)
	}
}

// stats are each phase's Spread, and how long each phase took in all over the steps longer than
// slow (where a late step's time went), in milliseconds.
func (p *phases) stats(dur []time.Duration, slow time.Duration) (map[string]*Spread, map[string]float64) {
	if len(p.all[0]) == 0 {
		return nil, nil
	}
	sp, in := map[string]*Spread{}, map[string]float64{}
	for i, ds := range p.all {
		sp[phaseNames[i]] = spread(ds)
		for j, d := range ds {
			if slow > 0 && j < len(dur) && dur[j] > slow {
				in[phaseNames[i]] += float64(d) / 1e6
			}
		}
	}
	return sp, in
}

// loopPart is a part of the untimed display loop (Step), its time summed over the run: where the
// loop's busy time goes when it falls behind the decoders (a 16 HEVC wall's loop idle 33 % in a
// slow run against 64-67 %, row dips46).
type loopPart int

const (
	loopCollect loopPart = iota // the streams' finished submissions given back
	loopPoll                    // the decoded pictures taken from the queues
	loopHold                    // held pictures' locks and points asked (tile.hold)
	loopDraw                    // pictures loaded, converted and placed (draw)
	loopFlush                   // the step's submission
	loopWait                    // waiting with nothing to draw (display_idle)
	loopOther                   // the step's start, the signal states
	nLoopParts
)

var loopNames = [nLoopParts]string{"collect", "poll", "hold", "draw", "flush", "wait", "other"}

// loopTimes sums the untimed loop's time per part: lap gives the time since the last lap (or
// start) to a part.
type loopTimes struct {
	mark time.Time
	sum  [nLoopParts]time.Duration
	// steps counts the steps; first and last are the loop's thread at the first step and at a
	// recent one's end (each 64th, and the last: markThread), for its time on a CPU and waiting for one.
	steps       int
	first, last schedstat
}

func (l *loopTimes) start() {
	if l.steps == 0 {
		l.first = readSchedstat()
	}
	l.steps++
	l.mark = time.Now()
}

// markThread reads the thread's schedstat at a step's end, every 64th step or when ended says so.
func (l *loopTimes) markThread(ended bool) {
	if ended || l.steps%64 == 0 {
		l.last = readSchedstat()
	}
}

// thread is the loop thread's time on a CPU and waiting on a run queue between the first step
// and the last reading (ms), and the steps; nil when not read on one thread (the loop not locked
// to one, or no /proc/thread-self/schedstat). Against the parts' sum: on_cpu falls short of
// the loop's busy time by what it slept in locks and the driver, runqueue says the CPUs were taken.
func (l *loopTimes) thread() map[string]float64 {
	run, waiting, ok := l.last.since(l.first)
	if !ok {
		return nil
	}
	return map[string]float64{"on_cpu": float64(run) / 1e6, "runqueue": float64(waiting) / 1e6, "steps": float64(l.steps)}
}

func (l *loopTimes) lap(p loopPart) {
	now := time.Now()
	l.sum[p] += now.Sub(l.mark)
	l.mark = now
}

// ms is each part's sum in milliseconds; nil before any untimed step.
func (l *loopTimes) ms() map[string]float64 {
	var all time.Duration
	for _, d := range l.sum {
		all += d
	}
	if all == 0 {
		return nil
	}
	m := map[string]float64{}
	for i, d := range l.sum {
		m[loopNames[i]] = float64(d) / 1e6
	}
	return m
}

// schedstat is the calling thread's time on the CPU and waiting on a run queue
// (/proc/thread-self/schedstat, in ns; Linux's CONFIG_SCHED_INFO), and the thread's id: a step's
// figures are the difference of two readings on one thread (the caller's loop locked to its
// thread, as ycbcrwall's is), else not kept. The zero value is a reading that failed.
type schedstat struct {
	tid          int
	run, waiting time.Duration
}

func readSchedstat() schedstat {
	tid := syscall.Gettid()
	b, err := os.ReadFile("/proc/thread-self/schedstat")
	if err != nil {
		return schedstat{}
	}
	var run, wait int64
	if _, err := fmt.Sscan(string(b), &run, &wait); err != nil {
		return schedstat{}
	}
	return schedstat{tid, time.Duration(run), time.Duration(wait)}
}

// since is the thread's time on the CPU and waiting for one from the reading a to s; ok false
// unless both readings were made, on one thread.
func (s schedstat) since(a schedstat) (run, waiting time.Duration, ok bool) {
	if s.tid == 0 || s.tid != a.tid {
		return 0, 0, false
	}
	return s.run - a.run, s.waiting - a.waiting, true
}

// threadTimes are the slow steps' time on the CPU and waiting for one, summed (ms).
type threadTimes struct {
	at       schedstat
	run, rq  []time.Duration
	measured []bool
}

func (tt *threadTimes) start() { tt.at = readSchedstat() }

func (tt *threadTimes) end() {
	run, rq, ok := readSchedstat().since(tt.at)
	tt.measured = append(tt.measured, ok)
	tt.run, tt.rq = append(tt.run, run), append(tt.rq, rq)
}

// slow sums, over the measured steps longer than slow, their time, time on the CPU and waiting for
// a CPU (the rest of their time the thread slept: a lock, a driver's wait), in ms.
func (tt *threadTimes) slow(dur []time.Duration, slow time.Duration) map[string]float64 {
	var all, run, rq time.Duration
	n := 0
	for i, d := range dur {
		if i < len(tt.measured) && tt.measured[i] && slow > 0 && d > slow {
			all, run, rq, n = all+d, run+tt.run[i], rq+tt.rq[i], n+1
		}
	}
	if n == 0 {
		return nil
	}
	ms := func(d time.Duration) float64 { return float64(d) / 1e6 }
	return map[string]float64{"steps": float64(n), "wall": ms(all), "on_cpu": ms(run), "runqueue": ms(rq), "asleep": ms(all - run - rq)}
}
