package dl

/*
#cgo LDFLAGS: -ldl
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

// dl_open opens path and looks up names[i] into fns[i] until names ends (NULL): 0 done; -1 the
// library did not open, err says why; 1 + i names[i] is missing, and the library is closed again.
// One C call, so that dlerror reads the state of the thread dlopen ran on.
static int dl_open(const char *path, char *const *names, void **fns, char *err, int errlen) {
	void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		snprintf(err, errlen, "%s", dlerror());
		return -1;
	}
	for (int i = 0; names[i]; i++) {
		if (!(fns[i] = dlsym(h, names[i]))) {
			dlclose(h);
			return 1 + i;
		}
	}
	return 0;
}
*/
import "C"

import (
	"fmt"
	"unsafe"
)

// A MissingError is a library that opens but lacks one of the functions: an older version than the
// leaf needs.
type MissingError struct{ Library, Func string }

func (e *MissingError) Error() string {
	return fmt.Sprintf("cannot load %s: no symbol %s", e.Library, e.Func)
}

// Open opens the shared library soname (RTLD_NOW | RTLD_LOCAL: its symbols stay out of the
// process's namespace) and returns the addresses of the functions names lists, in its order. names
// is the leaf's C array of function names, ending in NULL (const char *const *). The library stays
// open for the process's life. The error says why it did not open, or is a *MissingError.
func Open(soname string, names unsafe.Pointer) ([]unsafe.Pointer, error) {
	list := unsafe.Slice((**C.char)(names), count(names)+1)
	fns := make([]unsafe.Pointer, len(list))
	path := C.CString(soname)
	defer C.free(unsafe.Pointer(path))
	var buf [256]C.char
	switch rc := C.dl_open(path, &list[0], &fns[0], &buf[0], C.int(len(buf))); {
	case rc < 0:
		return nil, fmt.Errorf("cannot load %s: %s", soname, C.GoString(&buf[0]))
	case rc > 0:
		return nil, &MissingError{Library: soname, Func: C.GoString(list[rc-1])}
	}
	return fns[:len(fns)-1], nil
}

// count is how many names the NULL-terminated array holds.
func count(names unsafe.Pointer) int {
	n := 0
	for *(**C.char)(unsafe.Add(names, n*int(unsafe.Sizeof(names)))) != nil {
		n++
	}
	return n
}
