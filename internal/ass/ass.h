// ass.h: the few libass declarations the package uses, written out here so that the build needs no
// libass headers and the programs link no libass: the library is loaded at run time (dlopen). The
// types and prototypes are those of libass's public header ass/ass.h, whose ABI libass.so.9 keeps
// (https://github.com/libass/libass, ass.h and ass_types.h).
#ifndef YCBCRKIT_ASS_H
#define YCBCRKIT_ASS_H
#include <stddef.h>
#include <stdint.h>

typedef struct ass_library ASS_Library;
typedef struct ass_renderer ASS_Renderer;
typedef struct ass_track ASS_Track;

// One alpha bitmap of a rendered frame, drawn in one colour (ass.h, ASS_Image).
typedef struct ass_image {
	int w, h;              // the bitmap's size in pixels
	int stride;            // bytes from one row to the next
	unsigned char *bitmap; // coverage, one byte per pixel
	uint32_t color;        // 0xRRGGBBTT: TT is transparency (0 opaque, 255 invisible)
	int dst_x, dst_y;      // where its top left goes in the frame
	struct ass_image *next;
	int type; // character, outline, shadow
} ASS_Image;

extern char *const yca_funcs[];  // the libass functions ass.c calls, ending in NULL (for internal/dl)
void yca_bind(void *const *fns); // their addresses, in yca_funcs' order

ASS_Library *yca_library_new(void);
void yca_library_done(ASS_Library *l);
ASS_Renderer *yca_renderer_new(ASS_Library *l, const char *family);
void yca_renderer_done(ASS_Renderer *r);
void yca_set_frame_size(ASS_Renderer *r, int w, int h);
void yca_set_storage_size(ASS_Renderer *r, int w, int h);
void yca_set_margins(ASS_Renderer *r, int t, int b, int left, int right);
void yca_set_font_scale(ASS_Renderer *r, double s);
ASS_Image *yca_render_frame(ASS_Renderer *r, ASS_Track *t, long long now, int *changed);

ASS_Track *yca_new_track(ASS_Library *l);
ASS_Track *yca_read_memory(ASS_Library *l, char *buf, size_t size);
void yca_free_track(ASS_Track *t);
void yca_process_codec_private(ASS_Track *t, char *data, int size);
void yca_process_chunk(ASS_Track *t, char *data, int size, long long start, long long duration);
void yca_flush_events(ASS_Track *t);
#endif
