// Package wall plays many videos at once on one Vulkan device, each in its tile of one canvas: a
// video wall (camera walls, broadcast multiviewers) and the toolkit's measure of how many streams a
// GPU's decoders carry.
//
// Every input has its own decoder (Vulkan Video on the wall's device where it decodes the stream,
// software otherwise), opened side by side with the others (a live input down at the start is
// opened later by its pump: openInputs), its own pump (package pump: goroutine, bounded queue of
// decoded pictures, a live input's reconnection), and its own stream.Stream; all streams share one set of conversion paths (the sampler path's conversion cache
// and the shader path's pipelines) and the device's pipeline cache. Each display step draws every
// stream that has a new picture into its tile of the canvas through a render pass that keeps what
// the other tiles hold. Each decoder submits to a queue of the decode family of its own choosing
// (the least used), moves to one a stream that ended freed, and swaps with one of its device
// when streams on busier engines fall behind (internal/avx/hw.c); the canvas is
// what a window shows (scaled) and what a screenshot reads back. H.264
// streams beyond two a decode queue decode on more devices of the GPU, each picture copied to the
// wall's device (Options.DecodeDevices or OpenDecodeDevice, stream.Relay), as NVIDIA's driver
// decodes more H.264 on several devices than on one. A Split spreads the inputs over several
// devices of one GPU (a Wall each, on the whole wall's layout, stepped side by side).
//
// Layout: cells on a grid whose unit is the largest picture's size, the most nearly square uniform
// grid by default or a Layout of cells of different sizes (ParseLayout: the presets 1+5, 1+7,
// 2x2+8, a COLSxROWS grid, or a file of "x y w h" lines). Each picture is fitted to its cell as
// multiviewers do (aspect kept, letterboxed) through the player's scale pass (stream.Frame.Scale),
// whatever its size; a picture of its cell's size is drawn (or computed) one pixel for one pixel, so
// that a tile is the picture ycbcrplay shows for the same frame; Options.OneToOne draws every one so.
//
// Clocks: untimed, every stream advances as fast as it decodes (the throughput measurement);
// timed, each stream shows the picture its own clock has reached (started at its first picture,
// on the steps' grid: clock.go), or all follow one clock (Options.OneClock: a wall of cameras);
// SetPaused stops the clocks. Prepare configures every stream before the first step and lets its
// decoder run ahead by a picture a slot (warm: FFmpeg's frames pools grow then, not under the
// clocks), recording the held pictures' frames (stream.Prerecord). A timed
// step (Tick) never waits: a stream whose next picture is not decoded, or whose slots are all still
// on the GPU, is passed over while the others are drawn, and what it drops meanwhile is counted
// with its reason (late decode, late display, late conversion: Stats); it waits only for a
// picture's lock, which passing over would drop. An untimed step (Step) passes over that too: a
// picture its decoder holds (the lock, or a decoding that reads it unfinished: tile.hold). The steps
// run on one thread (LockSteps), kept off the CPUs that take the GPU's interrupts.
//
// A Display shows the wall in a window's swapchain: the grid, or one tile alone, copied out of the
// canvas, scaled to fit by the player's scale pass and letterboxed, with each tile's label (number,
// name, pictures per second, dropped pictures, decoder, route or upload, conversion path, and its
// signal state: a stream without a new picture for NoSignalAfter is dimmed, "no signal" and the
// seconds since) drawn at its bottom centre by the on-screen display's text pass, and under a tile
// shown alone the caller's View.Note (ycbcrwall's "no sound").
//
// Media is where a tile is in its input on its clock, for a client that follows one tile
// (ycbcrwall plays the picked tile's sound on it); Info and Label describe the tile's input.
package wall
