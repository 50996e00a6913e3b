// pulse.c: PulseAudio's asynchronous API with a threaded main loop, loaded with dlopen (internal/dl).
// The pattern is the one PulseAudio documents for pa_threaded_mainloop
// (https://freedesktop.org/software/pulseaudio/doxygen/threaded_mainloop.html): every call into the
// library is made with the main loop's lock held; callbacks (run on the main loop's thread, lock held)
// only signal; waiters sleep in pa_threaded_mainloop_wait.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pulse.h"

// Opaque library types.
typedef struct pa_threaded_mainloop pa_threaded_mainloop;
typedef struct pa_mainloop_api pa_mainloop_api;
typedef struct pa_context pa_context;
typedef struct pa_stream pa_stream;
typedef struct pa_operation pa_operation;
typedef struct pa_spawn_api pa_spawn_api;
typedef struct pa_channel_map pa_channel_map;
typedef uint64_t pa_usec_t;
typedef uint32_t pa_volume_t;

// def.h, sample.h, volume.h
enum { PA_SAMPLE_FLOAT32LE = 5 };
enum { PA_CONTEXT_READY = 4, PA_CONTEXT_FAILED = 5, PA_CONTEXT_TERMINATED = 6 };
enum { PA_STREAM_READY = 2, PA_STREAM_FAILED = 3, PA_STREAM_TERMINATED = 4 };
enum { PA_OPERATION_RUNNING = 0 };
enum { PA_CONTEXT_NOAUTOSPAWN = 0x0001 };
enum {
	PA_STREAM_START_CORKED = 0x0001,
	PA_STREAM_INTERPOLATE_TIMING = 0x0002,
	PA_STREAM_AUTO_TIMING_UPDATE = 0x0008,
	PA_STREAM_VARIABLE_RATE = 0x0400,
	PA_STREAM_START_MUTED = 0x1000,
	PA_STREAM_ADJUST_LATENCY = 0x2000,
	PA_STREAM_START_UNMUTED = 0x10000,
};
enum { PA_SEEK_RELATIVE = 0 };
enum { PA_ERR_NODATA = 16, PA_ERR_BADSTATE = 15 };
#define PA_CHANNELS_MAX 32

typedef struct { int format; uint32_t rate; uint8_t channels; } pa_sample_spec;
typedef struct { uint32_t maxlength, tlength, prebuf, minreq, fragsize; } pa_buffer_attr;
typedef struct { uint8_t channels; pa_volume_t values[PA_CHANNELS_MAX]; } pa_cvolume;
typedef struct {
	struct timeval timestamp;
	int synchronized_clocks;
	pa_usec_t sink_usec, source_usec, transport_usec;
	int playing;
	int write_index_corrupt;
	int64_t write_index;
	int read_index_corrupt;
	int64_t read_index;
	pa_usec_t configured_sink_usec, configured_source_usec;
	int64_t since_underrun;
} pa_timing_info;

typedef void (*pa_context_notify_cb_t)(pa_context *c, void *userdata);
typedef void (*pa_stream_notify_cb_t)(pa_stream *s, void *userdata);
typedef void (*pa_stream_request_cb_t)(pa_stream *s, size_t nbytes, void *userdata);
typedef void (*pa_stream_success_cb_t)(pa_stream *s, int success, void *userdata);
typedef void (*pa_context_success_cb_t)(pa_context *c, int success, void *userdata);
typedef void (*pa_free_cb_t)(void *p);

