// Package vkx is the thin cgo layer for the Vulkan entry points vulkan-go lacks (Vulkan 1.1 Y′CbCr
// conversion, *2 queries, plane binding, host-pointer import, headless surface, debug messenger,
// vkSetHdrMetadataEXT).
// It dlopens libvulkan.so.1, looks functions up with vkGetInstanceProcAddr/vkGetDeviceProcAddr and
// calls them from C, so that pNext chains never live in Go memory. It also records, in C, the calls
// vulkan-go makes unsafe (calls.c) and the compute passes over storage buffers (pass.c). Nothing else
// in the project uses cgo for Vulkan.
package vkx
