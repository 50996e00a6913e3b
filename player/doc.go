// Package player ties decoding, upload, conversion and presentation together: frames come from a
// Source on their own goroutine through a bounded queue (package pump), go through a
// stream.Stream (its slots let the CPU fill one while the GPU reads another, and release each frame
// on its slot's fence), are converted through the chosen path and drawn letterboxed into a
// swapchain image or an offscreen target, paced by presentation timestamps.
package player
