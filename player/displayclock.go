package player

import (
	"fmt"
	"math"
)

// VideoSync is how the pictures are timed (-video-sync, mpv's --video-sync).
type VideoSync int

const (
	// SyncAudio shows each frame when the master clock (the sound, else the wall clock) reaches
	// it: mpv's "audio". A 24 fps picture on a 60 Hz display then stays 3 and 2 refreshes in turn.
	SyncAudio VideoSync = iota
	// SyncDisplayResample shows each frame for a whole number of display refreshes, the video
	// sped up or slowed down by at most MaxVideoChange so that the frame rate fits the display,
	// and the sound resampled to follow: mpv's "display-resample".
	SyncDisplayResample
)

// ParseVideoSync reads -video-sync.
func ParseVideoSync(s string) (VideoSync, error) {
	switch s {
	case "audio":
		return SyncAudio, nil
	case "display-resample":
		return SyncDisplayResample, nil
	}
	return 0, fmt.Errorf("bad -video-sync %q: audio or display-resample", s)
}

func (v VideoSync) String() string { return [...]string{"audio", "display-resample"}[v] }

// TScale is the temporal filter of frame blending (-tscale, mpv's --tscale).
type TScale int

const (
	// TScaleOff shows the frame whose time the refresh is in, whole (no blending).
	TScaleOff TScale = iota
	// TScaleLinear mixes the two frames around the refresh's time by its phase between them (a
	// triangle filter of one frame's radius): a moving edge advances by the same amount each
	// refresh, its intensity-weighted position exactly on the time line.
	TScaleLinear
	// TScaleOversample shows each frame whole, except on a refresh that straddles two frames,
	// mixed by how much of the refresh each covers (mpv's "oversample").
	TScaleOversample
)

// ParseTScale reads -tscale.
func ParseTScale(s string) (TScale, error) {
	switch s {
	case "linear":
		return TScaleLinear, nil
	case "oversample":
		return TScaleOversample, nil
	}
	return 0, fmt.Errorf("bad -tscale %q: linear or oversample", s)
}

func (t TScale) String() string { return [...]string{"off", "linear", "oversample"}[t] }

// weight is how much of the later of two frames (times a < b) the refresh at video time t, lasting
// d of video time, shows.
func (t TScale) weight(at, a, b, d float64) float64 {
	if b <= a {
		return 0
	}
	switch t {
	case TScaleLinear:
		return min(max((at-a)/(b-a), 0), 1)
	case TScaleOversample:
		return min(max((at+d-b)/d, 0), 1)
	}
	return 0
}

// mpv's limits (options.c: video-sync-max-video-change 1 %, video-sync-max-audio-change 0.125 %,
// video-sync-max-factor 5): the video's speed changes by at most 1 % to fit the display, and the
// sound's by at most 0.125 % more to pull the A/V offset back.
const (
	MaxVideoChange = 0.01
	MaxAudioChange = 0.00125
	maxSyncFactor  = 5
)

// fitSpeed is the video speed closest to 1 at which a frame of frameDur seconds lasts a whole
// number of refreshes of vsync seconds, or a run of up to maxSyncFactor frames does (24 fps on 60 Hz:
// 2 frames in 5 refreshes, speed 1; 23.976 fps: speed 1.001); ok is false when none is within
// maxChange (the frames then follow their own times: a cadence, no resampling).
func fitSpeed(vsync, frameDur, maxChange float64) (speed float64, ok bool) {
	if vsync <= 0 || frameDur <= 0 {
		return 1, false
	}
	ratio := frameDur / vsync
	best, dev := 1.0, math.Inf(1)
	for k := 1; k <= maxSyncFactor; k++ {
		n := math.Round(ratio * float64(k))
		if n < 1 {
			continue
		}
		if s := ratio * float64(k) / n; math.Abs(s-1) < dev-1e-12 {
			best, dev = s, math.Abs(s-1)
		}
	}
	if dev > maxChange {
		return 1, false
	}
	return best, true
}

// displayClock is display-synced timing: refresh n shows video time origin + n·vsync·speed, and
// the sound plays at speed × factor, where factor corrects the A/V offset the way mpv's display
// sync does (player/video.c, adjust_audio_resample_speed): nothing while the offset is within half
// a refresh, MaxAudioChange towards it from there until the offset has crossed zero; then the
// factor that cancels the drift measured meanwhile (the sound device's clock is a little off the
// display's), so that the corrections are rare.
type displayClock struct {
	vsync  float64 // seconds per refresh
	speed  float64 // the video's speed (fitSpeed)
	origin float64 // video time of refresh 0
	n      int64   // the next refresh
	drift  int     // −1, 0, +1: the direction the sound is being corrected in
	factor float64 // the sound's speed ÷ the video's (0: 1)
	// hist holds the last offsets, one a refresh, for the drift's slope.
	hist []float64
}

// driftWindow is how many refreshes' offsets the drift's slope is fitted over (2 s at 60 Hz: one
// offset is a few ms off either way).
const driftWindow = 120

// at is the video time refresh n shows.
func (c *displayClock) at(n int64) float64 { return c.origin + float64(n)*c.vsync*c.speed }

// step is how much video time a refresh lasts.
func (c *displayClock) step() float64 { return c.vsync * c.speed }

// restart forgets the offsets (a new timeline, or the refreshes moved to meet the sound).
func (c *displayClock) restart() { c.hist, c.drift = c.hist[:0], 0 }

// correct takes the A/V offset seen at a refresh (video minus audio, seconds) and returns the sound's
// speed.
func (c *displayClock) correct(offset float64) float64 {
	if c.factor == 0 {
		c.factor = 1
	}
	if len(c.hist) == driftWindow {
		c.hist = append(c.hist[:0], c.hist[1:]...)
	}
	c.hist = append(c.hist, offset)
	was := c.drift
	if float64(c.drift)*offset <= 0 {
		c.drift = 0 // crossed zero (or never left)
	}
	if math.Abs(offset) > c.vsync/2 {
		c.drift = 1
		if offset < 0 {
			c.drift = -1
		}
	}
	switch {
	case c.drift != 0:
		c.factor = 1 + MaxAudioChange*float64(c.drift)
	case was != 0:
		// The offset changed by slope a refresh at this factor: the sound runs k times the speed it
		// is asked for (vsync·speed − vsync·speed·factor·k = slope), and 1/k cancels that.
		if slope, ok := c.slope(); ok {
			k := (c.speed - slope/c.vsync) / (c.speed * c.factor)
			c.factor = min(max(1/k, 1-MaxAudioChange), 1+MaxAudioChange)
		} else {
			c.factor = 1
		}
	}
	return c.audioSpeed()
}

// slope is the least-squares slope of the offsets over the refreshes in hist (seconds a refresh).
func (c *displayClock) slope() (float64, bool) {
	n := float64(len(c.hist))
	if len(c.hist) < driftWindow/4 {
		return 0, false
	}
	var sx, sy, sxy, sxx float64
	for i, y := range c.hist {
		x := float64(i)
		sx, sy, sxy, sxx = sx+x, sy+y, sxy+x*y, sxx+x*x
	}
	return (n*sxy - sx*sy) / (n*sxx - sx*sx), true
}

// audioSpeed is the sound's speed now.
func (c *displayClock) audioSpeed() float64 {
	if c.factor == 0 {
		return c.speed
	}
	return c.speed * c.factor
}