#define FUNCS(X) \
	X(pa_threaded_mainloop *, pa_threaded_mainloop_new, (void)) \
	X(void, pa_threaded_mainloop_free, (pa_threaded_mainloop *)) \
	X(int, pa_threaded_mainloop_start, (pa_threaded_mainloop *)) \
	X(void, pa_threaded_mainloop_stop, (pa_threaded_mainloop *)) \
	X(void, pa_threaded_mainloop_lock, (pa_threaded_mainloop *)) \
	X(void, pa_threaded_mainloop_unlock, (pa_threaded_mainloop *)) \
	X(void, pa_threaded_mainloop_wait, (pa_threaded_mainloop *)) \
	X(void, pa_threaded_mainloop_signal, (pa_threaded_mainloop *, int)) \
	X(pa_mainloop_api *, pa_threaded_mainloop_get_api, (pa_threaded_mainloop *)) \
	X(pa_context *, pa_context_new, (pa_mainloop_api *, const char *)) \
	X(void, pa_context_unref, (pa_context *)) \
	X(void, pa_context_set_state_callback, (pa_context *, pa_context_notify_cb_t, void *)) \
	X(int, pa_context_connect, (pa_context *, const char *, int, const pa_spawn_api *)) \
	X(void, pa_context_disconnect, (pa_context *)) \
	X(int, pa_context_get_state, (const pa_context *)) \
	X(int, pa_context_errno, (const pa_context *)) \
	X(const char *, pa_context_get_server, (const pa_context *)) \
	X(const char *, pa_strerror, (int)) \
	X(pa_stream *, pa_stream_new, (pa_context *, const char *, const pa_sample_spec *, const pa_channel_map *)) \
	X(void, pa_stream_unref, (pa_stream *)) \
	X(int, pa_stream_connect_playback, (pa_stream *, const char *, const pa_buffer_attr *, int, const pa_cvolume *, pa_stream *)) \
	X(int, pa_stream_disconnect, (pa_stream *)) \
	X(int, pa_stream_get_state, (const pa_stream *)) \
	X(uint32_t, pa_stream_get_index, (const pa_stream *)) \
	X(const char *, pa_stream_get_device_name, (const pa_stream *)) \
	X(void, pa_stream_set_state_callback, (pa_stream *, pa_stream_notify_cb_t, void *)) \
	X(void, pa_stream_set_write_callback, (pa_stream *, pa_stream_request_cb_t, void *)) \
	X(void, pa_stream_set_underflow_callback, (pa_stream *, pa_stream_notify_cb_t, void *)) \
	X(size_t, pa_stream_writable_size, (const pa_stream *)) \
	X(int, pa_stream_write, (pa_stream *, const void *, size_t, pa_free_cb_t, int64_t, int)) \
	X(int, pa_stream_get_latency, (const pa_stream *, pa_usec_t *, int *)) \
	X(const pa_timing_info *, pa_stream_get_timing_info, (const pa_stream *)) \
	X(pa_operation *, pa_stream_update_timing_info, (pa_stream *, pa_stream_success_cb_t, void *)) \
	X(const pa_sample_spec *, pa_stream_get_sample_spec, (pa_stream *)) \
	X(pa_operation *, pa_stream_cork, (pa_stream *, int, pa_stream_success_cb_t, void *)) \
	X(pa_operation *, pa_stream_trigger, (pa_stream *, pa_stream_success_cb_t, void *)) \
	X(pa_operation *, pa_stream_update_sample_rate, (pa_stream *, uint32_t, pa_stream_success_cb_t, void *)) \
	X(pa_operation *, pa_context_set_sink_input_volume, (pa_context *, uint32_t, const pa_cvolume *, pa_context_success_cb_t, void *)) \
	X(pa_operation *, pa_context_set_sink_input_mute, (pa_context *, uint32_t, int, pa_context_success_cb_t, void *)) \
	X(pa_cvolume *, pa_cvolume_set, (pa_cvolume *, unsigned, pa_volume_t)) \
	X(int, pa_operation_get_state, (const pa_operation *)) \
	X(void, pa_operation_unref, (pa_operation *))

#define DECLARE(ret, name, args) static ret(*p_##name) args;
FUNCS(DECLARE)

#define NAME(ret, name, args) #name,
char *const ycp_funcs[] = {FUNCS(NAME) NULL};

void ycp_bind(void *const *fns) {
	int i = 0;
#define BIND(ret, name, args) p_##name = (ret(*) args)fns[i++];
	FUNCS(BIND)
}

const char *ycp_strerror(int e) { return p_pa_strerror ? p_pa_strerror(e) : "libpulse not loaded"; }

struct ycp_ctx {
	pa_threaded_mainloop *ml;
	pa_context *c;
};

struct ycp_stream {
	ycp_ctx *x;
	pa_stream *s;
	int woken;
	int underflows;
	struct timeval asked; // when the last timing update was requested
	uint8_t channels;
};

static void ctx_state_cb(pa_context *c, void *u) { p_pa_threaded_mainloop_signal(((ycp_ctx *)u)->ml, 0); }
static void stream_state_cb(pa_stream *s, void *u) { p_pa_threaded_mainloop_signal(((ycp_stream *)u)->x->ml, 0); }
static void write_cb(pa_stream *s, size_t n, void *u) { p_pa_threaded_mainloop_signal(((ycp_stream *)u)->x->ml, 0); }
static void underflow_cb(pa_stream *s, void *u) {
	ycp_stream *y = u;
	y->underflows++;
	p_pa_threaded_mainloop_signal(y->x->ml, 0);
}
static void success_cb(pa_stream *s, int ok, void *u) { p_pa_threaded_mainloop_signal(((ycp_stream *)u)->x->ml, 0); }

