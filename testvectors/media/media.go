// Package media embeds the bundled default clip, so that ycbcrplay plays something from any
// directory. The other files here are test vectors made by ../make.sh (see ../README.md).
package media

import _ "embed"

// DefaultClip is default.mkv: a few seconds of H.264 with real motion (see ../README.md).
//
//go:embed default.mkv
var DefaultClip []byte
