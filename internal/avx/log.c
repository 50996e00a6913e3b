// FFmpeg's log, routed to Go (log.go) with the input each message belongs to.
#include <stdio.h>
#include <string.h>

#include <libavutil/log.h>

#include "avx.h"

extern void avxLogMessage(uintptr_t owner, int level, char *item, char *fmt, char *msg);

// The head of libavformat's URLContext (libavformat/url.h in FFmpeg 7.1; private to libavformat, so
// mirrored here; avx.h pins the major versions). A protocol (udp, tcp, http) logs with its
// URLContext, whose interrupt_callback is the one of the format context that opened it
// (ffurl_open_whitelist copies it).
typedef struct AvxURLHead {
	const AVClass *av_class;
	const void *prot;
	void *priv_data;
	char *filename;
	int flags;
	int max_packet_size;
	int is_streamed;
	int is_connected;
	AVIOInterruptCB interrupt_callback;
} AvxURLHead;

// The owner of what this thread logs while no context names one: avx_find_stream_info's, whose
// probing decoders are FFmpeg's own codec contexts (no pool of ours).
static __thread uintptr_t thread_owner;

int avx_find_stream_info(AVFormatContext *fc) {
	thread_owner = (uintptr_t)avx_interrupt_of(&fc->interrupt_callback);
	int ret = avformat_find_stream_info(fc, NULL);
	thread_owner = 0;
	return ret;
}

int avx_open_input(AVFormatContext **fc, const char *url, AVDictionary **opts) {
	thread_owner = (uintptr_t)avx_interrupt_of(&(*fc)->interrupt_callback);
	int ret = avformat_open_input(fc, url, NULL, opts);
	thread_owner = 0;
	return ret;
}

uintptr_t avx_log_owner(void *avcl) {
	// A context with a parent (AVClass.parent_log_context_offset) logs for it: a few levels at most.
	for (int depth = 0; avcl && depth < 4; depth++) {
		const AVClass *c = *(const AVClass **)avcl;
		if (!c)
			return 0;
		if (c == avformat_get_class()) // a demuxer; HLS's nested ones share their parent's callback
			return (uintptr_t)avx_interrupt_of(&((const AVFormatContext *)avcl)->interrupt_callback);
		if (c == avcodec_get_class()) // the decoder, or one of its frame threads' copies
			return (uintptr_t)avx_pool_of(avcl);
		if (!strcmp(c->class_name, "URLContext"))
			return (uintptr_t)avx_interrupt_of(&((const AvxURLHead *)avcl)->interrupt_callback);
		if (!strcmp(c->class_name, "AVIOContext")) { // FFmpeg's own (ffio_fdopen): opaque is its URLContext
			avcl = ((AVIOContext *)avcl)->opaque;
			continue;
		}
		if (c->parent_log_context_offset <= 0)
			return 0;
		avcl = *(void **)((uint8_t *)avcl + c->parent_log_context_offset);
	}
	return 0;
}

// log_cb runs on whichever thread logs: the decoding goroutine's, FFmpeg's frame threads, the UDP
// protocol's receiving thread. Below warnings nothing is formatted.
static void log_cb(void *avcl, int level, const char *fmt, va_list vl) {
	if (level > AV_LOG_WARNING || !fmt)
		return;
	char msg[512];
	vsnprintf(msg, sizeof msg, fmt, vl);
	const char *item = "";
	if (avcl) {
		const AVClass *c = *(const AVClass **)avcl;
		if (c)
			item = c->item_name ? c->item_name(avcl) : c->class_name;
	}
	uintptr_t owner = avx_log_owner(avcl);
	avxLogMessage(owner ? owner : thread_owner, level, (char *)item, (char *)fmt, msg);
}

void avx_log_capture(void) { av_log_set_callback(log_cb); }
void avx_log_release(void) { av_log_set_callback(av_log_default_callback); }
