package player

import (
	"math"
	"time"
)

// pacer decides when each frame is shown: when the master clock (the sound) reaches its PTS, or
// by the wall clock at the playback speed; it keeps that timeline across seeks, pauses, steps,
// speed changes and timestamp discontinuities.
type pacer struct {
	// master is Config.Sound.Clock when playback is timed (nil: none); clock is the clock in use: master,
	// or nil while the wall clock times the pictures (no sound, or a speed other than 1).
	master, clock Clock
	untimed       bool
	speed         float64 // playback speed (1: as timed)
	frameDur      float64 // seconds; the stream's, or a field's (Frame.fieldDuration)
	declared      bool    // the source declares discontinuities (SourceInfo.Discontinuous)
	// fresh: the next frame is the first since the start or a seek (shown at once, never dropped);
	// stepped: frames were stepped while the sound stood still.
	fresh, stepped bool
	// The wall clock's timeline: ptsStart is due at start (zero: it restarts at the next frame);
	// lastDue is when the last frame was due, lastPTS its PTS (or the last dropped one's).
	start    time.Time
	ptsStart float64
	lastDue  time.Time
	lastPTS  float64
	// discontinuities counted (Stats.Discontinuities); offs the A/V offsets at each presented frame.
	discontinuities int
	offs            offsets
	// presentLead is how long presenting a frame takes (seconds, smoothed), from the show verdict to
	// shown: the wait for the audio clock ends that much before the frame's time, so that the
	// picture is up when the sound reaches it rather than one present call later (measured from
	// outside by cmd/ycbcrplay's TestSoundSync60s: that call was the constant part of the A/V
	// offset, ~10 ms on lavapipe). showAt is when the last show verdict was given.
	presentLead float64
	showAt      time.Time
	logf        func(format string, args ...any)
}

// verdict is what the pacer says of a frame.
type verdict int

const (
	show  verdict = iota // present it now
	drop                 // too late: release it unseen
	later                // not due within a slice: the caller polls the window and offers it again
)

func newPacer(cfg Config, info SourceInfo, logf func(string, ...any)) pacer {
	c := pacer{untimed: cfg.Playback.Untimed, speed: 1, frameDur: 1.0 / 30, declared: info.Discontinuous, fresh: true, logf: logf}
	if !cfg.Playback.Untimed {
		c.master, c.clock = cfg.Sound.Clock, cfg.Sound.Clock
	}
	if info.FrameRate > 0 {
		c.frameDur = 1 / info.FrameRate
	}
	return c
}

// note reports a clock's failure (the sound's): playback goes on.
func (c *pacer) note(err error) {
	if err != nil {
		c.logf("notice: audio: %v", err)
	}
}

// hold holds the clock at target for a seek or a loop's restart: decoding up to the target takes a
// while, and the clock starts again under its first picture (shown).
func (c *pacer) hold(target float64) {
	c.start = time.Time{}
	if c.clock != nil {
		c.note(c.clock.Pause(true))
		c.note(c.clock.Seek(target))
		c.fresh = true
	}
}

// pause pauses or resumes. After frames were stepped while paused, the sound resumes under the
// picture, from the next frame's presentation on.
func (c *pacer) pause(paused bool) {
	c.start = time.Time{}
	if c.clock == nil {
		return
	}
	if !paused && c.stepped {
		c.note(c.clock.Seek(c.lastPTS))
		c.fresh = true
	} else {
		c.note(c.clock.Pause(paused))
	}
	c.stepped = false
}

// step stops the clock for a frame step (the player pauses).
func (c *pacer) step(paused bool) {
	if c.clock != nil && !paused {
		c.note(c.clock.Pause(true))
	}
}

// setSpeed changes the speed (clamped to 0.1–16); the wall clock's timeline restarts at the next
// frame. The sound plays at 1× only: otherwise it pauses and the wall clock times the pictures.
func (c *pacer) setSpeed(sp float64) float64 {
	sp = min(max(sp, 0.1), 16)
	if math.Abs(sp-1) < 1e-9 {
		sp = 1
	}
	c.speed = sp
	c.start = time.Time{}
	if c.master != nil {
		if sp == 1 && c.clock == nil {
			c.clock = c.master
			c.note(c.clock.Seek(c.lastPTS))
			c.fresh = true
		} else if sp != 1 && c.clock != nil {
			c.note(c.clock.Pause(true))
			c.clock = nil
		}
	}
	return sp
}

