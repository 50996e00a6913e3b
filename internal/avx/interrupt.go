package avx

/*
#include "avx.h"
*/
import "C"

import (
	"errors"
	"time"

	"github.com/asticode/go-astiav"
)

// Interrupter is the format context's AVIOInterruptCB: FFmpeg polls it while it waits for I/O, and
// it asks FFmpeg to give up once the armed deadline has passed or after Abort. go-astiav's own
// interrupter has no deadline and is a Go int polled from C without synchronisation; this one keeps
// its state in C memory with atomics, so Abort may be called from any goroutine.
type Interrupter struct {
	it *C.AvxInterrupt
}

// NewInterrupter allocates an interrupter. Free it after the format context it is installed on.
func NewInterrupter() (*Interrupter, error) {
	it := C.avx_interrupt_new()
	if it == nil {
		return nil, errors.New("avx: interrupter: out of memory")
	}
	return &Interrupter{it: it}, nil
}

// Install sets the callback on fc. Call it before fc.OpenInput (a user-supplied context keeps it).
func (i *Interrupter) Install(fc *astiav.FormatContext) error {
	c, err := formatContext(fc)
	if err != nil {
		return err
	}
	C.avx_interrupt_install(i.it, c)
	return nil
}

// Arm starts a deadline d from now (d ≤ 0 disarms). A deadline that fired is cleared; Abort is not.
func (i *Interrupter) Arm(d time.Duration) { C.avx_interrupt_arm(i.it, C.int64_t(d.Nanoseconds())) }

// Abort makes every later blocking call return at once. Safe from any goroutine.
func (i *Interrupter) Abort() { C.avx_interrupt_abort(i.it) }

// TimedOut reports whether the deadline interrupted a call since the last Arm.
func (i *Interrupter) TimedOut() bool { return C.avx_interrupt_fired(i.it) == 1 }

// Aborted reports whether Abort was called.
func (i *Interrupter) Aborted() bool { return C.avx_interrupt_fired(i.it) == 2 }

// Free releases the interrupter.
func (i *Interrupter) Free() {
	if i.it != nil {
		C.avx_interrupt_free(i.it)
		i.it = nil
	}
}

// interruptCallback calls the installed callback as FFmpeg would (for tests).
func interruptCallback(i *Interrupter) C.int {
	var fc C.AVFormatContext
	C.avx_interrupt_install(i.it, &fc)
	return C.avx_interrupt_poll(&fc)
}
