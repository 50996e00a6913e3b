package avx

/*
#include <stdlib.h>
#include "avx.h"
*/
import "C"

import (
	"errors"
	"io"
	"unsafe"

	"github.com/asticode/go-astiav"
)

// IO is a URL opened for reading through FFmpeg's protocols (avio_open2: file, pipe, http, ...),
// whose blocking calls poll an Interrupter. The read-ahead cache reads its input through it.
type IO struct {
	pb *C.AVIOContext
}

// OpenIO opens url with it as the interrupt callback.
func OpenIO(url string, it *Interrupter) (*IO, error) {
	cu := C.CString(url)
	defer C.free(unsafe.Pointer(cu))
	var pb *C.AVIOContext
	if ret := C.avx_io_open(&pb, cu, it.it); ret < 0 {
		return nil, astiav.Error(ret)
	}
	return &IO{pb: pb}, nil
}

// Read reads what is there, at least one byte (avio_read_partial), or io.EOF at the end.
func (o *IO) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	n := C.avio_read_partial(o.pb, (*C.uchar)(unsafe.Pointer(&p[0])), C.int(len(p)))
	switch {
	case n == C.AVERROR_EOF || n == 0:
		return 0, io.EOF
	case n < 0:
		return 0, astiav.Error(n)
	}
	return int(n), nil
}

// Seekable says whether the input can seek by bytes (a file, an HTTP server that takes ranges);
// pipes cannot.
func (o *IO) Seekable() bool { return o.pb.seekable&C.AVIO_SEEKABLE_NORMAL != 0 }

// SeekTo moves to byte off.
func (o *IO) SeekTo(off int64) error {
	if ret := C.avio_seek(o.pb, C.int64_t(off), C.SEEK_SET); ret < 0 {
		return astiav.Error(ret)
	} else if int64(ret) != off {
		return errors.New("avx: seek landed elsewhere")
	}
	return nil
}

// Close closes the input.
func (o *IO) Close() {
	if o.pb != nil {
		C.avio_closep(&o.pb)
	}
}

// IndexPos is the byte position of the index entry of stream idx at or before ts (in the stream's
// time base) that the demuxer knows (av_index_search_timestamp with AVSEEK_FLAG_BACKWARD), or false
// when it knows none.
func IndexPos(fc *astiav.FormatContext, idx int, ts int64) (int64, bool) {
	c, err := formatContext(fc)
	if err != nil || idx < 0 || idx >= int(c.nb_streams) {
		return 0, false
	}
	st := unsafeStreams(c)[idx]
	i := C.av_index_search_timestamp(st, C.int64_t(ts), C.AVSEEK_FLAG_BACKWARD)
	if i < 0 {
		return 0, false
	}
	e := C.avformat_index_get_entry(st, i)
	if e == nil {
		return 0, false
	}
	return int64(e.pos), true
}
