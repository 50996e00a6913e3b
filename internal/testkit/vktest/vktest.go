// Package vktest opens the Vulkan device tests run on: validation layer on, and any validation
// message fails the test that caused it. A missing device fails the test; it never skips.
package vktest

import (
	"testing"

	"github.com/ycbcrkit/ycbcrkit/gpu"
)

// Open opens the default device (lavapipe in CI) with validation, closing it when the test ends.
func Open(t testing.TB) *gpu.Device {
	t.Helper()
	return OpenWith(t, gpu.Options{})
}

// OpenWith is Open with opts (Frames, Video, ...); the default device and validation always.
func OpenWith(t testing.TB, opts gpu.Options) *gpu.Device {
	t.Helper()
	opts.Index, opts.Validation = -1, true
	d, err := gpu.Open(opts)
	if err != nil {
		t.Fatalf("vktest: no usable Vulkan device: %v", err)
	}
	t.Cleanup(func() {
		d.Close()
		Check(t, d)
	})
	return d
}

// Check fails t for every validation message queued since the last check.
func Check(t testing.TB, d *gpu.Device) {
	t.Helper()
	for _, m := range d.ValidationMessages() {
		t.Errorf("validation %s", m.Text)
	}
}
