// Package planes owns the Vulkan images a decoded picture lands in: the multi-planar image the
// sampler path samples through a Y′CbCr conversion (disjoint per-plane memory where the device
// offers it), the single-plane textures the shader path samples — ALIAS_BIT images on the planes'
// own memory when an image serves both paths, so one upload fills both — and the uploads into them:
// copy through a staging buffer, or import of the decoder's memory with the GPU copying (and, for
// LSB-aligned layouts on the sampler path, shifting) from it. Importer.Import also hands a frame's
// imported planes to passes that read them directly (ycbcr.BufferPath).
package planes
