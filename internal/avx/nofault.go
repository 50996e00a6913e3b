//go:build !ycbcrkit_faults

package avx

// HWFailureDue is false: injected hardware failures exist only in test builds (fault.go, -tags
// ycbcrkit_faults).
func HWFailureDue() bool { return false }
