package avx

// This file holds only exported functions: cgo then allows declarations alone in its preamble.

/*
#include <stdint.h>
*/
import "C"

import (
	"runtime/cgo"
	"sync"
)

// newEngineLock makes l a handle FFmpeg's lock_queue calls back with (hw.c).
func newEngineLock(l sync.Locker) uintptr { return uintptr(cgo.NewHandle(l)) }

//export avxEngineQueueLock
func avxEngineQueueLock(h C.uintptr_t) { cgo.Handle(h).Value().(sync.Locker).Lock() }

//export avxEngineQueueUnlock
func avxEngineQueueUnlock(h C.uintptr_t) { cgo.Handle(h).Value().(sync.Locker).Unlock() }

//export avxEngineQueueRelease
func avxEngineQueueRelease(h C.uintptr_t) { cgo.Handle(h).Delete() }
