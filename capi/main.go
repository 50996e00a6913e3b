// Command capi is libycbcrkit: package videotex behind the C ABI of ycbcrkit.h, built with
// go build -buildmode=c-shared (make lib). The cgo stays thin: each exported function reads its
// params struct, calls videotex and writes the result; the header (ycbcrkit.h) is the documentation.
// No Go pointer crosses into C: C holds numbers that name Go objects (registry.go).
package main

/*
#cgo CFLAGS: -std=gnu11
#include <stdlib.h>
#include "internal.h"
*/
import "C"

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"
	"unsafe"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/decode"
	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/internal/vkx"
	"github.com/ycbcrkit/ycbcrkit/stream"
	"github.com/ycbcrkit/ycbcrkit/videotex"
	"github.com/ycbcrkit/ycbcrkit/ycbcr"
)

func main() {} // a c-shared library has no program

// abiVersion is YK_ABI_VERSION of the header this library implements.
const abiVersion = C.YK_ABI_VERSION

// Sizes of ABI 1.0's structs: what a size field of 0 stands for. They are today's sizes; when a
// struct grows, its constant stays at the 1.0 value.
const (
	v1RequirementsParams = C.sizeof_yk_requirements_params
	v1Requirements       = 9024 // grew in ABI 1.3 (internally_synchronized_queues, _missing)
	v1EngineParams       = 96   // grew in ABI 1.3 (internally_synchronized_queues)
	v1OpenParams         = 56   // grew in ABI 1.2 (target, tone) and 1.4 (target_white)
	v1AcquireParams      = C.sizeof_yk_acquire_params
	v1Frame              = 320 // grew in ABI 1.2 (to_target)
	v1ReleaseParams      = C.sizeof_yk_release_params
	v1Stats              = C.sizeof_yk_stats
	// Added in ABI 1.1: its first size.
	v1DrawParams = C.sizeof_yk_draw_params
)

// fail records err as this thread's yk_last_error and returns its code. A cgo callback runs on the
// C caller's thread, so the thread-local text is the caller's.
func fail(code C.yk_result, err error) C.yk_result {
	s := C.CString(strings.ReplaceAll(err.Error(), "\n", "; "))
	C.yk__set_error(s)
	C.free(unsafe.Pointer(s))
	return code
}

func ok() C.yk_result {
	C.yk__set_error(nil)
	return C.YK_SUCCESS
}

// code maps an error of videotex to a result code.
func code(err error) C.yk_result {
	switch {
	case errors.Is(err, videotex.ErrDeviceLost):
		return C.YK_ERROR_DEVICE_LOST
	case errors.Is(err, videotex.ErrClosed):
		return C.YK_ERROR_CLOSED
	}
	var v *vkx.Error
	if errors.As(err, &v) {
		return C.YK_ERROR_VULKAN
	}
	return C.YK_ERROR_INTERNAL
}

// load reads the caller's params struct into dst (zeroed for NULL).
func load(dst unsafe.Pointer, size, v1 C.size_t, src unsafe.Pointer) error {
	if C.yk__load(dst, size, v1, src) != 0 {
		return errors.New("a params struct is newer than this library (size or fields it does not know)")
	}
	return nil
}

//export yk_abi_version
func yk_abi_version() C.uint32_t { return abiVersion }

// Vulkan handles are pointers in both vulkan-go and the C headers (64-bit): reinterpret the bytes.
func vkHandle[T any](p unsafe.Pointer) T { return *(*T)(p) }

func cHandle[D any, S any](h S) D { return *(*D)(unsafe.Pointer(&h)) }

func putText(dst []C.char, s string) {
	n := len(s)
	if n > len(dst)-1 {
		n = len(dst) - 1
	}
	for i := 0; i < n; i++ {
		dst[i] = C.char(s[i])
	}
	dst[n] = 0
}

