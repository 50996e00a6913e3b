package pulse

/*
#include <stdlib.h>
#include "pulse.h"
*/
import "C"

import (
	"errors"
	"fmt"
	"math"
	"sync"
	"time"
	"unsafe"

	"github.com/ycbcrkit/ycbcrkit/internal/dl"
)

// Library is libpulse's soname (the unversioned libpulse.so ships only with the -dev package).
const Library = "libpulse.so.0"

// ErrNoData is PA_ERR_NODATA: the stream has no timing information yet (just after it was created).
var ErrNoData = errors.New("no timing data yet")

// PulseAudio's error code PA_ERR_NODATA (error.h).
const errNoData = 16

// Load opens libpulse.so.0 and looks up the functions the package uses. Safe to call repeatedly; the
// first result stands.
func Load() error { return load() }

var load = sync.OnceValue(func() error {
	fns, err := dl.Open(Library, unsafe.Pointer(&C.ycp_funcs))
	if err != nil {
		return fmt.Errorf("pulse: %w", err)
	}
	C.ycp_bind(&fns[0])
	return nil
})

func paError(code C.int) error {
	if code < 0 {
		code = -code
	}
	if code == errNoData {
		return ErrNoData
	}
	return errors.New(C.GoString(C.ycp_strerror(code)))
}

// Context is a connection to a PulseAudio server.
type Context struct {
	x *C.ycp_ctx
}

// Connect connects to the default server (PULSE_SERVER, the session's, or the client.conf's) as the
// application app. It does not start a server.
func Connect(app string) (*Context, error) {
	if err := Load(); err != nil {
		return nil, err
	}
	name := C.CString(app)
	defer C.free(unsafe.Pointer(name))
	var code C.int
	x := C.ycp_connect(name, nil, &code)
	if x == nil {
		return nil, fmt.Errorf("pulse: connect: %w", paError(code))
	}
	return &Context{x: x}, nil
}

// Server is the server's address as the connection knows it (e.g. /run/user/1000/pulse/native).
func (c *Context) Server() string { return C.GoString(C.ycp_server(c.x)) }

// Close disconnects. Its streams must be closed first.
func (c *Context) Close() {
	if c.x != nil {
		C.ycp_disconnect(c.x)
		c.x = nil
	}
}

// StreamOptions describe a playback stream of interleaved float32 samples.
type StreamOptions struct {
	Name           string
	Rate, Channels int
	// TargetLatency is the buffer's target length, buffer and device together (pa_buffer_attr.tlength
	// with PA_STREAM_ADJUST_LATENCY); the server may grant more. 0 means 100 ms.
	TargetLatency time.Duration
	// Volume is the stream's volume, 1 being PulseAudio's 100 % (PA_VOLUME_NORM; PulseAudio's
	// percentages are on a cubic scale: https://freedesktop.org/software/pulseaudio/doxygen/volume.html).
	Volume float64
	Muted  bool
	// Corked starts the stream paused.
	Corked bool
	// Variable lets SetRate change the rate the samples play at (PA_STREAM_VARIABLE_RATE; the
	// server then resamples the stream even at its own rate, so only a stream that needs it asks).
	Variable bool
}

// Stream is one playback stream.
type Stream struct {
	s              *C.ycp_stream
	Rate, Channels int
	bytesPerFrame  int
}

// NewStream creates and connects a playback stream to the default sink.
func (c *Context) NewStream(o StreamOptions) (*Stream, error) {
	if o.Rate <= 0 || o.Channels <= 0 || o.Channels > 32 {
		return nil, fmt.Errorf("pulse: new stream: %d channels at %d Hz", o.Channels, o.Rate)
	}
	if o.TargetLatency <= 0 {
		o.TargetLatency = 100 * time.Millisecond
	}
	bpf := 4 * o.Channels
	tlength := int(o.TargetLatency.Seconds()*float64(o.Rate)) * bpf
	name := C.CString(o.Name)
	defer C.free(unsafe.Pointer(name))
	var code C.int
	s := C.ycp_stream_open(c.x, name, C.uint32_t(o.Rate), C.uint8_t(o.Channels), C.uint32_t(tlength),
		volume(o.Volume), cbool(o.Muted), cbool(o.Corked), cbool(o.Variable), &code)
	if s == nil {
		return nil, fmt.Errorf("pulse: new stream (%d Hz, %d channels): %w", o.Rate, o.Channels, paError(code))
	}
	return &Stream{s: s, Rate: o.Rate, Channels: o.Channels, bytesPerFrame: bpf}, nil
}

func volume(v float64) C.uint32_t {
	if v < 0 || math.IsNaN(v) {
		v = 0
	}
	return C.uint32_t(math.Min(math.Round(v*0x10000), 0x7fffffff))
}

func cbool(b bool) C.int {
	if b {
		return 1
	}
	return 0
}

// Writable is how many sample frames the server takes now (pa_stream_writable_size).
func (s *Stream) Writable() (int, error) {
	n := C.ycp_writable(s.s)
	if n < 0 {
		return 0, fmt.Errorf("pulse: stream: %w", paError(C.int(n)))
	}
	return int(n) / s.bytesPerFrame, nil
}

