// Package formats describes pixel layouts and colour metadata as data. It is pure Go: no cgo and
// nothing outside the standard library, so every other package (and its tests) can use it.
//
// It owns:
//
//   - the pixel-format table (table.go): for each FFmpeg layout the toolkit supports, its planes, the
//     VkFormat and swizzle the sampler path uses, and the textures and components the shader path
//     reads. The table is the one place that knows layouts; nothing else hard-codes plane counts,
//     formats or Cb/Cr order.
//   - the Vulkan side as plain values (vulkan.go): VkFormat constants and the facts of every format
//     that requires a sampler Y′CbCr conversion, for enumerating what a device offers, and the
//     conversion's model, range and chroma-offset enums.
//   - colour metadata (color.go) with FFmpeg's values and names, its mapping to the Vulkan enums with a
//     reason for every value that has none, and the rule for unspecified values (defaults.go).
//
// The reference for every mapping is docs/ycbcr-math.md §1, §2 and §7.
package formats
