// Package planes owns the Vulkan images a decoded picture lands in: the multi-planar image the
// sampler path samples through a Y′CbCr conversion (disjoint per-plane memory where the device
// offers it), the single-plane textures the shader path samples, and the uploads into them.
package planes
