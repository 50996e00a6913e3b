// Package stream owns a stream of pictures on the GPU, for every consumer (the player, the engine
// texture, the benchmark): Configure chooses the path (ycbcr.Choose) and makes each slot's images
// and bindings; the Ring of slots holds each frame's command buffer, fence and semaphore and
// retires what a frame used (decoded frames, import holds, replaced images and conversions) on the
// fence of the last submission that used it, so nothing waits for the device except Close.
package stream