ycp_ctx *ycp_connect(const char *app, const char *server, int *err) {
	ycp_ctx *x = calloc(1, sizeof *x);
	if (!x) return NULL;
	x->ml = p_pa_threaded_mainloop_new();
	if (!x->ml) {
		free(x);
		*err = -1;
		return NULL;
	}
	x->c = p_pa_context_new(p_pa_threaded_mainloop_get_api(x->ml), app);
	if (!x->c) {
		p_pa_threaded_mainloop_free(x->ml);
		free(x);
		*err = -1;
		return NULL;
	}
	p_pa_context_set_state_callback(x->c, ctx_state_cb, x);
	p_pa_threaded_mainloop_lock(x->ml);
	// NOAUTOSPAWN: a player does not start a sound server; without one it plays video alone.
	if (p_pa_context_connect(x->c, server, PA_CONTEXT_NOAUTOSPAWN, NULL) < 0) {
		*err = p_pa_context_errno(x->c);
		p_pa_threaded_mainloop_unlock(x->ml);
		ycp_disconnect(x);
		return NULL;
	}
	if (p_pa_threaded_mainloop_start(x->ml) < 0) {
		*err = -1;
		p_pa_threaded_mainloop_unlock(x->ml);
		ycp_disconnect(x);
		return NULL;
	}
	for (;;) {
		int st = p_pa_context_get_state(x->c);
		if (st == PA_CONTEXT_READY) break;
		if (st == PA_CONTEXT_FAILED || st == PA_CONTEXT_TERMINATED) {
			*err = p_pa_context_errno(x->c);
			p_pa_threaded_mainloop_unlock(x->ml);
			ycp_disconnect(x);
			return NULL;
		}
		p_pa_threaded_mainloop_wait(x->ml);
	}
	p_pa_threaded_mainloop_unlock(x->ml);
	return x;
}

void ycp_disconnect(ycp_ctx *x) {
	if (!x) return;
	p_pa_threaded_mainloop_lock(x->ml);
	p_pa_context_disconnect(x->c);
	p_pa_context_unref(x->c);
	p_pa_threaded_mainloop_unlock(x->ml);
	p_pa_threaded_mainloop_stop(x->ml); // joins the loop's thread (it may not have been started: then a no-op)
	p_pa_threaded_mainloop_free(x->ml);
	free(x);
}

const char *ycp_server(ycp_ctx *x) {
	p_pa_threaded_mainloop_lock(x->ml);
	const char *s = p_pa_context_get_server(x->c);
	p_pa_threaded_mainloop_unlock(x->ml);
	return s;
}

ycp_stream *ycp_stream_open(ycp_ctx *x, const char *name, uint32_t rate, uint8_t channels, uint32_t tlength,
                            uint32_t volume, int muted, int corked, int variable, int *err) {
	ycp_stream *y = calloc(1, sizeof *y);
	if (!y) return NULL;
	y->x = x;
	y->channels = channels;
	pa_sample_spec ss = {PA_SAMPLE_FLOAT32LE, rate, channels};
	// tlength is the target of the total latency with ADJUST_LATENCY (buffer plus sink); the rest
	// is the server's choice ((uint32_t)-1).
	pa_buffer_attr attr = {(uint32_t)-1, tlength, (uint32_t)-1, (uint32_t)-1, (uint32_t)-1};
	pa_cvolume cv;
	p_pa_cvolume_set(&cv, channels, volume);
	int flags = PA_STREAM_INTERPOLATE_TIMING | PA_STREAM_AUTO_TIMING_UPDATE | PA_STREAM_ADJUST_LATENCY |
	            (muted ? PA_STREAM_START_MUTED : PA_STREAM_START_UNMUTED) | (corked ? PA_STREAM_START_CORKED : 0) |
	            (variable ? PA_STREAM_VARIABLE_RATE : 0);
	p_pa_threaded_mainloop_lock(x->ml);
	y->s = p_pa_stream_new(x->c, name, &ss, NULL);
	if (!y->s) {
		*err = p_pa_context_errno(x->c);
		p_pa_threaded_mainloop_unlock(x->ml);
		free(y);
		return NULL;
	}
	p_pa_stream_set_state_callback(y->s, stream_state_cb, y);
	p_pa_stream_set_write_callback(y->s, write_cb, y);
	p_pa_stream_set_underflow_callback(y->s, underflow_cb, y);
	if (p_pa_stream_connect_playback(y->s, NULL, &attr, flags, &cv, NULL) < 0) goto fail;
	for (;;) {
		int st = p_pa_stream_get_state(y->s);
		if (st == PA_STREAM_READY) break;
		if (st == PA_STREAM_FAILED || st == PA_STREAM_TERMINATED) goto fail;
		p_pa_threaded_mainloop_wait(x->ml);
	}
	p_pa_threaded_mainloop_unlock(x->ml);
	return y;
fail:
	*err = p_pa_context_errno(x->c);
	p_pa_stream_set_state_callback(y->s, NULL, NULL);
	p_pa_stream_set_write_callback(y->s, NULL, NULL);
	p_pa_stream_set_underflow_callback(y->s, NULL, NULL);
	p_pa_stream_unref(y->s);
	p_pa_threaded_mainloop_unlock(x->ml);
	free(y);
	return NULL;
}