//export yk_requirements_query
func yk_requirements_query(params *C.yk__const_requirements_params, out *C.yk_requirements) C.yk_result {
	if out == nil {
		return fail(C.YK_ERROR_INVALID_ARGUMENT, errors.New("yk_requirements_query: out is NULL"))
	}
	var p C.yk_requirements_params
	if err := load(unsafe.Pointer(&p), C.sizeof_yk_requirements_params, v1RequirementsParams, unsafe.Pointer(params)); err != nil {
		return fail(C.YK_ERROR_ABI, err)
	}
	inst := vkHandle[vk.Instance](unsafe.Pointer(&p.instance))
	pd := vkHandle[vk.PhysicalDevice](unsafe.Pointer(&p.physical_device))
	if inst == nil || pd == nil {
		return fail(C.YK_ERROR_INVALID_ARGUMENT, errors.New("yk_requirements_query: instance and physical_device must be set"))
	}
	var r C.yk_requirements
	base, err := videotex.Requirements(inst, pd)
	if err != nil {
		return fail(C.YK_ERROR_UNSUPPORTED, err)
	}
	r.api_version, r.sampler_ycbcr_conversion, r.queue_flags = C.uint32_t(base.APIVersion), 1, C.VkQueueFlags(base.QueueFlags)
	if len(base.Extensions) > C.YK_MAX_EXTENSIONS {
		return fail(C.YK_ERROR_INTERNAL, errors.New("yk_requirements_query: too many extensions"))
	}
	r.extension_count = C.uint32_t(len(base.Extensions))
	for i, e := range base.Extensions {
		putText(r.extensions[i][:], e)
	}
	hw, err := videotex.HWRequirements(inst, pd, videotex.HWQuery{Validation: p.validation != 0})
	if err != nil {
		return fail(C.YK_ERROR_INVALID_ARGUMENT, err)
	}
	r.timeline_semaphore = b32(hw.Features.TimelineSemaphore)
	r.hw_available = b32(hw.Available)
	putText(r.hw_missing[:], hw.Missing)
	r.hw_api_version = C.uint32_t(hw.APIVersion)
	if len(hw.Extensions) > C.YK_MAX_EXTENSIONS {
		return fail(C.YK_ERROR_INTERNAL, errors.New("yk_requirements_query: too many extensions"))
	}
	r.hw_extension_count = C.uint32_t(len(hw.Extensions))
	for i, e := range hw.Extensions {
		putText(r.hw_extensions[i][:], e)
	}
	r.hw_decode_family, r.hw_decode_queues = C.uint32_t(hw.DecodeFamily), C.uint32_t(hw.DecodeQueues)
	f := hw.Features
	r.hw_features = C.yk_video_features{sampler_ycbcr_conversion: b32(f.SamplerYcbcrConversion),
		timeline_semaphore: b32(f.TimelineSemaphore), host_query_reset: b32(f.HostQueryReset),
		synchronization2: b32(f.Synchronization2), video_maintenance1: b32(f.VideoMaintenance1)}
	putText(r.hw_codecs[:], strings.Join(hw.Codecs, " "))
	putText(r.hw_withheld[:], hw.Withheld)
	r.internally_synchronized_queues = b32(base.InternallySynchronized.Offered)
	putText(r.internally_synchronized_missing[:], base.InternallySynchronized.Missing)
	C.yk__store(unsafe.Pointer(out), unsafe.Pointer(&r), C.sizeof_yk_requirements, v1Requirements)
	return ok()
}

func b32(b bool) C.uint32_t {
	if b {
		return 1
	}
	return 0
}

// engine is a yk_engine: the videotex.Engine and what its textures are opened with.
type engine struct {
	eng *videotex.Engine
	ed  videotex.EngineDevice
}

// cLock is the engine's queue lock: its C callbacks.
type cLock struct {
	lock, unlock C.yk_lock_fn
	user         unsafe.Pointer
}

func (l *cLock) Lock()   { C.yk__call_lock(l.lock, l.user) }
func (l *cLock) Unlock() { C.yk__call_lock(l.unlock, l.user) }

