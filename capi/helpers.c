// helpers.c: the C half of capi: the per-thread error text, sized struct copies (the ABI rule in
// ycbcrkit.h) and calls through the engine's function pointers, which Go cannot make itself.
#include <stdio.h>
#include <string.h>
#include "internal.h"

static _Thread_local char last_error[1024];

const char *yk_last_error(void) { return last_error; }

void yk__set_error(const char *text) { snprintf(last_error, sizeof last_error, "%s", text ? text : ""); }

// yk__load copies the caller's struct src into dst (zeroed first): src's size bytes, 0 meaning the
// ABI 1.0 size. A larger src than the library knows is accepted when the bytes it does not know are
// zero. NULL src leaves dst zeroed. Returns 0, or -1 for a struct newer than the library.
int yk__load(void *dst, size_t dst_size, size_t v1_size, const void *src) {
	memset(dst, 0, dst_size);
	if (!src)
		return 0;
	size_t n = *(const uint32_t *)src;
	if (n == 0)
		n = v1_size;
	for (size_t i = dst_size; i < n; i++)
		if (((const unsigned char *)src)[i])
			return -1;
	memcpy(dst, src, n < dst_size ? n : dst_size);
	return 0;
}

// yk__store writes src into the caller's dst, at most dst's size bytes (0: the ABI 1.0 size),
// leaving dst's size field as the caller set it; fields the library does not know are zeroed.
void yk__store(void *dst, const void *src, size_t src_size, size_t v1_size) {
	size_t n = *(uint32_t *)dst;
	if (n == 0)
		n = v1_size;
	if (n > src_size) {
		memset((char *)dst + src_size, 0, n - src_size);
		n = src_size;
	}
	if (n > sizeof(uint32_t))
		memcpy((char *)dst + sizeof(uint32_t), (const char *)src + sizeof(uint32_t), n - sizeof(uint32_t));
}

void yk__call_lock(yk_lock_fn fn, void *user) { fn(user); }

void yk__call_audio(yk_audio_fn fn, void *user, int64_t pts_ns, const float *samples, uint32_t frames,
                    uint32_t channels, uint32_t rate) {
	fn(user, pts_ns, samples, frames, channels, rate);
}

const char *yk__string_at(const char *const *list, uint32_t i) { return list[i]; }
