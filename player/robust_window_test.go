package player

import (
	"errors"
	"strings"
	"testing"
	"time"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/internal/vkx"
	"github.com/ycbcrkit/ycbcrkit/present/window"
)

// playWithin runs Play on another goroutine and fails the test if it has not returned within limit:
// a hang (an acquire that never returns, a fence never signalled) must fail the test, not stall it.
// Play itself must not run on the test goroutine for that, and GLFW tolerates it off the main thread
// under X11 (TestWindowPlayback does the same).
func playWithin(t *testing.T, limit time.Duration, src Source, cfg Config) (*Stats, error) {
	t.Helper()
	type res struct {
		st  *Stats
		err error
	}
	done := make(chan res, 1)
	go func() {
		st, err := Play(src, cfg)
		done <- res{st, err}
	}()
	select {
	case r := <-done:
		return r.st, r.err
	case <-time.After(limit):
		t.Fatalf("Play still running after %s", limit)
	}
	return nil, nil
}

// TestResizeStorm resizes the window on each of 50 frames in a row (sizes from 1×1 to 1280×720,
// odd and even), then minimises it, hides it (unmaps it, which is what a window manager does to a
// minimised window), and brings it back, with playback going on throughout and the validation layer
// on (any message fails Play).
//
// Under a bare Xvfb there is no window manager: GLFW's iconify request (a WM_CHANGE_STATE message to
// the root window) is then ignored, and X11 reports no 0×0 framebuffer for minimised windows anyway,
// so the hide/show step is what takes the image away from the swapchain here.
func TestResizeStorm(t *testing.T) {
	if !window.Available() {
		t.Fatal("no display: run the tests under xvfb-run (make test does)")
	}
	const storm = 50
	sizes := [][2]int{{1, 1}, {1280, 720}, {63, 47}, {2, 1000}, {1000, 2}, {333, 211}, {64, 36}, {17, 9}}
	src := synthetic(t, "yuv420p", 64, 36, 0)
	swapSizes := map[[2]int]bool{}
	var iconified bool
	resizes, total := 0, storm+90
	stats, err := playWithin(t, 90*time.Second, src, Config{GPU: GPUConfig{Device: -1, Validate: true}, Playback: PlaybackConfig{Frames: total, Untimed: true}, Hooks: Hooks{OnFrame: func(p *Player, n int) {
		win := p.Window()
		if p.swap != nil {
			swapSizes[[2]int{p.swap.Width, p.swap.Height}] = true
		}
		switch {
		case n <= storm:
			s := sizes[n%len(sizes)]
			win.SetSize(s[0]+n%5, s[1]+n%3)
			resizes++
		case n == storm+10:
			win.SetSize(64, 36)
		case n == storm+20:
			win.Iconify()
		case n == storm+30:
			iconified = win.Iconified()
			win.Restore()
		case n == storm+40:
			win.Hide()
		case n == storm+60:
			win.Show()
		}
	}}})
	if err != nil {
		t.Fatal(err)
	}
	if stats.FramesPresented != total || resizes != storm {
		t.Fatalf("%d frames presented (want %d), %d resizes", stats.FramesPresented, total, resizes)
	}
	if len(swapSizes) < len(sizes) {
		t.Errorf("the swapchain took only %d sizes during the storm: it was not recreated", len(swapSizes))
	}
	t.Logf("%d frames, %d resizes, %d swapchain sizes, iconified (window manager honoured it): %v, %.1f fps",
		stats.FramesPresented, resizes, len(swapSizes), iconified, stats.FPS)
}

// TestWindowDeviceFaults injects a lost device into the window path's own fence wait (WaitNextSlot,
// before acquiring a swapchain image) and into a submit: Play returns the error promptly, with the
// window and swapchain torn down, no hang.
func TestWindowDeviceFaults(t *testing.T) {
	if !window.Available() {
		t.Fatal("no display: run the tests under xvfb-run (make test does)")
	}
	t.Cleanup(vkx.ClearFaults)
	for _, call := range []string{"vkWaitForFences", "vkQueueSubmit"} {
		vkx.ClearFaults()
		vkx.InjectFault(call, vk.ErrorDeviceLost, 12)
		start := time.Now()
		_, err := playWithin(t, 20*time.Second, synthetic(t, "nv12", 64, 36, 0), Config{GPU: GPUConfig{Device: -1}, Playback: PlaybackConfig{Frames: 60, Untimed: true}})
		fired := vkx.Fired(call)
		vkx.ClearFaults()
		var ve *vkx.Error
		if err == nil || !errors.As(err, &ve) || ve.Call != call || !vkx.IsDeviceLost(err) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: Play returned %v, want one line naming %s and VK_ERROR_DEVICE_LOST", call, err, call)
		}
		if fired == 0 {
			t.Errorf("%s: the fault never fired", call)
		}
		if el := time.Since(start); el > 5*time.Second {
			t.Errorf("%s: took %s", call, el)
		}
		t.Logf("%s: %v after %.2fs", call, err, time.Since(start).Seconds())
	}
}
