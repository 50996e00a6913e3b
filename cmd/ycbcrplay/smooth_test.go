package main

import (
	"os/exec"
	"path/filepath"
	"testing"
)

// TestVideoSyncFlags plays a 12-frame 23.976 fps clip (Debian's ffmpeg) headless with mpv's
// spelling of display-synced playback: the video is sped up by 0.1 % to 2.5 refreshes of a 60 Hz
// display a frame (3 and 2 in turn, no drift), 30 refreshes in all, blended; every frame shown.
func TestVideoSyncFlags(t *testing.T) {
	clip := filepath.Join(t.TempDir(), "23976.mp4")
	if b, err := exec.Command(debianFFmpeg, "-v", "error", "-f", "lavfi", "-i", "testsrc2=s=96x64:r=24000/1001",
		"-frames:v", "12", "-pix_fmt", "yuv420p", "-y", clip).CombinedOutput(); err != nil {
		t.Fatalf("make the clip: %v: %s", err, b)
	}
	st, _ := playStats(t, "--video-sync=display-resample", "--override-display-fps=60", "--interpolation", clip)
	ds, _ := st["display_sync"].(map[string]any)
	if ds == nil || ds["video_speed"] != 1.001 || ds["interpolation"] != "linear" || ds["refreshes"] != 30.0 ||
		ds["refreshes_per_frame"] != 2.5 || ds["cadence"] != "3 2 3 2 3 2 3 2 3 2 3 2" || st["frames_presented"] != 12.0 {
		t.Fatalf("display_sync %v, frames %v: want speed 1.001, linear, 30 refreshes, 2.5 a frame (3 2 3 2 …, no drift), 12 frames",
			ds, st["frames_presented"])
	}
}
