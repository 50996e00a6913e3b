// Package ycbcr turns Y′CbCr planes into R′G′B′ on the GPU, two ways: the sampler path (a cached
// VkSamplerYcbcrConversion, its immutable sampler folded into the set and pipeline layouts) and the
// shader path (plain textures, constants computed from the pixel-format table and the metadata),
// each drawn or as a compute dispatch; and the shader path's buffer variant (BufferPath), which reads
// the planes' bytes from storage buffers — the decoder's own memory, imported — with no image at all.
// SamplerKey says whether the sampler can express a stream exactly, or why not; Choose is the
// toolkit's one path choice (the path of stream.Plan). Paths holds both paths for a user's life: a
// stream.Stream's (its own, or shared by the streams of a wall or a videotex.Engine), or a
// single-picture converter's (tests, demos, screenshots: Paths.Convert waits for its own
// submission). The CPU oracle all are checked against lives in ycbcr/oracle, and the
// glue between the two in the checker, ycbcr/check.
package ycbcr
