package player

import (
	"runtime/debug"
	"sync/atomic"
	"testing"
)

// TestVulkanGoGCRace reproduces a use-after-free in vulkan-go (docs/reliability.md, "vulkan-go and
// the garbage collector"): its wrappers free the C copy of slice arguments (create infos, submit
// infos, property arrays) from a finalizer that may run while the Vulkan call is still reading or
// writing them. Collections are made frequent (GOGC 1 and a goroutine allocating garbage) while short
// plays create pipelines, submit frames and enumerate properties. Before vkx.NoGC guards those calls
// this crashed the test binary (SIGSEGV in vkCreateGraphicsPipelines, vkCreateInstance or
// vkEnumerate*), typically within the first plays: with vkx.NoGC planted as a plain call
// (scripts/mutants.sh, nogc-plain) the binary crashed by the sixth play in nine runs, so 25 plays
// keep a margin of four. The project now makes those calls in C (vkx) or under vkx.NoGC; this test
// keeps it that way.
func TestVulkanGoGCRace(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(1))
	var stop atomic.Bool
	defer stop.Store(true)
	go func() {
		var keep [][]byte
		for !stop.Load() {
			keep = append(keep, make([]byte, 512))
			if len(keep) > 64 {
				keep = nil
			}
		}
	}()
	for i := 0; i < 25; i++ {
		if _, err := Play(synthetic(t, "nv12", 64, 36, 5), Config{GPU: GPUConfig{Device: -1}, Output: OutputConfig{Headless: true}, Playback: PlaybackConfig{Untimed: true}}); err != nil {
			t.Fatalf("play %d: %v", i, err)
		}
	}
}
