package main

import (
	"testing"

	"github.com/ycbcrkit/ycbcrkit/player"
)

// TestVideoSyncFlags reads mpv's spelling of display-synced playback into the player's
// configuration (player's TestDisplaySyncPan plays it): -interpolation implies display-resample,
// mpv's other modes are the nearest with a notice, and bad values are refused.
func TestVideoSyncFlags(t *testing.T) {
	o, err := parseArgs([]string{"--video-sync=display-resample", "--override-display-fps=59.94", "clip.mp4"})
	if c := o.cfg.Playback; err != nil || c.VideoSync != player.SyncDisplayResample || c.DisplayFPS != 59.94 || c.TScale != player.TScaleOff {
		t.Errorf("--video-sync=display-resample --override-display-fps=59.94: %+v, %v", c, err)
	}
	o, err = parseArgs([]string{"-interpolation", "-tscale", "oversample", "-display-fps", "144", "clip.mp4"})
	if c := o.cfg.Playback; err != nil || c.VideoSync != player.SyncDisplayResample || c.DisplayFPS != 144 || c.TScale != player.TScaleOversample {
		t.Errorf("-interpolation -tscale oversample -display-fps 144: %+v, %v", c, err)
	}
	o, err = parseArgs([]string{"clip.mp4"})
	if c := o.cfg.Playback; err != nil || c.VideoSync != player.SyncAudio || c.TScale != player.TScaleOff {
		t.Errorf("no flags: %+v, %v; want audio sync, no blending", c, err)
	}
	o, err = parseArgs([]string{"--video-sync=display-vdrop", "clip.mp4"})
	if err != nil || o.cfg.Playback.VideoSync != player.SyncDisplayResample || len(o.notices) != 1 {
		t.Errorf("--video-sync=display-vdrop (mpv's): %v, notices %q; want display-resample and one notice", err, o.notices)
	}
	for _, bad := range [][]string{{"-video-sync", "vsync"}, {"-tscale", "mitchell"}, {"-display-fps", "0.5"}} {
		if _, err := parseArgs(append(bad, "clip.mp4")); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}
