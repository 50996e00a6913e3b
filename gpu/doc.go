// Package gpu is the toolkit's GPU context: the Vulkan instance and device (opened, or wrapped
// from an engine that owns them), the queue, memory types and buffers, fences, semaphores and
// command buffers, GPU timers, render passes, framebuffers and offscreen render targets with
// read-back, and the pipeline cache every pipeline is made through (kept between runs in
// Options.CacheDir, one file per device, checked against the driver's header before use). Every
// other package draws on the device through it; presentation (swapchain, window) is package
// present, which the core packages do not import.
package gpu
