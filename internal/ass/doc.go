// Package ass is the thin cgo leaf that renders text subtitles with libass
// (https://github.com/libass/libass): ASS/SSA scripts, and every other text format once FFmpeg's
// decoders have turned it into ASS events.
//
// libass.so.9 is loaded at run time by internal/dl (as libpulse and the Vulkan loader are): the
// programs link no libass and run where it is not installed; Load then returns an error and the
// caller shows no text subtitles. The prototypes it uses are declared in ass.h, so the build needs
// no libass headers either. Fonts come through fontconfig (libass's font provider "autodetect").
//
// A Library's renderers and tracks are not safe for concurrent use: the caller serializes every call
// on one Library and what it made.
package ass
