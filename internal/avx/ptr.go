package avx

/*
#cgo pkg-config: libavcodec libavformat libavutil libswscale libswresample
#include "avx.h"
*/
import "C"

import (
	"errors"
	"fmt"
	"reflect"
	"unsafe"

	"github.com/asticode/go-astiav"
)

// go-astiav v0.39.0 gives CodecContext and Frame an UnsafePointer(), but not FormatContext, whose
// wrapper is
//
//	type FormatContext struct { c *C.AVFormatContext }
//
// Its pointer is read through unsafe from offset 0. That is safe only while the layout holds, so it
// is checked once with reflect (field name, offset, pointer kind and the cgo type name of the
// pointee); a different go-astiav fails with an error instead of reading garbage. go.mod pins v0.39.0.
// Dictionary's too: OpenInput hands FFmpeg both fields' addresses.
var layoutErr = errors.Join(checkLayout(reflect.TypeOf(astiav.FormatContext{}), "AVFormatContext"),
	checkLayout(reflect.TypeOf(astiav.Dictionary{}), "AVDictionary"))

func checkLayout(t reflect.Type, cName string) error {
	if t.NumField() == 0 {
		return fmt.Errorf("avx: astiav.%s has no fields: go-astiav layout changed", t.Name())
	}
	f := t.Field(0)
	if f.Name != "c" || f.Offset != 0 || f.Type.Kind() != reflect.Pointer ||
		f.Type.Elem().Name() != "_Ctype_struct_"+cName {
		return fmt.Errorf("avx: astiav.%s's first field is %s %s, not c *C.struct_%s: go-astiav layout changed",
			t.Name(), f.Name, f.Type, cName)
	}
	return nil
}

// firstPointer reads the C pointer at offset 0 of a go-astiav wrapper.
func firstPointer(wrapper unsafe.Pointer) unsafe.Pointer {
	return *(*unsafe.Pointer)(wrapper)
}

func codecContext(cc *astiav.CodecContext) (*C.AVCodecContext, error) {
	if cc == nil {
		return nil, errors.New("avx: nil codec context")
	}
	p := (*C.AVCodecContext)(cc.UnsafePointer())
	if p == nil {
		return nil, errors.New("avx: codec context is freed")
	}
	return p, nil
}

func formatContext(fc *astiav.FormatContext) (*C.AVFormatContext, error) {
	if layoutErr != nil {
		return nil, layoutErr
	}
	if fc == nil {
		return nil, errors.New("avx: nil format context")
	}
	p := (*C.AVFormatContext)(firstPointer(unsafe.Pointer(fc)))
	if p == nil {
		return nil, errors.New("avx: format context is closed")
	}
	return p, nil
}

func frame(f *astiav.Frame) *C.AVFrame { return (*C.AVFrame)(f.UnsafePointer()) }

// CheckLayout reports whether this go-astiav has the wrapper layout the raw-pointer access needs.
func CheckLayout() error { return layoutErr }
