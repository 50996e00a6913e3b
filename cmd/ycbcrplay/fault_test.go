package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/internal/vkx"
)

// faultExitLimit is how soon a device fault must end the player: a clean error, not a hang.
const faultExitLimit = 5 * time.Second

// checkFaultExit: a non-zero exit, stderr ending in one "error:" line that names the call and the
// VkResult, quickly, no panic.
func checkFaultExit(t *testing.T, what string, r outcome, call string, result vk.Result) {
	t.Helper()
	lines := strings.Split(strings.TrimSpace(r.stderr), "\n")
	last := lines[len(lines)-1]
	errLines := 0
	for _, l := range lines {
		if strings.HasPrefix(l, "error: ") {
			errLines++
		} else if !strings.HasPrefix(l, "notice: ") {
			t.Errorf("%s: stderr line %q is neither a notice nor the error", what, l)
		}
	}
	switch {
	case r.code == 0:
		t.Errorf("%s: exit 0 despite the fault; stderr %q", what, r.stderr)
	case errLines != 1 || !strings.HasPrefix(last, "error: "):
		t.Errorf("%s: want exactly one error line, last; stderr %q", what, r.stderr)
	case !strings.Contains(last, call) || !strings.Contains(last, vkx.ResultName(result)):
		t.Errorf("%s: error %q does not name %s and %s", what, last, call, vkx.ResultName(result))
	case strings.Contains(r.stderr, "panic") || strings.Contains(r.stderr, "goroutine "):
		t.Errorf("%s: panic: %s", what, r.stderr)
	}
	if r.elapsed > faultExitLimit {
		t.Errorf("%s: took %s to exit (limit %s)", what, r.elapsed, faultExitLimit)
	}
	t.Logf("%s: exit %d in %.2fs: %s", what, r.code, r.elapsed.Seconds(), last)
}

// TestDeviceFaults injects Vulkan failures (vkx.InjectFault: only what Check reports changes; the
// lavapipe device itself is fine) at points in the middle of headless playback, and at start-up.
func TestDeviceFaults(t *testing.T) {
	t.Cleanup(vkx.ClearFaults)
	rn := newRunner(t)
	clip := filepath.Join(mediaDir, "default.mkv")
	change := filepath.Join(filepath.Dir(corpus(t)[0]), "play_change_size_format.h264") // 64×48 4:2:0, 96×64 at frame 4, 4:4:4 at 7

	// Allocations made up to the third frame (device, renderer, first stream layout): the next one is
	// the first of the rebuild for the size change at frame 4.
	vkx.ClearFaults()
	vkx.CountChecks()
	if r := rn.run(t, "-headless", "-untimed", "-frames", "3", change); r.code != 0 {
		t.Fatalf("clean run: exit %d: %s", r.code, r.stderr)
	}
	allocsBefore := vkx.Checks("vkAllocateMemory")
	if allocsBefore == 0 {
		t.Fatal("no vkAllocateMemory check seen: is the hook in vkx.Check?")
	}

	cases := []struct {
		name   string
		call   string
		result vk.Result
		after  int
		file   string
		// minSubmits: the fault must come after this many frames were submitted (mid-playback).
		minSubmits int
	}{
		{"device lost at the 11th vkQueueSubmit", "vkQueueSubmit", vk.ErrorDeviceLost, 10, clip, 10},
		{"device lost at the 11th vkWaitForFences", "vkWaitForFences", vk.ErrorDeviceLost, 10, clip, 9},
		{"out of device memory in the rebuild for a size change", "vkAllocateMemory", vk.ErrorOutOfDeviceMemory, allocsBefore, change, 3},
		{"out of device memory at start-up", "vkAllocateMemory", vk.ErrorOutOfDeviceMemory, 0, clip, 0},
		{"out of host memory creating the device's fences", "vkCreateFence", vk.ErrorOutOfHostMemory, 0, clip, 0},
		{"device lost on the first submit", "vkQueueSubmit", vk.ErrorDeviceLost, 0, clip, 0},
	}
	for _, c := range cases {
		vkx.ClearFaults()
		vkx.InjectFault(c.call, c.result, c.after)
		r := rn.run(t, "-headless", "-untimed", "-frames", "40", c.file)
		fired, submits := vkx.Fired(c.call), vkx.Checks("vkQueueSubmit")
		vkx.ClearFaults()
		checkFaultExit(t, c.name, r, c.call, c.result)
		if fired == 0 {
			t.Errorf("%s: the fault never fired", c.name)
		}
		if submits < c.minSubmits {
			t.Errorf("%s: failed after %d submits, want it mid-playback (≥ %d)", c.name, submits, c.minSubmits)
		}
	}

	// The player still works after the faults (nothing global was left broken).
	if r := rn.run(t, "-headless", "-untimed", "-frames", "5", "-validate", clip); r.code != 0 {
		t.Fatalf("clean run after the faults: exit %d: %s", r.code, r.stderr)
	}
}

// TestDeviceFaultSubprocess: a lost device in a separate ycbcrplay process (this test binary as
// main, the fault set through YCBCRPLAY_FAULT, see TestMain): the real exit status and stderr.
func TestDeviceFaultSubprocess(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-headless", "-untimed", "-frames", "40", filepath.Join(mediaDir, "default.mkv"))
	cmd.Env = append(os.Environ(), "YCBCRPLAY_AS_MAIN=1", "YCBCRPLAY_FAULT=vkWaitForFences:"+strconv.Itoa(int(vk.ErrorDeviceLost))+":10")
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	start := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	timer := time.AfterFunc(caseTimeout, func() { cmd.Process.Kill() })
	err := cmd.Wait()
	timer.Stop()
	ee, ok := err.(*exec.ExitError)
	if !ok || !ee.Exited() {
		t.Fatalf("%v (killed after %s?): %s", err, caseTimeout, e.String())
	}
	checkFaultExit(t, "subprocess, device lost in vkWaitForFences", outcome{ee.ExitCode(), o.String(), e.String(), time.Since(start)},
		"vkWaitForFences", vk.ErrorDeviceLost)
}