// schedule waits until f is due and says whether to show it. waited: f comes back after a later
// verdict; presented counts the frames shown so far; slice is the longest the pacer sleeps.
func (c *pacer) schedule(f *Frame, waited, paused bool, presented int, slice time.Duration) verdict {
	if d := f.fieldDuration(); d > 0 { // deinterlaced fields: twice the stream's frame rate
		c.frameDur = d
	}
	if c.clock != nil && !paused && !c.fresh {
		// The audio clock is the master: a frame whose time the sound has passed by more than a frame
		// is dropped; otherwise it waits for the sound to reach it. (A fresh frame, the first since
		// the start or a seek, is shown at once: the clock is held until then.)
		if pos, ok := c.clock.Position(); ok && pos-f.PTS > c.frameDur {
			c.lastPTS = f.PTS
			return drop
		}
		waitClock(c.clock, f.PTS-c.presentLead, 3*time.Second)
	} else if c.clock == nil && !c.untimed && !paused {
		if v := c.wall(f.PTS, waited, presented, slice); v != show {
			return v
		}
	}
	c.lastPTS, c.showAt = f.PTS, time.Now()
	return show
}

// wall times a frame of PTS pts by the wall clock at the playback speed.
func (c *pacer) wall(pts float64, waited bool, presented int, slice time.Duration) verdict {
	now := time.Now()
	if c.start.IsZero() {
		c.start, c.ptsStart = now, pts
	} else if !waited && discontinuity(pts-c.lastPTS, c.frameDur, c.declared) {
		// A new timeline: this frame follows the last one by a frame's duration (at most a second:
		// a stream whose time base is absurd has an absurd frame rate too).
		c.discontinuities++
		c.start, c.ptsStart = c.lastDue.Add(time.Duration(min(c.frameDur, 1)/c.speed*float64(time.Second))), pts
	}
	due := c.start.Add(time.Duration((pts - c.ptsStart) / c.speed * float64(time.Second)))
	if late := now.Sub(due).Seconds(); late > c.frameDur/c.speed && presented > 0 && !c.fresh {
		c.lastPTS, c.lastDue = pts, due
		return drop
	}
	// Never asleep for long: the loop comes back to the window (keys, closing) every slice.
	if time.Until(due) > slice {
		time.Sleep(slice)
		return later
	}
	time.Sleep(time.Until(due))
	c.lastDue = due
	return show
}

// shown follows a presented frame of PTS pts: the sound starts under the first picture since the
// start or a seek, and the A/V offset is recorded.
func (c *pacer) shown(pts float64, paused bool) {
	if c.clock != nil && !paused {
		if !c.showAt.IsZero() {
			// Smoothed over ~10 frames, and never more than a frame: a slow present (a resize, a
			// stall) must not make the next frames early.
			took := min(time.Since(c.showAt).Seconds(), c.frameDur)
			c.presentLead += 0.1 * (took - c.presentLead)
		}
		if c.fresh {
			c.note(c.clock.Pause(false))
		}
		if pos, ok := c.clock.Position(); ok {
			c.offs.add(pts - pos)
		}
	}
	c.fresh = false
}

// end lets the last frame stay its duration at the input's end, with the sound under it heard.
func (c *pacer) end(paused bool, presented int) {
	if c.clock != nil && !paused && presented > 0 {
		waitClock(c.clock, c.lastPTS+c.frameDur, time.Second)
	}
}

// Timestamp discontinuities (the wall clock's rule; with sound the audio clock decides). A frame whose
// PTS goes back by more than half a frame, or forward by more than the limit, starts a new timeline:
// it is shown a frame after the last one instead of waiting (hours, for an MPEG-TS timestamp wrap) or
// making every later frame late. The forward limit is ffplay's: 10 s for any format (AV_NOSYNC_THRESHOLD;
// a variable-frame-rate pause shorter than that is shown at its time), and for formats that declare
// discontinuities (AVFMT_TS_DISCONT, MPEG-TS) ten frames' duration, at least 1 s.
const (
	discontinuityLimit      = 10.0 // seconds
	discontinuityLimitTSMin = 1.0  // seconds, formats with AVFMT_TS_DISCONT
)

func discontinuity(jump, frameDur float64, declared bool) bool {
	limit := discontinuityLimit
	if declared {
		limit = max(10*frameDur, discontinuityLimitTSMin)
	}
	return jump < -frameDur/2 || jump > limit
}

// waitClock sleeps until the clock reaches pts, polling it (it may jump: a seek, the sound
// starting). It gives up after limit without progress, so that a stalled clock cannot freeze the
// picture.
func waitClock(c Clock, pts float64, limit time.Duration) {
	start := time.Now()
	for time.Since(start) < limit {
		pos, ok := c.Position()
		if ok && pos >= pts {
			return
		}
		d := 5 * time.Millisecond
		if ok {
			d = min(d, time.Duration((pts-pos)*float64(time.Second)))
		}
		time.Sleep(max(d, 200*time.Microsecond))
	}
}