//export yk_engine_create
func yk_engine_create(params *C.yk__const_engine_params, out *C.yk_engine) C.yk_result {
	if out == nil {
		return fail(C.YK_ERROR_INVALID_ARGUMENT, errors.New("yk_engine_create: out is NULL"))
	}
	*out = C.yk_engine{}
	var p C.yk_engine_params
	if err := load(unsafe.Pointer(&p), C.sizeof_yk_engine_params, v1EngineParams, unsafe.Pointer(params)); err != nil {
		return fail(C.YK_ERROR_ABI, err)
	}
	ed := videotex.EngineDevice{
		Instance: vkHandle[vk.Instance](unsafe.Pointer(&p.instance)), Physical: vkHandle[vk.PhysicalDevice](unsafe.Pointer(&p.physical_device)),
		Device: vkHandle[vk.Device](unsafe.Pointer(&p.device)), Queue: vkHandle[vk.Queue](unsafe.Pointer(&p.queue)),
		QueueFamily: uint32(p.queue_family), InternallySynchronizedQueues: p.internally_synchronized_queues != 0}
	if ed.Instance == nil || ed.Physical == nil || ed.Device == nil || ed.Queue == nil {
		return fail(C.YK_ERROR_INVALID_ARGUMENT, errors.New("yk_engine_create: instance, physical_device, device and queue must be set"))
	}
	if p.enabled_extension_count > 0 && p.enabled_extensions == nil {
		return fail(C.YK_ERROR_INVALID_ARGUMENT, errors.New("yk_engine_create: enabled_extensions is NULL"))
	}
	for i := C.uint32_t(0); i < p.enabled_extension_count; i++ {
		ed.Extensions = append(ed.Extensions, C.GoString(C.yk__string_at(p.enabled_extensions, i)))
	}
	switch {
	case (p.lock_queue == nil) != (p.unlock_queue == nil):
		return fail(C.YK_ERROR_INVALID_ARGUMENT, errors.New("yk_engine_create: lock_queue and unlock_queue go together"))
	case p.lock_queue != nil:
		ed.QueueLock = &cLock{lock: p.lock_queue, unlock: p.unlock_queue, user: p.lock_user}
	}
	if p.hardware_decoding != 0 {
		hw, err := videotex.HWRequirements(ed.Instance, ed.Physical, videotex.HWQuery{Validation: p.validation != 0})
		if err != nil {
			return fail(C.YK_ERROR_INVALID_ARGUMENT, err)
		}
		ed.HWDecode = &hw
	}
	eng, err := videotex.NewEngine(ed)
	if err != nil {
		return fail(C.YK_ERROR_UNSUPPORTED, err)
	}
	out.id = C.uint64_t(handles.add(&engine{eng: eng, ed: ed}))
	return ok()
}

//export yk_engine_wait_idle
func yk_engine_wait_idle(h C.yk_engine) C.yk_result {
	e, found := lookup[*engine](uint64(h.id))
	if !found {
		return fail(C.YK_ERROR_INVALID_HANDLE, fmt.Errorf("yk_engine_wait_idle: no engine %d", h.id))
	}
	if err := videotex.DeviceWaitIdle(e.ed); err != nil {
		return fail(code(err), err)
	}
	return ok()
}

//export yk_engine_destroy
func yk_engine_destroy(h C.yk_engine) C.yk_result {
	e, found := lookup[*engine](uint64(h.id))
	if !found {
		return fail(C.YK_ERROR_INVALID_HANDLE, fmt.Errorf("yk_engine_destroy: no engine %d", h.id))
	}
	if err := e.eng.Close(); err != nil {
		return fail(C.YK_ERROR_BUSY, err)
	}
	handles.remove(uint64(h.id))
	return ok()
}

// texture is a yk_texture: the videotex.Texture (replaced when a seek back reopens the input), its
// clock, and the frames handed out and not yet released.
type texture struct {
	eng  *engine
	url  string
	opts videotex.Options

	mu     sync.Mutex
	tex    *videotex.Texture
	frames map[uint64]*videotex.Frame
	closed bool
	// The clock: media time base at wall time anchor, advancing at rate while playing.
	playing bool
	rate    float64
	base    time.Duration
	anchor  time.Time
	// last is the pts of the last frame handed out; gen counts changes of the frames' sampler or
	// descriptor count across reopenings (the texture's own generation restarts with each).
	last    time.Duration
	gen     uint64
	sampler vk.Sampler
	count   uint32
	// retired are textures a seek back replaced while the engine held some of their frames: closed
	// once no frame is out.
	retired []*videotex.Texture
	// audio: the format handed to the callback, once the texture is open (ready closed).
	audioRate, audioChannels int
	ready                    chan struct{}
}

// now is the clock's media time. Called with t.mu held.
func (t *texture) now() time.Duration {
	if !t.playing {
		return t.base
	}
	return t.base + time.Duration(float64(time.Since(t.anchor))*t.rate)
}

