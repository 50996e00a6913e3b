//go:build ycbcrkit_faults

package avx

import "sync"

// A hardware decoding failure on demand, for tests of the software fallback: a real Vulkan Video
// failure mid-stream (a lost device, a failed submission) cannot be caused on purpose, and lavapipe
// has no Vulkan Video at all. The decoder asks HWFailureDue for each frame avcodec_receive_frame
// gives it; when it says yes the frame is dropped and the decoder goes down the path of a hardware
// failure (the error FFmpeg's Vulkan hwaccel returns for a failed Vulkan call, AVERROR_EXTERNAL),
// whether or not the frame came from the hardware.
//
// A test hook: compiled only with -tags ycbcrkit_faults (scripts/test.sh sets it; the tests that
// inject failures carry the same tag). Without it HWFailureDue is a constant false (nofault.go).

var (
	faultMu    sync.Mutex
	faultAfter = -1 // frames that pass before the failure; -1: none armed
	faultFired int
)

// InjectHWFailure makes the decoder's frame after the first afterN frames a hardware decoding
// failure, once (the decoder falls back to software, which does not fail again).
func InjectHWFailure(afterN int) {
	faultMu.Lock()
	defer faultMu.Unlock()
	faultAfter, faultFired = afterN, 0
}

// ClearHWFailure disarms InjectHWFailure.
func ClearHWFailure() { InjectHWFailure(-1) }

// HWFailureFired is how many failures were injected since InjectHWFailure.
func HWFailureFired() int {
	faultMu.Lock()
	defer faultMu.Unlock()
	return faultFired
}

// HWFailureDue counts one received frame and reports whether it is the one to fail.
func HWFailureDue() bool {
	faultMu.Lock()
	defer faultMu.Unlock()
	if faultAfter < 0 {
		return false
	}
	if faultAfter == 0 {
		faultAfter, faultFired = -1, faultFired+1
		return true
	}
	faultAfter--
	return false
}
