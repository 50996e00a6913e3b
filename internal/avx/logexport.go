package avx

// This file holds only exported functions: cgo then allows declarations alone in its preamble.

/*
#include <stdint.h>
*/
import "C"

//export avxLogMessage
func avxLogMessage(owner C.uintptr_t, level C.int, item, format, msg *C.char) {
	h := logHandler.Load()
	if h == nil {
		return
	}
	(*h)(LogMessage{Owner: uintptr(owner), Level: int(level), Item: C.GoString(item), Format: C.GoString(format), Text: C.GoString(msg)})
}
