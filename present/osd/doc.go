// Package osd is the player's on-screen display: text rasterized from a real font (the Go fonts,
// through golang.org/x/image/font/opentype) into one R8 atlas texture, laid out as quads on a
// Canvas, and drawn by one blended pass (Pass) over the video, into the same render pass.
package osd
