package wall

import "time"

// phase is a part of a timed step, timed on the wall clock so that a step's time off the CPU (a
// lock, a driver call that blocks) shows in the part that waited.
type phase int

const (
	phaseCollect phase = iota // the streams' finished submissions given back (Ring.Collect)
	phasePoll                 // the decoded pictures taken from the queues
	phaseLoad                 // a picture loaded: FFmpeg's frame locked, its copy recorded
	phaseRecord               // the rest of a tile: configure, begin, convert, place, gather
	phaseFlush                // the step's one submission
	nPhases
)

var phaseNames = [nPhases]string{"collect", "poll", "load", "record", "flush"}

// phases keeps each timed step's time per phase.
type phases struct {
	cur  [nPhases]time.Duration
	mark time.Time
	all  [nPhases][]time.Duration
}

// start begins a step's timing.
func (p *phases) start() {
	p.cur = [nPhases]time.Duration{}
	p.mark = time.Now()
}

// lap ends the time spent in ph since the last lap (or start).
func (p *phases) lap(ph phase) {
	now := time.Now()
	p.cur[ph] += now.Sub(p.mark)
	p.mark = now
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