// take removes frame id from t's frames and the handles and returns it, nil if it was released
// (or drawn) already or its texture closed: the engine hands each frame back once.
func (t *texture) take(id uint64) *videotex.Frame {
	t.mu.Lock()
	defer t.mu.Unlock()
	f := t.frames[id]
	if f != nil {
		delete(t.frames, id)
		handles.remove(id)
	}
	return f
}

func textureOf(h C.yk_texture, call string) (*texture, C.yk_result) {
	t, found := lookup[*texture](uint64(h.id))
	if !found {
		return nil, fail(C.YK_ERROR_INVALID_HANDLE, fmt.Errorf("%s: no texture %d", call, h.id))
	}
	return t, C.YK_SUCCESS
}

//export yk_texture_open
func yk_texture_open(h C.yk_engine, url *C.yk__const_char, params *C.yk__const_open_params, out *C.yk_texture) C.yk_result {
	if out == nil || url == nil {
		return fail(C.YK_ERROR_INVALID_ARGUMENT, errors.New("yk_texture_open: url and out must be set"))
	}
	*out = C.yk_texture{}
	e, found := lookup[*engine](uint64(h.id))
	if !found {
		return fail(C.YK_ERROR_INVALID_HANDLE, fmt.Errorf("yk_texture_open: no engine %d", h.id))
	}
	var p C.yk_open_params
	if err := load(unsafe.Pointer(&p), C.sizeof_yk_open_params, v1OpenParams, unsafe.Pointer(params)); err != nil {
		return fail(C.YK_ERROR_ABI, err)
	}
	t := &texture{eng: e, url: C.GoString((*C.char)(url)), rate: 1, frames: map[uint64]*videotex.Frame{}, ready: make(chan struct{})}
	o := videotex.Options{Loop: p.loop != 0, Images: int(p.images), OpenTimeout: time.Duration(p.open_timeout_ms) * time.Millisecond}
	switch p.hwdec {
	case C.YK_HWDEC_AUTO:
		o.HWDec = decode.HWDecAuto
	case C.YK_HWDEC_NO:
		o.HWDec = decode.HWDecNo
	case C.YK_HWDEC_VULKAN:
		o.HWDec = decode.HWDecVulkan
	default:
		return fail(C.YK_ERROR_INVALID_ARGUMENT, fmt.Errorf("yk_texture_open: hwdec %d", p.hwdec))
	}
	switch p.path {
	case C.YK_CHOOSE_AUTO:
		o.Path = formats.ChooseAuto
	case C.YK_CHOOSE_SAMPLER:
		o.Path = formats.ChooseSampler
	case C.YK_CHOOSE_SHADER:
		o.Path = formats.ChooseShader
	default:
		return fail(C.YK_ERROR_INVALID_ARGUMENT, fmt.Errorf("yk_texture_open: path %d", p.path))
	}
	switch p.audio {
	case C.YK_AUDIO_NONE:
	case C.YK_AUDIO_CALLBACK:
		if p.audio_callback == nil {
			return fail(C.YK_ERROR_INVALID_ARGUMENT, errors.New("yk_texture_open: YK_AUDIO_CALLBACK without audio_callback"))
		}
		fn, user := p.audio_callback, p.audio_user
		o.Audio = &videotex.AudioOptions{Rate: int(p.audio_rate), Channels: int(p.audio_channels),
			Samples: func(pts time.Duration, s []float32) {
				<-t.ready // the format is known once Open has returned (or failed: then nothing is handed)
				if t.audioChannels == 0 || len(s) == 0 {
					return
				}
				C.yk__call_audio(fn, user, C.int64_t(pts), (*C.float)(unsafe.Pointer(&s[0])), C.uint32_t(len(s)/t.audioChannels),
					C.uint32_t(t.audioChannels), C.uint32_t(t.audioRate))
			}}
	default:
		return fail(C.YK_ERROR_INVALID_ARGUMENT, fmt.Errorf("yk_texture_open: audio %d", p.audio))
	}
	switch p.target {
	case C.YK_TARGET_SDR:
	case C.YK_TARGET_HDR10:
		o.Target.Output = ycbcr.OutputHDR10
	case C.YK_TARGET_EXTENDED_LINEAR:
		o.Target.Output = ycbcr.OutputExtendedLinear
	default:
		return fail(C.YK_ERROR_INVALID_ARGUMENT, fmt.Errorf("yk_texture_open: target %d", p.target))
	}
	tones := map[C.yk_tone]ycbcr.ToneCurve{C.YK_TONE_BT2390: ycbcr.ToneBT2390, C.YK_TONE_CLIP: ycbcr.ToneClip,
		C.YK_TONE_OFF: ycbcr.ToneOff, C.YK_TONE_BT2390_MAX: ycbcr.ToneBT2390Max}
	tone, known := tones[p.tone]
	if !known {
		return fail(C.YK_ERROR_INVALID_ARGUMENT, fmt.Errorf("yk_texture_open: tone %d", p.tone))
	}
	o.Target.Tone, o.Target.White = tone, float64(p.target_white)
	t.opts = o
	tex, err := e.eng.Open(t.url, o)
	if err != nil {
		close(t.ready)
		if errors.Is(err, videotex.ErrDeviceLost) {
			return fail(C.YK_ERROR_DEVICE_LOST, err)
		}
		return fail(C.YK_ERROR_OPEN, err)
	}
	t.tex = tex
	if info, has := tex.AudioInfo(); has {
		t.audioRate, t.audioChannels = info.OutRate, info.OutChannels
	}
	close(t.ready)
	out.id = C.uint64_t(handles.add(t))
	return ok()
}

