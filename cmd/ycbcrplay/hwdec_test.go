package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// -hwdec on a device without Vulkan Video (lavapipe): auto plays in software with the reason in
// -stats; vulkan ends with one error line naming what is missing; a bad value is refused.
func TestHWDec(t *testing.T) {
	clip := filepath.Join(mediaDir, "default.mkv")
	out, stderr, code := play(t, "-headless", "-untimed", "-frames", "5", "-stats", "-validate", "-hwdec", "auto", "-threads", "3", clip)
	if code != 0 {
		t.Fatalf("auto: exit %d: %s", code, stderr)
	}
	var st map[string]any
	if err := json.Unmarshal([]byte(out), &st); err != nil {
		t.Fatalf("-stats: %v: %q", err, out)
	}
	if st["decoder"] != "h264" || st["hwdec"] != "no" || !strings.Contains(st["hwdec_reason"].(string), "VK_KHR_video_decode_queue") {
		t.Fatalf("auto on a device without Vulkan Video: decoder %v, hwdec %v, reason %v", st["decoder"], st["hwdec"], st["hwdec_reason"])
	}
	// Software decoding keeps its frame threads (Vulkan Video would decode on one: issue 19).
	if st["decode_threads"] != 3.0 {
		t.Fatalf("auto in software with -threads 3: decode_threads %v", st["decode_threads"])
	}
	out, stderr, code = play(t, "-headless", "-untimed", "-frames", "5", "-stats", "-hwdec", "no", "-threads", "3", clip)
	if err := json.Unmarshal([]byte(out), &st); code != 0 || err != nil || st["decode_threads"] != 3.0 {
		t.Fatalf("-hwdec no -threads 3: exit %d, %v, decode_threads %v; %s", code, err, st["decode_threads"], stderr)
	}
	for _, args := range [][]string{{"-hwdec", "vulkan", clip}, {"-hwdec", "bogus", clip}, {"-hwdec-route", "zero-copy", clip}} {
		_, stderr, code := play(t, append([]string{"-headless", "-untimed", "-frames", "3"}, args...)...)
		lines := strings.Split(strings.TrimSpace(stderr), "\n")
		if code == 0 || len(lines) != 1 || !strings.HasPrefix(lines[0], "error: ") {
			t.Fatalf("%v: exit %d, stderr %q: want one error line", args, code, stderr)
		}
		t.Logf("%v: %s", args, lines[0])
	}
	if _, stderr, _ := play(t, "-headless", "-untimed", "-frames", "3", "-hwdec", "vulkan", clip); !strings.Contains(stderr, "VK_KHR_video_decode_queue") {
		t.Fatalf("-hwdec vulkan does not name what is missing: %q", stderr)
	}
}
