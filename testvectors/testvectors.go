// Package testvectors embeds the small test data that tests in several packages share. The media
// files and their expected pictures live in media/ (see README.md).
package testvectors

import _ "embed"

// Example4x2 is ycbcr-example-4x2.json: the worked example of docs/ycbcr-math.md §8, a 4×2 4:2:0
// 8-bit picture with its exact BT.709 narrow-range R′G′B′ at every luma texel centre for the
// MIDPOINT and COSITED_EVEN chroma offsets, worked out by hand from the Vulkan specification's
// formulas (not by this project's code), and the CTS-model bounds around them.
//
//go:embed ycbcr-example-4x2.json
var Example4x2 []byte