//export yk_texture_close
func yk_texture_close(h C.yk_texture) C.yk_result {
	t, r := textureOf(h, "yk_texture_close")
	if t == nil {
		return r
	}
	handles.remove(uint64(h.id))
	t.mu.Lock()
	defer t.mu.Unlock()
	t.closed = true
	for id := range t.frames {
		handles.remove(id)
	}
	t.frames = nil
	for _, old := range t.retired {
		old.Close()
	}
	t.retired = nil
	if err := t.tex.Close(); err != nil {
		return fail(code(err), err)
	}
	return ok()
}

//export yk_texture_play
func yk_texture_play(h C.yk_texture) C.yk_result {
	t, r := textureOf(h, "yk_texture_play")
	if t == nil {
		return r
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if !t.playing {
		t.playing, t.anchor = true, time.Now()
	}
	return ok()
}

//export yk_texture_pause
func yk_texture_pause(h C.yk_texture) C.yk_result {
	t, r := textureOf(h, "yk_texture_pause")
	if t == nil {
		return r
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.base, t.playing = t.now(), false
	return ok()
}

//export yk_texture_set_rate
func yk_texture_set_rate(h C.yk_texture, rate C.double) C.yk_result {
	t, r := textureOf(h, "yk_texture_set_rate")
	if t == nil {
		return r
	}
	if !(rate > 0) || rate > 1e6 {
		return fail(C.YK_ERROR_INVALID_ARGUMENT, fmt.Errorf("yk_texture_set_rate: rate %g: must be above 0", float64(rate)))
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.base, t.anchor, t.rate = t.now(), time.Now(), float64(rate)
	return ok()
}

//export yk_texture_time
func yk_texture_time(h C.yk_texture, out *C.int64_t) C.yk_result {
	t, r := textureOf(h, "yk_texture_time")
	if t == nil {
		return r
	}
	if out == nil {
		return fail(C.YK_ERROR_INVALID_ARGUMENT, errors.New("yk_texture_time: out is NULL"))
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	*out = C.int64_t(t.now())
	return ok()
}

//export yk_texture_seek
func yk_texture_seek(h C.yk_texture, at C.int64_t) C.yk_result {
	t, r := textureOf(h, "yk_texture_seek")
	if t == nil {
		return r
	}
	if at < 0 {
		return fail(C.YK_ERROR_INVALID_ARGUMENT, fmt.Errorf("yk_texture_seek: time %d below 0", int64(at)))
	}
	target := time.Duration(at)
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed {
		return fail(C.YK_ERROR_CLOSED, videotex.ErrClosed)
	}
	if target < t.last {
		// Back: a new texture on the same engine, from the start (frames not released stay valid
		// until released: they belong to the old texture, closed once they are all back).
		tex, err := t.eng.eng.Open(t.url, t.opts)
		if err != nil {
			return fail(C.YK_ERROR_OPEN, err)
		}
		old := t.tex
		t.tex, t.last = tex, 0
		if len(t.frames) == 0 {
			old.Close()
		} else {
			t.retired = append(t.retired, old)
		}
		// Decode up to target: take every picture due by then and give it straight back.
		for t.tex.WaitReady(t.timeout()) == nil {
			f, err := t.tex.Acquire(target)
			if err != nil {
				return fail(code(err), err)
			}
			adv := f.Advanced
			if err := f.Discard(); err != nil {
				return fail(code(err), err)
			}
			if !adv {
				break // the next picture is after target
			}
		}
	}
	t.base, t.anchor = target, time.Now()
	return ok()
}

func (t *texture) timeout() time.Duration {
	if t.opts.OpenTimeout > 0 {
		return t.opts.OpenTimeout
	}
	return 10 * time.Second
}

//export yk_texture_wait_ready
func yk_texture_wait_ready(h C.yk_texture, ms C.uint32_t) C.yk_result {
	t, r := textureOf(h, "yk_texture_wait_ready")
	if t == nil {
		return r
	}
	t.mu.Lock()
	tex := t.tex
	t.mu.Unlock()
	err := tex.WaitReady(time.Duration(ms) * time.Millisecond)
	switch {
	case err == nil:
		return ok()
	case errors.Is(err, videotex.ErrClosed):
		return fail(C.YK_ERROR_CLOSED, err)
	case errors.Is(err, io.EOF):
		C.yk__set_error(nil)
		return C.YK_END
	case strings.Contains(err.Error(), "no picture decoded within"):
		C.yk__set_error(nil)
		return C.YK_TIMEOUT
	}
	return fail(C.YK_ERROR_OPEN, err)
}

//export yk_texture_stats
func yk_texture_stats(h C.yk_texture, out *C.yk_stats) C.yk_result {
	t, r := textureOf(h, "yk_texture_stats")
	if t == nil {
		return r
	}
	if out == nil {
		return fail(C.YK_ERROR_INVALID_ARGUMENT, errors.New("yk_texture_stats: out is NULL"))
	}
	t.mu.Lock()
	tex := t.tex
	t.mu.Unlock()
	st, d := tex.Stats(), tex.Decoding()
	path, why := tex.Path()
	info := tex.Info()
	s := C.yk_stats{decoded: C.int64_t(st.Decoded), shown: C.int64_t(st.Shown), dropped: C.int64_t(st.Dropped),
		hw_copied: C.int64_t(st.HWCopied), hardware_decoded: b32(d.Decode.HW), route: route(d.Route.Route),
		path: C.yk_path(path), ended: b32(tex.Ended()), width: C.uint32_t(info.Width), height: C.uint32_t(info.Height)}
	putText(s.decoder[:], d.Decode.Decoder)
	putText(s.decoding_reason[:], d.Decode.Reason)
	putText(s.route_reason[:], d.Route.Reason)
	putText(s.path_reason[:], why)
	C.yk__store(unsafe.Pointer(out), unsafe.Pointer(&s), C.sizeof_yk_stats, v1Stats)
	return ok()
}

func route(r stream.Route) C.yk_route {
	if r == stream.RouteCopy {
		return C.YK_ROUTE_COPY
	}
	return C.YK_ROUTE_NONE
}

//export yk_texture_acquire
func yk_texture_acquire(h C.yk_texture, params *C.yk__const_acquire_params, out *C.yk_frame) C.yk_result {
	if out == nil {
		return fail(C.YK_ERROR_INVALID_ARGUMENT, errors.New("yk_texture_acquire: out is NULL"))
	}
	var zero C.yk_frame // *out is zeroed on failure (its size field stays the caller's)
	C.yk__store(unsafe.Pointer(out), unsafe.Pointer(&zero), C.sizeof_yk_frame, v1Frame)
	t, r := textureOf(h, "yk_texture_acquire")
	if t == nil {
		return r
	}
	var p C.yk_acquire_params
	if err := load(unsafe.Pointer(&p), C.sizeof_yk_acquire_params, v1AcquireParams, unsafe.Pointer(params)); err != nil {
		return fail(C.YK_ERROR_ABI, err)
	}
	timeline := vkHandle[vk.Semaphore](unsafe.Pointer(&p.timeline))
	if timeline != vk.NullSemaphore && p.timeline_value == 0 {
		return fail(C.YK_ERROR_INVALID_ARGUMENT, errors.New("yk_texture_acquire: timeline_value must be above 0"))
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed {
		return fail(C.YK_ERROR_CLOSED, videotex.ErrClosed)
	}
	var f *videotex.Frame
	var err error
	switch p.mode {
	case C.YK_ACQUIRE_CLOCK:
		f, err = t.tex.Acquire(t.now())
	case C.YK_ACQUIRE_AT:
		f, err = t.tex.Acquire(time.Duration(p.time_ns))
	case C.YK_ACQUIRE_STEP:
		f, err = t.tex.Step()
	default:
		return fail(C.YK_ERROR_INVALID_ARGUMENT, fmt.Errorf("yk_texture_acquire: mode %d", p.mode))
	}
	if err != nil {
		return fail(code(err), err)
	}
	var fr C.yk_frame
	fr.wait_semaphore = cHandle[C.VkSemaphore](f.Wait)
	if timeline != vk.NullSemaphore {
		if err := f.SignalTimeline(timeline, uint64(p.timeline_value)); err != nil {
			f.Discard()
			return fail(code(err), err)
		}
		fr.wait_semaphore, fr.wait_value = p.timeline, p.timeline_value
	}
	if f.Sampler != t.sampler || f.DescriptorCount != t.count {
		t.gen++
		t.sampler, t.count = f.Sampler, f.DescriptorCount
	}
	t.last = f.PTS
	id := handles.add(f)
	t.frames[id] = f
	fillFrame(&fr, f, t)
	fr.id = C.uint64_t(id)
	C.yk__store(unsafe.Pointer(out), unsafe.Pointer(&fr), C.sizeof_yk_frame, v1Frame)
	return ok()
}

// fillFrame writes f's description into fr (all but the id and the wait semaphore).
func fillFrame(fr *C.yk_frame, f *videotex.Frame, t *texture) {
	fr.image, fr.view = cHandle[C.VkImage](f.Image), cHandle[C.VkImageView](f.View)
	fr.layout, fr.sampler = C.VkImageLayout(f.Layout), cHandle[C.VkSampler](f.Sampler)
	fr.descriptor_count, fr.generation = C.uint32_t(f.DescriptorCount), C.uint64_t(t.gen)
	fr.wait_stage = C.VkPipelineStageFlags(f.WaitStage)
	fr.uv_scale = [2]C.float{C.float(f.UVScale[0]), C.float(f.UVScale[1])}
	fr.width, fr.height = C.uint32_t(f.Width), C.uint32_t(f.Height)
	fr.pts_ns, fr.index, fr.advanced = C.int64_t(f.PTS), C.int64_t(f.Index), b32(f.Advanced)
	fr.path, fr.to_target = C.yk_path(f.Path), b32(f.ToTarget)
	d := t.tex.Decoding()
	fr.hardware_decoded, fr.route = b32(d.Decode.HW), route(d.Route.Route)
	if c, has := f.Conversion(); has {
		fr.has_conversion = 1
		fr.conversion = C.yk_conversion{format: C.VkFormat(c.Format), model: C.VkSamplerYcbcrModelConversion(c.Model),
			_range: C.VkSamplerYcbcrRange(c.Range),
			components: C.VkComponentMapping{r: C.VkComponentSwizzle(c.Components[0]), g: C.VkComponentSwizzle(c.Components[1]),
				b: C.VkComponentSwizzle(c.Components[2]), a: C.VkComponentSwizzle(c.Components[3])},
			x_chroma_offset: C.VkChromaLocation(c.XChromaOffset), y_chroma_offset: C.VkChromaLocation(c.YChromaOffset),
			chroma_filter: C.VkFilter(c.ChromaFilter), force_explicit_reconstruction: C.VkBool32(b32(c.ForceExplicitReconstruction))}
	}
	col := f.Color
	fr.color = C.yk_color{matrix: C.int32_t(col.Matrix), _range: C.int32_t(col.Range), chroma_location: C.int32_t(col.ChromaLocation),
		primaries: C.int32_t(col.Primaries), transfer: C.int32_t(col.Transfer)}
	hdr := &fr.color.hdr
	hdr.min_luminance, hdr.max_luminance = C.double(col.HDR.MinLuminance), C.double(col.HDR.MaxLuminance)
	hdr.max_cll, hdr.max_fall = C.double(col.HDR.MaxCLL), C.double(col.HDR.MaxFALL)
	for i := range col.HDR.Primaries {
		hdr.primaries[i] = [2]C.double{C.double(col.HDR.Primaries[i][0]), C.double(col.HDR.Primaries[i][1])}
	}
	hdr.white_point = [2]C.double{C.double(col.HDR.WhitePoint[0]), C.double(col.HDR.WhitePoint[1])}
	fr.sample_aspect = [2]C.uint32_t{C.uint32_t(f.SampleAspect[0]), C.uint32_t(f.SampleAspect[1])}
	fr.rotate, fr.flip = C.uint32_t(((f.Orientation.Rotate%4)+4)%4), b32(f.Orientation.Flip)
}

//export yk_frame_release
func yk_frame_release(h C.yk_texture, frame *C.yk__const_frame, params *C.yk__const_release_params) C.yk_result {
	if frame == nil {
		return fail(C.YK_ERROR_INVALID_ARGUMENT, errors.New("yk_frame_release: frame is NULL"))
	}
	var p C.yk_release_params
	if err := load(unsafe.Pointer(&p), C.sizeof_yk_release_params, v1ReleaseParams, unsafe.Pointer(params)); err != nil {
		return fail(C.YK_ERROR_ABI, err)
	}
	t, r := textureOf(h, "yk_frame_release")
	if t == nil {
		return r
	}
	f := t.take(uint64(frame.id))
	if f == nil { // released already, or its texture closed
		return ok()
	}
	sem := vkHandle[vk.Semaphore](unsafe.Pointer(&p.semaphore))
	var err error
	switch {
	case p.discard != 0:
		err = f.Discard()
	case sem != vk.NullSemaphore:
		err = f.ReleaseAfter(sem, uint64(p.value))
	default:
		f.Done()
	}
	t.closeRetired()
	if err != nil {
		return fail(code(err), err)
	}
	return ok()
}

//export yk_frame_draw
func yk_frame_draw(h C.yk_texture, frame *C.yk__const_frame, params *C.yk__const_draw_params) C.yk_result {
	if frame == nil || params == nil {
		return fail(C.YK_ERROR_INVALID_ARGUMENT, errors.New("yk_frame_draw: frame or params is NULL"))
	}
	var p C.yk_draw_params
	if err := load(unsafe.Pointer(&p), C.sizeof_yk_draw_params, v1DrawParams, unsafe.Pointer(params)); err != nil {
		return fail(C.YK_ERROR_ABI, err)
	}
	t, r := textureOf(h, "yk_frame_draw")
	if t == nil {
		return r
	}
	id := uint64(frame.id)
	f := t.take(id)
	if f == nil {
		return fail(C.YK_ERROR_INVALID_ARGUMENT, fmt.Errorf("yk_frame_draw: frame %d was released or its texture closed", id))
	}
	dst := videotex.DrawTarget{
		Image: vkHandle[vk.Image](unsafe.Pointer(&p.image)), View: vkHandle[vk.ImageView](unsafe.Pointer(&p.view)),
		Format: vk.Format(p.format), Width: int(p.width), Height: int(p.height), FinalLayout: vk.ImageLayout(p.final_layout),
		Wait: vkHandle[vk.Semaphore](unsafe.Pointer(&p.wait_semaphore)), WaitValue: uint64(p.wait_value),
		Signal: vkHandle[vk.Semaphore](unsafe.Pointer(&p.signal_semaphore)), SignalValue: uint64(p.signal_value),
		Filter: ycbcr.Filter(p.filter)}
	err := f.DrawInto(dst)
	if err != nil && !errors.Is(err, videotex.ErrDeviceLost) {
		f.Discard() // not drawn: its semaphore consumed, the frame given back
	}
	t.closeRetired()
	if err != nil {
		c := code(err)
		if !ycbcr.CanScaleInto(dst.Format) {
			c = C.YK_ERROR_UNSUPPORTED
		}
		return fail(c, err)
	}
	return ok()
}

// closeRetired closes the textures a seek back replaced once no frame is out (any frame out may
// be theirs).
func (t *texture) closeRetired() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.frames) > 0 {
		return
	}
	for _, old := range t.retired {
		old.Close()
	}
	t.retired = nil
}
