//go:build ycbcrkit_faults

package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ycbcrkit/ycbcrkit/internal/avx"
)

// injectHWFailure is avx.InjectHWFailure, for YCBCRPLAY_TEST_HWFAIL (TestMain).
func injectHWFailure(n int) { avx.InjectHWFailure(n) }

// A hardware failure mid-stream (injected after 30 frames: lavapipe has no Vulkan Video) does not
// end playback: the decoder goes on in software, all 100 frames of the clip are presented, and
// -stats says why in hwdec_reason.
func TestHWDecMidStreamFallback(t *testing.T) {
	t.Cleanup(avx.ClearHWFailure)
	avx.InjectHWFailure(30)
	clip := filepath.Join(mediaDir, "default.mkv")
	out, stderr, code := play(t, "-headless", "-untimed", "-stats", "-validate", "-hwdec", "auto", clip)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var st map[string]any
	if err := json.Unmarshal([]byte(out), &st); err != nil {
		t.Fatalf("-stats: %v: %q", err, out)
	}
	if avx.HWFailureFired() != 1 || st["frames_presented"] != float64(100) || st["hwdec"] != "no" ||
		!strings.Contains(st["hwdec_reason"].(string), "failed mid-stream") {
		t.Fatalf("%d failures injected; presented %v, hwdec %v, reason %v; stderr %q", avx.HWFailureFired(),
			st["frames_presented"], st["hwdec"], st["hwdec_reason"], stderr)
	}
}