void ycp_stream_close(ycp_stream *y) {
	if (!y) return;
	p_pa_threaded_mainloop_lock(y->x->ml);
	p_pa_stream_set_state_callback(y->s, NULL, NULL);
	p_pa_stream_set_write_callback(y->s, NULL, NULL);
	p_pa_stream_set_underflow_callback(y->s, NULL, NULL);
	p_pa_stream_disconnect(y->s);
	p_pa_stream_unref(y->s);
	p_pa_threaded_mainloop_unlock(y->x->ml);
	free(y);
}

static int stream_err(ycp_stream *y) {
	int e = p_pa_context_errno(y->x->c);
	return e ? -e : -PA_ERR_BADSTATE;
}

int64_t ycp_writable(ycp_stream *y) {
	p_pa_threaded_mainloop_lock(y->x->ml);
	int64_t n;
	if (p_pa_stream_get_state(y->s) != PA_STREAM_READY) {
		n = stream_err(y);
	} else {
		size_t w = p_pa_stream_writable_size(y->s);
		n = w == (size_t)-1 ? stream_err(y) : (int64_t)w;
	}
	p_pa_threaded_mainloop_unlock(y->x->ml);
	return n;
}

int ycp_write(ycp_stream *y, const void *data, size_t n) {
	p_pa_threaded_mainloop_lock(y->x->ml);
	// No free callback: the library copies the data before returning.
	int r = p_pa_stream_write(y->s, data, n, NULL, 0, PA_SEEK_RELATIVE);
	if (r < 0) r = stream_err(y);
	p_pa_threaded_mainloop_unlock(y->x->ml);
	return r;
}

void ycp_wait(ycp_stream *y) {
	p_pa_threaded_mainloop_lock(y->x->ml);
	if (!y->woken && p_pa_stream_get_state(y->s) == PA_STREAM_READY && p_pa_stream_writable_size(y->s) == 0)
		p_pa_threaded_mainloop_wait(y->x->ml);
	y->woken = 0;
	p_pa_threaded_mainloop_unlock(y->x->ml);
}

void ycp_wake(ycp_stream *y) {
	p_pa_threaded_mainloop_lock(y->x->ml);
	y->woken = 1;
	p_pa_threaded_mainloop_signal(y->x->ml, 0);
	p_pa_threaded_mainloop_unlock(y->x->ml);
}

int ycp_latency(ycp_stream *y, int64_t *usec) {
	pa_usec_t u = 0;
	int neg = 0;
	p_pa_threaded_mainloop_lock(y->x->ml);
	int r = p_pa_stream_get_latency(y->s, &u, &neg);
	p_pa_threaded_mainloop_unlock(y->x->ml);
	*usec = neg ? -(int64_t)u : (int64_t)u;
	return r;
}

int ycp_get_timing(ycp_stream *y, ycp_timing *out) {
	p_pa_threaded_mainloop_lock(y->x->ml);
	const pa_timing_info *t = p_pa_stream_get_timing_info(y->s);
	if (t) {
		out->sink_usec = t->sink_usec;
		out->configured_sink_usec = t->configured_sink_usec;
		out->transport_usec = t->transport_usec;
		out->write_index = t->write_index;
		out->read_index = t->read_index;
		out->playing = t->playing;
	}
	p_pa_threaded_mainloop_unlock(y->x->ml);
	return t ? 0 : -PA_ERR_NODATA;
}

static int64_t tv_usec(const struct timeval *t) { return (int64_t)t->tv_sec * 1000000 + t->tv_usec; }

