// Package wall plays many videos at once on one Vulkan device, each in its tile of one canvas: a
// video wall (camera walls, broadcast multiviewers) and the toolkit's measure of how many streams a
// GPU's decoders carry.
//
// Every input has its own decoder (Vulkan Video on the wall's device where it decodes the stream,
// software otherwise), its own goroutine and queue of decoded pictures, and its own stream.Stream;
// all streams share one set of conversion paths (the sampler path's conversion cache and the
// shader path's pipelines) and the device's pipeline cache. Each display step draws every stream
// that has a new picture into its tile of the canvas, at the picture's own size (one pixel for one
// pixel, so a tile is the picture ycbcrplay shows for the same frame), through a render pass that
// keeps what the other tiles hold. FFmpeg spreads each decoder's submissions over the decode queue
// family's queues; the canvas is what a window shows (scaled) and what a screenshot reads back.
//
// Clocks: untimed, every stream advances as fast as it decodes (the throughput measurement);
// timed, each stream shows the picture its own clock has reached (started at its first picture),
// or all follow one clock (Options.OneClock: a wall of cameras); SetPaused stops the clocks.
//
// A Display shows the wall in a window's swapchain: the grid, or one tile alone, copied out of the
// canvas, scaled to fit by the player's scale pass and letterboxed, with each tile's label (number,
// name, pictures per second, decoder, route or upload, conversion path) drawn by the on-screen
// display's text pass.
package wall
