package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCache: with -cache DIR the first run probes the conversion variants and leaves the device's
// pipeline cache and the measurement in DIR; the second run seeds its pipeline cache from the file,
// takes the variant from the measurement without probing and says so; -cache off writes nothing.
// -stats startup_ms names the phases of the start-up either way.
func TestCache(t *testing.T) {
	dir := t.TempDir()
	clip := filepath.Join(mediaDir, "default.mkv")
	type stats struct {
		ConversionReason string             `json:"conversion_reason"`
		Startup          map[string]float64 `json:"startup_ms"`
		PipelineCache    struct {
			File      string `json:"file"`
			SeedBytes int    `json:"seed_bytes"`
			Note      string `json:"note"`
		} `json:"pipeline_cache"`
	}
	runs := make([]stats, 2)
	for i := range runs {
		out, errOut, code := play(t, "-headless", "-untimed", "-frames", "3", "-stats", "-validate", "-cache", dir, clip)
		if code != 0 || json.Unmarshal([]byte(out), &runs[i]) != nil {
			t.Fatalf("run %d: exit %d, stdout %q, stderr %q", i+1, code, out, errOut)
		}
		for _, phase := range []string{"open_input", "instance", "device", "renderer", "first_decoded", "output", "first_draw", "first_frame"} {
			if runs[i].Startup[phase] <= 0 {
				t.Errorf("run %d: startup_ms.%s = %v, want a time", i+1, phase, runs[i].Startup[phase])
			}
		}
	}
	first, second := runs[0], runs[1]
	if first.Startup["probe"] <= 0 || strings.Contains(first.ConversionReason, "remembered") ||
		first.PipelineCache.SeedBytes != 0 || !strings.HasPrefix(first.PipelineCache.File, dir) {
		t.Errorf("first run: %+v", first)
	}
	if second.Startup["probe"] != 0 || !strings.HasPrefix(second.ConversionReason, first.ConversionReason+", remembered from a run at ") ||
		second.PipelineCache.SeedBytes == 0 || second.PipelineCache.Note != "" {
		t.Errorf("second run: %+v, first run's reason %q", second, first.ConversionReason)
	}
	t.Logf("first frame %.1f ms (probe %.1f), then %.1f ms: %s", first.Startup["first_frame"], first.Startup["probe"],
		second.Startup["first_frame"], second.ConversionReason)

	off := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", off)
	if _, errOut, code := play(t, "-headless", "-untimed", "-frames", "3", "-cache", "off", clip); code != 0 {
		t.Fatalf("-cache off: exit %d: %s", code, errOut)
	}
	// (The driver and the validation layer keep caches of their own there: mesa_shader_cache, ….)
	if _, err := os.Stat(filepath.Join(off, "ycbcrkit")); err == nil {
		t.Error("-cache off wrote XDG_CACHE_HOME/ycbcrkit")
	}
}
