// internal.h: what capi's Go files call in C besides ycbcrkit.h (helpers.c defines them). Not
// installed.
#ifndef YCBCRKIT_CAPI_INTERNAL_H
#define YCBCRKIT_CAPI_INTERNAL_H
#include "ycbcrkit.h"

// const-qualified names for cgo: an exported Go function's parameter of these types gets the
// header's const in the generated prototype, so ycbcrkit.h's prototypes and cgo's agree (the
// compiler checks one against the other when both are in one file).
typedef const char yk__const_char;
typedef const yk_requirements_params yk__const_requirements_params;
typedef const yk_engine_params yk__const_engine_params;
typedef const yk_open_params yk__const_open_params;
typedef const yk_acquire_params yk__const_acquire_params;
typedef const yk_release_params yk__const_release_params;
typedef const yk_frame yk__const_frame;
typedef const yk_draw_params yk__const_draw_params;

void yk__set_error(const char *text);
int yk__load(void *dst, size_t dst_size, size_t v1_size, const void *src);
void yk__store(void *dst, const void *src, size_t src_size, size_t v1_size);
void yk__call_lock(yk_lock_fn fn, void *user);
void yk__call_audio(yk_audio_fn fn, void *user, int64_t pts_ns, const float *samples, uint32_t frames,
                    uint32_t channels, uint32_t rate);
const char *yk__string_at(const char *const *list, uint32_t i);
#endif
