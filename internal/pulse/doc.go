// Package pulse is the thin cgo leaf that plays audio through PulseAudio, the desktop's sound
// server, with an accurate latency figure.
//
// libpulse.so.0 is loaded at run time by internal/dl (as the Vulkan loader and libass are): the
// programs link no libpulse and run where PulseAudio is not installed; Load then returns an error
// and the caller plays without sound. The prototypes it uses are declared in pulse.h, so the build
// needs no libpulse headers either.
//
// It uses PulseAudio's asynchronous API on a threaded main loop
// (https://freedesktop.org/software/pulseaudio/doxygen/threaded_mainloop.html): a Context is one
// connection (no autospawn: a player does not start a sound server), a Stream one float32 playback
// stream created with PA_STREAM_INTERPOLATE_TIMING | PA_STREAM_AUTO_TIMING_UPDATE |
// PA_STREAM_ADJUST_LATENCY, so that Latency (pa_stream_get_latency) is the server's own timing,
// interpolated between updates: the time until a sample written now is heard, buffer and device
// included (https://freedesktop.org/software/pulseaudio/doxygen/streams.html, "Latency").
//
// Every method of a Stream may be called from any goroutine (each takes the main loop's lock), except
// Close, which must not race with the others.
package pulse
