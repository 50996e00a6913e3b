// png.h: writes an RGBA8 picture as a PNG file (png.c).
#ifndef ENGINE_C_PNG_H
#define ENGINE_C_PNG_H
#include <stdint.h>

// png_write writes width × height RGBA8 pixels (rows packed, top first) to path: 0, or -1 on an
// I/O error.
int png_write(const char *path, const void *rgba, uint32_t width, uint32_t height);
#endif
