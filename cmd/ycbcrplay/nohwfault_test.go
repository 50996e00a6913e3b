//go:build !ycbcrkit_faults

package main

import (
	"fmt"
	"os"
)

// injectHWFailure: hardware failures are injected only in builds with -tags ycbcrkit_faults
// (internal/avx/fault.go).
func injectHWFailure(int) {
	fmt.Fprintln(os.Stderr, "YCBCRPLAY_TEST_HWFAIL needs a test binary built with -tags ycbcrkit_faults")
	os.Exit(3)
}
