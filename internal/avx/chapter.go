package avx

/*
#include <stdlib.h>
#include "avx.h"
*/
import "C"

import (
	"unsafe"

	"github.com/asticode/go-astiav"
)

// Chapter is one of the input's chapters (AVChapter): start and end in seconds, on the container's
// clock, and its "title" metadata ("" without one). go-astiav v0.39.0 does not wrap AVChapter.
type Chapter struct {
	Start, End float64
	Title      string
}

// Chapters lists the opened input's chapters in the container's order.
func Chapters(fc *astiav.FormatContext) []Chapter {
	c, err := formatContext(fc)
	if err != nil || c.nb_chapters == 0 || c.chapters == nil {
		return nil
	}
	chs := unsafe.Slice(c.chapters, int(c.nb_chapters))
	title := C.CString("title")
	defer C.free(unsafe.Pointer(title))
	out := make([]Chapter, 0, len(chs))
	for _, ch := range chs {
		tb := float64(ch.time_base.num) / float64(ch.time_base.den)
		if ch.time_base.den == 0 {
			continue
		}
		cc := Chapter{Start: float64(ch.start) * tb, End: float64(ch.end) * tb}
		if e := C.av_dict_get(ch.metadata, title, nil, 0); e != nil {
			cc.Title = C.GoString(e.value)
		}
		out = append(out, cc)
	}
	return out
}
