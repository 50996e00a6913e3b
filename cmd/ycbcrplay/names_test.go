package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestRefusalNamesStreamFormat: where the picture is drawn from another layout than the stream's
// own (a yuv410p stream converted to yuv420p here; a yuv420p stream decoded by Vulkan Video into nv12
// on NVIDIA), -path sampler's refusal names the stream's pixel format first, then the layout. The
// bottom siting (-chroma-loc) makes every device refuse: no VkChromaLocation names it.
func TestRefusalNamesStreamFormat(t *testing.T) {
	file := filepath.Join(t.TempDir(), "yuv410p.mkv")
	makeClip(t, file, "-pix_fmt", "yuv410p", "-c:v", "ffv1")
	_, stderr, code := play(t, "-headless", "-frames", "1", "-path", "sampler", "-chroma-loc", "bottom", file)
	lines := strings.Split(strings.TrimSpace(stderr), "\n")
	last := lines[len(lines)-1]
	if code != 1 || !strings.HasPrefix(last, "error: yuv410p stream, drawn from yuv420p: ") || !strings.Contains(last, "cannot express") {
		t.Fatalf("exit %d, stderr %q: want 1 and an error naming yuv410p, then yuv420p", code, stderr)
	}
	t.Logf("%s", last)
}
