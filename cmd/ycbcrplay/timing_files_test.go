package main

import (
	"encoding/binary"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ycbcrkit/ycbcrkit/internal/testkit/timebound"
)

// TestHugeTimeBaseIVF: a VP9 IVF whose time base is 1/2000000000 s (the 32-byte DKIF header holds
// the time base's denominator and numerator at bytes 16–23, and each frame's 12-byte header a 64-bit
// timestamp in those units: https://wiki.multimedia.cx/index.php/IVF). The header and every frame's
// timestamp are rewritten so the frames keep their 10 fps timing at timestamps up to 1.8e9; timed
// headless playback presents all 10 frames, none dropped.
func TestHugeTimeBaseIVF(t *testing.T) {
	dir := t.TempDir()
	orig, huge := filepath.Join(dir, "orig.ivf"), filepath.Join(dir, "huge.ivf")
	ffmpegCLI(t, "-f", "lavfi", "-i", "testsrc=size=64x48:rate=10:duration=1", "-pix_fmt", "yuv420p",
		"-c:v", "libvpx-vp9", "-deadline", "realtime", "-f", "ivf", orig)
	b, err := os.ReadFile(orig)
	if err != nil {
		t.Fatal(err)
	}
	if len(b) < 32 || string(b[:4]) != "DKIF" {
		t.Fatalf("%s: no DKIF header", orig)
	}
	const den = 2000000000
	oldDen, oldNum := uint64(binary.LittleEndian.Uint32(b[16:])), uint64(binary.LittleEndian.Uint32(b[20:]))
	binary.LittleEndian.PutUint32(b[16:], den)
	binary.LittleEndian.PutUint32(b[20:], 1)
	frames := 0
	for off := 32; off+12 <= len(b); frames++ {
		size := int(binary.LittleEndian.Uint32(b[off:]))
		pts := binary.LittleEndian.Uint64(b[off+4:])
		binary.LittleEndian.PutUint64(b[off+4:], pts*den*oldNum/oldDen)
		off += 12 + size
	}
	if frames != 10 {
		t.Fatalf("%d frames in the IVF, want 10", frames)
	}
	if err := os.WriteFile(huge, b, 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code := playTimed(t, 100*time.Millisecond, "-headless", "-stats", huge)
	var st struct {
		Presented int `json:"frames_presented"`
		Dropped   int `json:"frames_dropped"`
	}
	if code != 0 || json.Unmarshal([]byte(stdout), &st) != nil || st.Presented != 10 || st.Dropped != 0 {
		t.Fatalf("exit %d, stats %q, stderr %q: want all 10 frames presented", code, stdout, stderr)
	}
}

// TestSeekFarFromKeyFrame: a 64×48, 60 s H.264 file at 25 fps with a single key frame (-g 100000).
// -start 50 decodes 1250 frames from the key frame before the first one shown; playback then goes
// on without the player's stall error ("decoder produced nothing for 10 s" before the wait counted
// decoder progress).
func TestSeekFarFromKeyFrame(t *testing.T) {
	clip := filepath.Join(t.TempDir(), "onekey.mkv")
	ffmpegCLI(t, "-f", "lavfi", "-i", "testsrc=size=64x48:rate=25:duration=60", "-pix_fmt", "yuv420p",
		"-c:v", "libx264", "-preset", "ultrafast", "-g", "100000", "-keyint_min", "100000", "-sc_threshold", "0", clip)
	start := time.Now()
	stdout, stderr, code := play(t, "-headless", "-stats", "-start", "50", "-frames", "10", clip)
	var st struct {
		Presented int `json:"frames_presented"`
	}
	if code != 0 || strings.Contains(stderr, "error:") || json.Unmarshal([]byte(stdout), &st) != nil || st.Presented != 10 {
		t.Fatalf("exit %d, stats %q, stderr %q: want 10 frames presented from 50 s", code, stdout, stderr)
	}
	t.Logf("-start 50 and 10 frames in %v", time.Since(start).Round(time.Millisecond))
}

// playTimed is play for timed runs with -stats whose checks want no frame dropped as late: a run
// that dropped frames while the process waited for a CPU longer than margin (a frame's time: a
// loaded machine) is made again, at most twice, with the reason logged (internal/testkit/timebound).
func playTimed(t *testing.T, margin time.Duration, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	for try := 1; ; try++ {
		span := timebound.Start()
		stdout, stderr, code = play(t, args...)
		var st struct {
			Dropped int `json:"frames_dropped"`
		}
		_, waited := span.Elapsed()
		if json.Unmarshal([]byte(stdout), &st) != nil || st.Dropped == 0 || try == 3 || waited < margin {
			return stdout, stderr, code
		}
		t.Logf("run %d: %d frames dropped while the process waited %s for a CPU: again", try, st.Dropped, waited.Round(time.Millisecond))
	}
}
