package dl

import (
	"errors"
	"strings"
	"syscall"
	"testing"
	"unsafe"
)

// cNames lays names out as a leaf's C side does (NUL-terminated strings, an array of pointers to
// them ending in NULL) in memory outside Go's heap, as cgo's pointer rules ask of what C reads.
func cNames(t *testing.T, names ...string) unsafe.Pointer {
	mem, err := syscall.Mmap(-1, 0, 4096, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { syscall.Munmap(mem) })
	base := unsafe.Pointer(&mem[0])
	ptrs := unsafe.Slice((*unsafe.Pointer)(base), len(names)+1)
	off := (len(names) + 1) * int(unsafe.Sizeof(base))
	for i, n := range names {
		copy(mem[off:], n+"\x00")
		ptrs[i] = unsafe.Add(base, off)
		off += len(n) + 1
	}
	return base
}

func TestOpen(t *testing.T) {
	fns, err := Open("libc.so.6", cNames(t, "strlen", "memcpy"))
	if err != nil || len(fns) != 2 || fns[0] == nil || fns[1] == nil || fns[0] == fns[1] {
		t.Fatalf("libc strlen, memcpy: %v, %v", fns, err)
	}

	_, err = Open("libc.so.6", cNames(t, "strlen", "no_such_function_in_libc"))
	var missing *MissingError
	if !errors.As(err, &missing) || missing.Func != "no_such_function_in_libc" || missing.Library != "libc.so.6" ||
		err.Error() != "cannot load libc.so.6: no symbol no_such_function_in_libc" {
		t.Errorf("a missing function: %v", err)
	}

	_, err = Open("libycbcrkit-no-such-library.so.0", cNames(t, "f"))
	if err == nil || errors.As(err, &missing) ||
		!strings.HasPrefix(err.Error(), "cannot load libycbcrkit-no-such-library.so.0: libycbcrkit-no-such-library.so.0: ") {
		t.Errorf("a missing library: %v", err)
	}
}
