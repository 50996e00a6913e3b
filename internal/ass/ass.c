// ass.c: libass loaded with dlopen (internal/dl); each yca_ function calls the libass function it
// names.
#include <stdarg.h>
#include <stdio.h>
#include "ass.h"

// ASS_DefaultFontProvider's ASS_FONTPROVIDER_AUTODETECT: fontconfig on Linux.
#define ASS_FONTPROVIDER_AUTODETECT 1

typedef void (*ass_msg_cb)(int level, const char *fmt, va_list args, void *data);

#define FUNCS(X) \
	X(ASS_Library *, ass_library_init, (void)) \
	X(void, ass_library_done, (ASS_Library *)) \
	X(void, ass_set_message_cb, (ASS_Library *, ass_msg_cb, void *)) \
	X(ASS_Renderer *, ass_renderer_init, (ASS_Library *)) \
	X(void, ass_renderer_done, (ASS_Renderer *)) \
	X(void, ass_set_frame_size, (ASS_Renderer *, int, int)) \
	X(void, ass_set_storage_size, (ASS_Renderer *, int, int)) \
	X(void, ass_set_margins, (ASS_Renderer *, int, int, int, int)) \
	X(void, ass_set_use_margins, (ASS_Renderer *, int)) \
	X(void, ass_set_font_scale, (ASS_Renderer *, double)) \
	X(void, ass_set_fonts, (ASS_Renderer *, const char *, const char *, int, const char *, int)) \
	X(ASS_Image *, ass_render_frame, (ASS_Renderer *, ASS_Track *, long long, int *)) \
	X(ASS_Track *, ass_new_track, (ASS_Library *)) \
	X(ASS_Track *, ass_read_memory, (ASS_Library *, char *, size_t, char *)) \
	X(void, ass_free_track, (ASS_Track *)) \
	X(void, ass_process_codec_private, (ASS_Track *, char *, int)) \
	X(void, ass_process_chunk, (ASS_Track *, char *, int, long long, long long)) \
	X(void, ass_flush_events, (ASS_Track *))

#define DECLARE(ret, name, args) static ret(*p_##name) args;
FUNCS(DECLARE)

#define NAME(ret, name, args) #name,
char *const yca_funcs[] = {FUNCS(NAME) NULL};

void yca_bind(void *const *fns) {
	int i = 0;
#define BIND(ret, name, args) p_##name = (ret(*) args)fns[i++];
	FUNCS(BIND)
}

// libass writes its messages to stderr at every level by default; a player shows only errors
// (levels 0 fatal and 1 error of ass.h's scale, where 7 is debug).
static void messages(int level, const char *fmt, va_list args, void *data) {
	(void)data;
	if (level > 1) return;
	fputs("libass: ", stderr);
	vfprintf(stderr, fmt, args);
	fputc('\n', stderr);
}

ASS_Library *yca_library_new(void) {
	ASS_Library *l = p_ass_library_init();
	if (l) p_ass_set_message_cb(l, messages, NULL);
	return l;
}
void yca_library_done(ASS_Library *l) { p_ass_library_done(l); }

ASS_Renderer *yca_renderer_new(ASS_Library *l, const char *family) {
	ASS_Renderer *r = p_ass_renderer_init(l);
	if (!r) return NULL;
	// Fonts through fontconfig; family is the fallback for styles whose font is missing. With
	// use_margins off, text stays inside the picture (the frame less the margins), as in mpv.
	p_ass_set_fonts(r, NULL, family, ASS_FONTPROVIDER_AUTODETECT, NULL, 1);
	p_ass_set_use_margins(r, 0);
	return r;
}
void yca_renderer_done(ASS_Renderer *r) { p_ass_renderer_done(r); }
void yca_set_frame_size(ASS_Renderer *r, int w, int h) { p_ass_set_frame_size(r, w, h); }
void yca_set_storage_size(ASS_Renderer *r, int w, int h) { p_ass_set_storage_size(r, w, h); }
void yca_set_margins(ASS_Renderer *r, int t, int b, int left, int right) { p_ass_set_margins(r, t, b, left, right); }
void yca_set_font_scale(ASS_Renderer *r, double s) { p_ass_set_font_scale(r, s); }
ASS_Image *yca_render_frame(ASS_Renderer *r, ASS_Track *t, long long now, int *changed) {
	return p_ass_render_frame(r, t, now, changed);
}

ASS_Track *yca_new_track(ASS_Library *l) { return p_ass_new_track(l); }
ASS_Track *yca_read_memory(ASS_Library *l, char *buf, size_t size) { return p_ass_read_memory(l, buf, size, NULL); }
void yca_free_track(ASS_Track *t) { p_ass_free_track(t); }
void yca_process_codec_private(ASS_Track *t, char *data, int size) { p_ass_process_codec_private(t, data, size); }
void yca_process_chunk(ASS_Track *t, char *data, int size, long long start, long long duration) {
	p_ass_process_chunk(t, data, size, start, duration);
}
void yca_flush_events(ASS_Track *t) { p_ass_flush_events(t); }