// Write queues interleaved samples (a whole number of frames; the library copies them).
func (s *Stream) Write(samples []float32) error {
	if len(samples) == 0 {
		return nil
	}
	if len(samples)%s.Channels != 0 {
		return fmt.Errorf("pulse: write: %d samples is not a whole number of %d-channel frames", len(samples), s.Channels)
	}
	if r := C.ycp_write(s.s, unsafe.Pointer(&samples[0]), C.size_t(4*len(samples))); r < 0 {
		return fmt.Errorf("pulse: write: %w", paError(r))
	}
	return nil
}

// Wait sleeps until the server asks for data, the stream changes state or Wake is called.
func (s *Stream) Wait() { C.ycp_wait(s.s) }

// Wake ends a Wait (now, or the next one if none is in progress).
func (s *Stream) Wake() { C.ycp_wake(s.s) }

// Latency is pa_stream_get_latency: how long until a sample written now is heard (the queued
// samples plus the device's latency), from the server's timing interpolated to now. ErrNoData until
// the first timing update.
func (s *Stream) Latency() (time.Duration, error) {
	var us C.int64_t
	if r := C.ycp_latency(s.s, &us); r < 0 {
		return 0, fmt.Errorf("pulse: latency: %w", paError(r))
	}
	return time.Duration(us) * time.Microsecond, nil
}

// Delay is how long until the sample after the first written frames is heard: the queued
// samples plus the sink's latency, from the last timing update (pa_stream_get_timing_info) moved on
// by the wall-clock time since while the stream plays. It is pa_stream_get_latency's sum without
// the library's smoother (see docs/audio.md for why), for a caller that counts what it wrote. It asks
// the server for a fresh timing update when the last request is older than refresh. playing is the
// server's word that the stream is playing (false before the prebuffer fills, corked, underrun).
func (s *Stream) Delay(written int64, refresh time.Duration) (d time.Duration, playing bool, err error) {
	var us C.int64_t
	var pl C.int
	if r := C.ycp_delay(s.s, C.int64_t(written*int64(s.bytesPerFrame)), C.int64_t(refresh.Microseconds()), &us, &pl); r < 0 {
		return 0, false, fmt.Errorf("pulse: delay: %w", paError(r))
	}
	return time.Duration(us) * time.Microsecond, pl != 0, nil
}

// Timing is the last timing update's figures (pa_timing_info).
type Timing struct {
	// Sink is the device's part of the latency (sink_usec); ConfiguredSink what the sink was set to.
	Sink, ConfiguredSink, Transport time.Duration
	WriteIndex, ReadIndex           int64 // bytes
	Playing                         bool
}

// Timing returns the last timing update (pa_stream_get_timing_info).
func (s *Stream) Timing() (Timing, error) {
	var t C.ycp_timing
	if r := C.ycp_get_timing(s.s, &t); r < 0 {
		return Timing{}, fmt.Errorf("pulse: timing: %w", paError(r))
	}
	return Timing{
		Sink: time.Duration(t.sink_usec) * time.Microsecond, ConfiguredSink: time.Duration(t.configured_sink_usec) * time.Microsecond,
		Transport:  time.Duration(t.transport_usec) * time.Microsecond,
		WriteIndex: int64(t.write_index), ReadIndex: int64(t.read_index), Playing: t.playing != 0,
	}, nil
}

// Cork pauses (true) or resumes (false) playback, and returns once the server has done it.
func (s *Stream) Cork(cork bool) error {
	if r := C.ycp_cork(s.s, cbool(cork)); r < 0 {
		return fmt.Errorf("pulse: cork: %w", paError(r))
	}
	return nil
}

// Trigger starts playback now, without waiting for the prebuffer to fill (pa_stream_trigger): for
// the end of a stream shorter than the prebuffer.
func (s *Stream) Trigger() error {
	if r := C.ycp_trigger(s.s); r < 0 {
		return fmt.Errorf("pulse: trigger: %w", paError(r))
	}
	return nil
}

// SetRate plays the stream's samples at rate Hz from now on (pa_stream_update_sample_rate), the
// server resampling them to the sink's rate; the stream must be Variable. The sample spec's rate,
// and so Delay's conversion of bytes to time, follows.
func (s *Stream) SetRate(rate int) error {
	if r := C.ycp_set_rate(s.s, C.uint32_t(rate)); r < 0 {
		return fmt.Errorf("pulse: set rate %d Hz: %w", rate, paError(r))
	}
	return nil
}

// SetVolume sets the stream's volume (1 is 100 %) and mute on the server: they apply at once, not
// after the queued samples.
func (s *Stream) SetVolume(v float64, muted bool) error {
	if r := C.ycp_set_volume(s.s, volume(v), cbool(muted)); r < 0 {
		return fmt.Errorf("pulse: volume: %w", paError(r))
	}
	return nil
}

// Underflows counts the times the server ran out of samples.
func (s *Stream) Underflows() int { return int(C.ycp_underflows(s.s)) }

// Device is the sink's name.
func (s *Stream) Device() string {
	var buf [256]C.char
	C.ycp_device(s.s, &buf[0], C.int(len(buf)))
	return C.GoString(&buf[0])
}

// Close disconnects the stream; samples still queued are dropped.
func (s *Stream) Close() {
	if s.s != nil {
		C.ycp_stream_close(s.s)
		s.s = nil
	}
}
