package wall

import (
	"time"

	"github.com/ycbcrkit/ycbcrkit/decode"
)

// clock is the time timed steps play on: the caller's time less the time spent paused. Every
// stream's clock runs on it: its own, started at its first picture, or the wall's one clock,
// started at the wall's first picture (Options.OneClock).
type clock struct {
	start    time.Time // the wall's first picture, on this clock (OneClock)
	paused   bool
	pausedAt time.Time     // the caller's time at the pause
	pausedBy time.Duration // the time spent paused before
}

// at is the caller's time now on this clock.
func (c *clock) at(now time.Time) time.Time { return now.Add(-c.pausedBy) }

// origin is when, on this clock, the play of t that begins with a picture shown at now started: on
// one clock, for a stream's first picture, when the wall showed its first (a stream whose first
// picture comes later catches up); else now.
func (c *clock) origin(t *tile, now time.Time, one bool) time.Time {
	if one && t.shown == 0 {
		if c.start.IsZero() {
			c.start = now
		}
		return c.start
	}
	return now
}

// SetPaused pauses or resumes the timed steps at now (the caller's time, as Tick's): while paused
// Tick draws nothing, and the time spent paused does not count on the streams' clocks, so that each
// resumes with the picture it was showing. Untimed steps (Step) ignore it.
func (w *Wall) SetPaused(paused bool, now time.Time) {
	c := &w.clock
	switch {
	case paused && !c.paused:
		c.paused, c.pausedAt = true, now
	case !paused && c.paused:
		c.paused = false
		c.pausedBy += now.Sub(c.pausedAt)
	}
}

// Paused says whether the timed steps are paused.
func (w *Wall) Paused() bool { return w.clock.paused }

// SetPeriod sets the time between timed steps (Options.Period) from now on: a window measures its
// display's refresh.
func (w *Wall) SetPeriod(d time.Duration) { w.opts.Period = max(d, 0) }

// Media is where tile i is in its input at now (the caller's time, as Tick's), in seconds on its
// decoder's clock (decode.Frame.PTS): on timed steps the time its clock has reached, which the
// picture shown is the one due at; on untimed steps its last picture's time. While paused it stays
// where the pause left it. ok is false before the tile's first picture and after its end: a
// client following the tile (ycbcrwall's sound of the picked tile) has nothing to follow then.
func (w *Wall) Media(i int, now time.Time) (pts float64, ok bool) {
	t := w.tiles[i]
	if t.ended || t.shown == 0 {
		return 0, false
	}
	if t.origin.IsZero() { // untimed: no clock, the last picture
		return t.lastPTS, true
	}
	c := &w.clock
	if c.paused {
		now = c.pausedAt
	}
	return t.pts0 + c.at(now).Sub(t.origin).Seconds(), true
}

// Info is tile i's input as its decoder describes it (its URL, start time, stream index).
func (w *Wall) Info(i int) decode.Info { return w.tiles[i].dec.Info() }

// Label is tile i's name (Input.Label, else the URL's base name).
func (w *Wall) Label(i int) string { return w.tiles[i].in.Label }

// grid is where a display's steps fall: a step that came a period after the one before (within a
// tenth) is on it; one that came late (a stall ended, the caller's ticker hands its missed tick
// over at once) is not, and a clock started there would put its pictures' due times off the
// steps, near the half period where a step's jitter drops a picture: the H200's 16-stream walls
// lost 4-5 % of the pictures of the streams that started on such a step, 0.1 % of the others'.
type grid struct{ ref time.Time } // the last step on the grid

// step notes a step at now, the one before at prev (zero: none).
func (g *grid) step(now, prev time.Time, period time.Duration) {
	if g.ref.IsZero() || period <= 0 {
		g.ref = now
		return
	}
	if d := now.Sub(prev) - period; !prev.IsZero() && d < period/10 && d > -period/10 {
		g.ref = now
	}
}

// next is the first time on the grid at or after t.
func (g *grid) next(t time.Time, period time.Duration) time.Time {
	if g.ref.IsZero() || period <= 0 || !t.After(g.ref) {
		return t
	}
	k := (t.Sub(g.ref) + period - 1) / period
	return g.ref.Add(k * period)
}
