// Package dl is the thin cgo leaf that opens a shared library at run time (dlopen) and looks up its
// functions (dlsym), for the leaves that call a C library the programs do not link: internal/vkx
// (the Vulkan loader), internal/ass (libass), internal/pulse (libpulse) and internal/lcms
// (LittleCMS). Where the library is missing, or too old to have every function, the program runs on
// and says why (no Vulkan: an error; no libass: no text subtitles; no libpulse: no sound; no
// LittleCMS: an error only when an ICC profile is asked for).
//
// A leaf lists its functions once, as a C X-macro; from it its C side makes the NULL-terminated
// array of names that Open looks up and a bind function that stores the addresses Open returns in
// its function pointers, which it calls through.
package dl