// ycp_delay computes how long until the sample after the written bytes is heard, from the last
// timing update (pa_timing_info: its read index and sink latency were current at its timestamp, on
// this machine's wall clock) moved on by the time since, while the stream plays: the sum of the
// queued bytes and the sink's latency that pa_stream_get_latency computes, without its smoother,
// which was measured to run ahead after a delayed start (docs/audio.md). It also asks for a new
// update when the last request is older than refresh microseconds, so the figure stays fresh.
int ycp_delay(ycp_stream *y, int64_t written, int64_t refresh, int64_t *usec, int *playing) {
	struct timeval now;
	gettimeofday(&now, NULL);
	p_pa_threaded_mainloop_lock(y->x->ml);
	const pa_timing_info *t = p_pa_stream_get_timing_info(y->s);
	const pa_sample_spec *ss = p_pa_stream_get_sample_spec(y->s);
	if (tv_usec(&now) - tv_usec(&y->asked) >= refresh) {
		pa_operation *o = p_pa_stream_update_timing_info(y->s, NULL, NULL);
		if (o) p_pa_operation_unref(o);
		y->asked = now;
	}
	if (!t || !ss || t->read_index_corrupt) {
		p_pa_threaded_mainloop_unlock(y->x->ml);
		return -PA_ERR_NODATA;
	}
	double bps = (double)ss->rate * ss->channels * 4;
	double sink = (double)t->sink_usec;
	if (!t->playing) {
		// Stopped after an underrun: part of the sink's latency is the silence it was given after our
		// last sample (since_underrun bytes), not ours. PulseAudio's own pa_stream_get_latency leaves
		// this out; mpv's ao_pulse subtracts it the same way.
		sink -= (double)t->since_underrun / bps * 1e6;
		if (sink < 0) sink = 0;
	}
	double heard = (double)t->read_index / bps * 1e6 - sink; // µs of the stream heard
	if (t->playing) heard += (double)(tv_usec(&now) - tv_usec(&t->timestamp));
	*usec = (int64_t)((double)written / bps * 1e6 - heard);
	*playing = t->playing;
	p_pa_threaded_mainloop_unlock(y->x->ml);
	return 0;
}

// run_op waits (lock held) for an operation to finish; success_cb signals.
static int run_op(ycp_stream *y, pa_operation *o) {
	if (!o) return stream_err(y);
	while (p_pa_operation_get_state(o) == PA_OPERATION_RUNNING) p_pa_threaded_mainloop_wait(y->x->ml);
	p_pa_operation_unref(o);
	return 0;
}

int ycp_cork(ycp_stream *y, int cork) {
	p_pa_threaded_mainloop_lock(y->x->ml);
	int r = run_op(y, p_pa_stream_cork(y->s, cork, success_cb, y));
	p_pa_threaded_mainloop_unlock(y->x->ml);
	return r;
}

int ycp_trigger(ycp_stream *y) {
	p_pa_threaded_mainloop_lock(y->x->ml);
	int r = run_op(y, p_pa_stream_trigger(y->s, success_cb, y));
	p_pa_threaded_mainloop_unlock(y->x->ml);
	return r;
}

// ycp_set_rate changes the rate the server plays the stream's samples at (the stream was opened
// variable): the server resamples them to the sink.
int ycp_set_rate(ycp_stream *y, uint32_t rate) {
	p_pa_threaded_mainloop_lock(y->x->ml);
	int r = run_op(y, p_pa_stream_update_sample_rate(y->s, rate, success_cb, y));
	p_pa_threaded_mainloop_unlock(y->x->ml);
	return r;
}

int ycp_set_volume(ycp_stream *y, uint32_t volume, int muted) {
	pa_cvolume cv;
	p_pa_cvolume_set(&cv, y->channels, volume);
	p_pa_threaded_mainloop_lock(y->x->ml);
	uint32_t idx = p_pa_stream_get_index(y->s);
	pa_operation *a = p_pa_context_set_sink_input_volume(y->x->c, idx, &cv, NULL, NULL);
	pa_operation *b = p_pa_context_set_sink_input_mute(y->x->c, idx, muted, NULL, NULL);
	int r = a && b ? 0 : stream_err(y);
	if (a) p_pa_operation_unref(a); // not waited for: the server applies them in order
	if (b) p_pa_operation_unref(b);
	p_pa_threaded_mainloop_unlock(y->x->ml);
	return r;
}

int ycp_underflows(ycp_stream *y) {
	p_pa_threaded_mainloop_lock(y->x->ml);
	int n = y->underflows;
	p_pa_threaded_mainloop_unlock(y->x->ml);
	return n;
}

int ycp_device(ycp_stream *y, char *buf, int cap) {
	p_pa_threaded_mainloop_lock(y->x->ml);
	const char *d = p_pa_stream_get_device_name(y->s);
	snprintf(buf, cap, "%s", d ? d : "");
	p_pa_threaded_mainloop_unlock(y->x->ml);
	return 0;
}
