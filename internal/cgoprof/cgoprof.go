package cgoprof

/*
#include "cgoprof.h"
*/
import "C"

import (
	"runtime"
	"sync"
	"time"
	"unsafe"
)

var once sync.Once

// Start registers the traceback (once; before the profile starts) and keeps its table of the
// process's executable mappings current for a minute, as libraries load (the Vulkan driver).
func Start() {
	once.Do(func() {
		refresh()
		runtime.SetCgoTraceback(0, unsafe.Pointer(C.cgoprof_traceback), nil, nil)
		go func() {
			for i := 0; i < 60; i++ {
				time.Sleep(time.Second)
				refresh()
			}
		}()
	})
}

// refresh reads the executable mappings (ReadMaps, "r-xp") into the spare table and publishes it.
func refresh() {
	ms, err := ReadMaps()
	if err != nil {
		return
	}
	t := C.cgoprof_spare()
	t.n = 0
	for _, m := range ms {
		if t.n == C.CGOPROF_MAX {
			break
		}
		if m.Exec() {
			t.lo[t.n], t.hi[t.n] = C.uintptr_t(m.Lo), C.uintptr_t(m.Hi)
			t.n++
		}
	}
	C.cgoprof_publish()
}

// selfCheck runs C's traceback on its own stack (cgoprof_check_outer): whether the interrupted PC
// came first, and the addresses it gave.
func selfCheck() (pcFirst bool, pcs []uintptr, outer uintptr) {
	var buf [32]C.uintptr_t
	ok := C.cgoprof_check_outer(&buf[0], C.uintptr_t(len(buf)))
	for _, a := range buf {
		if a == 0 {
			break
		}
		pcs = append(pcs, uintptr(a))
	}
	return ok == 1, pcs, uintptr(unsafe.Pointer(C.cgoprof_check_outer))
}
