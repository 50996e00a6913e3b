// Package player ties decoding, upload, conversion and presentation together: frames come from a
// Source on their own goroutine through a bounded queue, are uploaded into a few frame slots (so
// the CPU fills one while the GPU reads another), converted through the chosen path and drawn
// letterboxed into a swapchain image or an offscreen target, paced by presentation timestamps.
package player
