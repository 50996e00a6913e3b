package player

import (
	"math"
	"testing"

	"github.com/ycbcrkit/ycbcrkit/present/window"
)

// TestDisplaySyncSeekPauseStep drives display-synced, blended playback of a 6.25 s clip headless
// with the keys: a seek 5 s on at refresh 20 (from the frame on screen, 0.292 s), then pause, two
// steps and resume at refresh 40. The refreshes' times go up by a refresh each within a timeline,
// the seek starts a new one at its target, the steps show the next two frames and playing on
// starts one after them, no frame is dropped, and the validation layer stays silent.
func TestDisplaySyncSeekPauseStep(t *testing.T) {
	src := &panSource{fps: 24, count: 150, w: 64, h: 8, x0: 0, barW: 4, step: 0}
	keys := make(chan window.Key, 8)
	var times []float64
	steps := 0
	stats, err := Play(src, Config{GPU: GPUConfig{Device: -1, Validate: true}, Output: OutputConfig{Headless: true},
		Playback: PlaybackConfig{Untimed: true, VideoSync: SyncDisplayResample, DisplayFPS: 60, TScale: TScaleLinear},
		Hooks: Hooks{Keys: keys, OnRefresh: func(_ *Player, r Refresh) {
			times = append(times, r.Time)
			switch len(times) {
			case 20:
				keys <- window.KeyRight
			case 40:
				keys <- window.KeySpace
				keys <- window.KeyPeriod
			}
		}, OnFrame: func(p *Player, _ int) {
			if !p.paused {
				return
			}
			if steps++; steps < 2 {
				keys <- window.KeyPeriod
			} else {
				keys <- window.KeySpace
			}
		}}})
	if err != nil {
		t.Fatal(err)
	}
	jumps := 0
	for i := 1; i < len(times); i++ {
		if d := times[i] - times[i-1]; d < 1.0/60-1e-9 || d > 1.0/60+1e-9 {
			jumps++
			t.Logf("refresh %d: %.4f s after %.4f s", i, times[i], times[i-1])
		}
	}
	t.Logf("%d refreshes, %d frames presented, %d dropped; display_sync %+v", len(times), stats.FramesPresented, stats.FramesDropped, *stats.DisplaySync)
	// The seek: from frame 7 (0.292 s) on screen at refresh 20, to frame 127. The steps: paused
	// on frame 134 (refresh 39 shows 5.6083 s), they show 135 and 136; playing on from 137.
	if len(times) < 41 || math.Abs(times[20]-(7+5*24)/24.0) > 1e-6 || math.Abs(times[40]-137/24.0) > 1e-6 {
		t.Errorf("refresh 20 shows %.4f s, want 5.2917 (frame 127); refresh 40 %.4f s, want 5.7083 (frame 137)", times[min(20, len(times)-1)], times[min(40, len(times)-1)])
	}
	if stats.FramesDropped != 0 {
		t.Errorf("%d frames dropped, want none (a frame from before the seek is not a drop)", stats.FramesDropped)
	}
	if last := times[len(times)-1]; last < 6.2 || jumps != 2 || steps != 2 {
		t.Errorf("last refresh at %.3f s, %d timelines started, %d steps; want the end (6.24 s) after the seek's and the 2 steps'", last, jumps, steps)
	}
}
