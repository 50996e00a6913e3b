package avx

/*
#include <stdlib.h>
#include "avx.h"
*/
import "C"

import (
	"sync/atomic"
	"unsafe"

	"github.com/asticode/go-astiav"
)

// LogMessage is one message of FFmpeg's log at warning level or more severe.
type LogMessage struct {
	// Owner is the Interrupter (LogOwner) of the demuxer or protocol that logged it, or the Pool
	// (LogOwner) of the decoder; 0 when the context that logged it belongs to neither (a filter
	// graph, swscale, a hardware device) or is none.
	Owner uintptr
	// Level is FFmpeg's (AV_LOG_WARNING 24, AV_LOG_ERROR 16, ...).
	Level int
	// Item is the context's name as FFmpeg's own log prints it in brackets ("mpegts", "h264", "udp").
	Item string
	// Format is the message's format string (constant per kind of message); Text the message.
	Format, Text string
}

var logHandler atomic.Pointer[func(LogMessage)]

// CaptureLog sends FFmpeg's log to h from now on, in place of FFmpeg's default callback (which
// writes to stderr): every message at warning level or more severe, whatever av_log_set_level says.
// h runs on the thread that logged (a decoder's frame thread, the UDP protocol's receiving thread):
// it must be quick and must not call into FFmpeg. nil gives the log back to FFmpeg's default.
func CaptureLog(h func(LogMessage)) {
	if h == nil {
		C.avx_log_release()
		logHandler.Store(nil)
		return
	}
	logHandler.Store(&h)
	C.avx_log_capture()
}

// OpenInput is fc.OpenInput(url, nil, d) (avformat_open_input), with the messages logged during it
// with no context (a demuxer's probe: HLS's "mime type is not rfc8216 compliant") counted as fc's,
// as FindStreamInfo counts its own. fc is allocated, its interrupt callback installed
// (Interrupter.Install); on failure FFmpeg frees it, as after astiav's OpenInput (only Free then).
func OpenInput(fc *astiav.FormatContext, url string, d *astiav.Dictionary) error {
	if _, err := formatContext(fc); err != nil {
		return err
	}
	// The wrappers' first fields are the C pointers (CheckLayout): FFmpeg writes the context's back
	// (NULL on failure) and the dictionary's (the options it did not use).
	pfc := (**C.AVFormatContext)(unsafe.Pointer(fc))
	var pd **C.AVDictionary
	if d != nil {
		pd = (**C.AVDictionary)(unsafe.Pointer(d))
	}
	cu := C.CString(url)
	defer C.free(unsafe.Pointer(cu))
	if ret := C.avx_open_input(pfc, cu, pd); ret < 0 {
		return astiav.Error(ret)
	}
	return nil
}

// FindStreamInfo is fc.FindStreamInfo(nil), with the messages of the decoders FFmpeg opens to probe
// the streams (its own codec contexts) counted as fc's.
func FindStreamInfo(fc *astiav.FormatContext) error {
	c, err := formatContext(fc)
	if err != nil {
		return err
	}
	if ret := C.avx_find_stream_info(c); ret < 0 {
		return astiav.Error(ret)
	}
	return nil
}

// ResumeIO clears the end-of-file and error state an interrupted read leaves on fc's I/O context
// (AVIOContext.eof_reached and error, which later reads would return at once), so that reading
// can go on where the input has more to give (a live feed that paused).
func ResumeIO(fc *astiav.FormatContext) {
	if c, err := formatContext(fc); err == nil && c.pb != nil {
		c.pb.eof_reached = 0
		c.pb.error = 0
	}
}

// LogOwner is the key of the messages of the format contexts and protocols i is installed on.
func (i *Interrupter) LogOwner() uintptr { return uintptr(unsafe.Pointer(i.it)) }

// LogOwner is the key of the messages of the decoder p is installed on (its frame threads too).
func (p *Pool) LogOwner() uintptr { return uintptr(unsafe.Pointer(p.p)) }
