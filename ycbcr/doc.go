// Package ycbcr turns Y′CbCr planes into R′G′B′ on the GPU, two ways: the sampler path (a cached
// VkSamplerYcbcrConversion, its immutable sampler folded into the set and pipeline layouts) and the
// shader path (plain textures, constants computed from the pixel-format table and the metadata),
// each drawn or as a compute dispatch; and the shader path's buffer variant (BufferPath), which reads
// the planes' bytes from storage buffers — the decoder's own memory, imported — with no image at all.
// SamplerKey says whether the sampler can express a stream exactly, or why not; Choose is the
// toolkit's one path choice (the path of stream.Plan). Paths holds both paths for a user's life
// (a stream.Stream's); Converter is Paths for tests, demos and the checker, which convert single
// pictures and wait for the device before freeing them. The CPU oracle all are checked against lives in ycbcr/oracle, and the
// glue between the two in the checker, ycbcr/check.
package ycbcr
