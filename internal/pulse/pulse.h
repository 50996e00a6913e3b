// pulse.h: the few PulseAudio client declarations the package uses, written out here so that the
// build needs no libpulse headers and the programs link no libpulse: the library is loaded at run
// time (dlopen). Types, values and prototypes are those of PulseAudio's public API, which keeps
// binary compatibility within libpulse.so.0 (https://freedesktop.org/software/pulseaudio/doxygen/):
// def.h (flags, states, pa_buffer_attr, pa_timing_info), sample.h, volume.h, context.h, stream.h,
// thread-mainloop.h, operation.h, error.h.
#ifndef YCBCRKIT_PULSE_H
#define YCBCRKIT_PULSE_H
#include <stddef.h>
#include <stdint.h>
#include <sys/time.h>

typedef struct ycp_ctx ycp_ctx;
typedef struct ycp_stream ycp_stream;

// Timing of a playback stream (pa_stream_get_timing_info), in microseconds.
typedef struct {
	uint64_t sink_usec;            // the sink's latency: written to the device, not yet heard
	uint64_t configured_sink_usec; // what the sink was configured for
	uint64_t transport_usec;       // client to server
	int64_t write_index, read_index;
	int playing;
} ycp_timing;

extern char *const ycp_funcs[];  // the libpulse functions pulse.c calls, ending in NULL (for internal/dl)
void ycp_bind(void *const *fns); // their addresses, in ycp_funcs' order
const char *ycp_strerror(int err);

ycp_ctx *ycp_connect(const char *app, const char *server, int *err);
void ycp_disconnect(ycp_ctx *x);
const char *ycp_server(ycp_ctx *x); // the server's name and version, while connected

ycp_stream *ycp_stream_open(ycp_ctx *x, const char *name, uint32_t rate, uint8_t channels, uint32_t tlength,
                            uint32_t volume, int muted, int corked, int variable, int *err);
void ycp_stream_close(ycp_stream *s);
int64_t ycp_writable(ycp_stream *s); // bytes; negative: the stream failed (-errno)
int ycp_write(ycp_stream *s, const void *data, size_t n);
void ycp_wait(ycp_stream *s); // until the server asks for data, or ycp_wake, or a state change
void ycp_wake(ycp_stream *s);
int ycp_latency(ycp_stream *s, int64_t *usec); // pa_stream_get_latency; 0 or -errno
int ycp_delay(ycp_stream *s, int64_t written, int64_t refresh, int64_t *usec, int *playing);
int ycp_get_timing(ycp_stream *s, ycp_timing *out);
int ycp_cork(ycp_stream *s, int cork);
int ycp_trigger(ycp_stream *s);
int ycp_set_rate(ycp_stream *s, uint32_t rate);
int ycp_set_volume(ycp_stream *s, uint32_t volume, int muted);
int ycp_underflows(ycp_stream *s);
int ycp_device(ycp_stream *s, char *buf, int cap);
#endif
