package main

import (
	"encoding/json"
	"path/filepath"
	"testing"
)

// TestStart: -start skips to the first frame at or after the time; the bundled clip is 4 s at 25 fps
// (100 frames, testvectors/make.sh), so -start 2 plays its last 50 frames, and -start 0:01.5 with
// -loop 2 plays the 62 frames from 1.52 s, then the whole clip again (loops go back to the file's start).
func TestStart(t *testing.T) {
	for _, c := range []struct {
		args []string
		want int
	}{
		{[]string{"-start", "2"}, 50},
		{[]string{"-start", "0:01.5", "-loop", "2"}, 62 + 100},
	} {
		args := append([]string{"-headless", "-untimed", "-stats"}, c.args...)
		out, errOut, code := play(t, append(args, filepath.Join(mediaDir, "default.mkv"))...)
		var st struct {
			FramesPresented int `json:"frames_presented"`
		}
		if code != 0 || json.Unmarshal([]byte(out), &st) != nil || st.FramesPresented != c.want {
			t.Errorf("%q: exit %d, %d frames presented (want %d), stderr %q", c.args, code, st.FramesPresented, c.want, errOut)
		}
	}
}
