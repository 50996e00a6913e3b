// Package vkx is the project's one cgo layer for Vulkan: the entry points vulkan-go lacks (Vulkan
// 1.1+ Y′CbCr conversion, the *2 queries, plane binding, host-pointer import, debug messenger,
// vkSetHdrMetadataEXT, Vulkan Video device creation), everything that submits to a queue (under the
// queue lock FFmpeg shares), and the calls per-frame code records whose vulkan-go wrappers take a
// slice of structs (barriers, copies, descriptor writes, render pass begin). docs/architecture.md,
// "Calling Vulkan", states the rule.
//
// The C files form a star: loader.c fills the one table of entry points (vkx.h: VkxTable, from the
// loader's exported trampolines; extensions through vkGetInstanceProcAddr/vkGetDeviceProcAddr), and
// each other file calls Vulkan only through that table and calls no other file's functions:
//
//	device.c    physical-device queries, device creation, conversions, plane binding, views
//	video.c     the Vulkan Video device (video.h: FFmpeg's headers carry the video structs)
//	import.c    host-pointer import, external images
//	messages.c  the debug messenger and its message queue, the two known FFmpeg messages
//	queue.c     the queue lock and what takes it: submit, present, device wait idle
//	pipeline.c  graphics and compute pipelines, the pipeline cache
//	commands.c  per-frame recording (barriers, uploads, copies, render pass begin, viewport) and
//	            descriptor writes
//	pass.c      the per-frame recording of compute passes over storage buffers (their layouts, sets
//	            and pipelines are gpu.Kit's)
//
// Each Go file wraps the C file of the same name (vkx.go wraps loader.c). Structs with pNext chains
// live on the C stack, never in Go memory.
package vkx
