// Package bench measures what putting YUV video on the GPU costs through ycbcrkit's two conversion
// paths: GPU time of the conversion draw alone (sampler path and shader path), the upload (the CPU
// copy into the staging buffer and the GPU's buffer→image copies), end-to-end offscreen frame rate
// with frames in flight, and the two ceilings those numbers are read against (device memory
// bandwidth and host→device bandwidth, both measured on the same device in the same run).
//
// Frames go through a stream.Stream, the engine the player and videotex drive (its slots are the
// image sets the timed frames rotate through); bench adds its timestamps around the piece it times
// and its own targets.
//
// GPU intervals come from timestamp queries written at BOTTOM_OF_PIPE after a full execution
// barrier, so each interval holds one piece of work and nothing that overlaps it: the numbers are
// the cost of that work alone, not of a pipeline where the next frame's copies hide under this
// frame's draw (the end-to-end figure measures that).
package bench
