//go:build !nowindow

package glfwx

/*
#cgo LDFLAGS: -lX11
#include <stdlib.h>
#include <X11/Xatom.h>
#include <X11/Xlib.h>

void *glfwGetX11Display(void);

// glfwx_icc_profile reads the _ICC_PROFILE property of the default screen's root window, the
// profile colour managers (colord, xiccd) set for the display (ICC Profiles in X Specification 0.4,
// section 4: 8-bit items, the profile's bytes). NULL where it is unset; the caller XFrees the rest.
static unsigned char *glfwx_icc_profile(unsigned long *n) {
	Display *d = glfwGetX11Display();
	*n = 0;
	if (!d) return NULL;
	Atom a = XInternAtom(d, "_ICC_PROFILE", True);
	if (a == None) return NULL;
	Atom type;
	int format;
	unsigned long after;
	unsigned char *data = NULL;
	// long_length counts 32-bit units: up to 64 MiB of profile.
	if (XGetWindowProperty(d, DefaultRootWindow(d), a, 0, 16 << 20, False, AnyPropertyType, &type, &format, n, &after,
			&data) != Success)
		return NULL;
	if (data && (format != 8 || *n == 0)) {
		XFree(data);
		data = NULL;
	}
	return data;
}
static void glfwx_xfree(void *p) { XFree(p); }

// glfwx_set_icc_profile sets (n > 0) or deletes (n == 0) the property, as a colour manager does.
static int glfwx_set_icc_profile(const unsigned char *data, int n) {
	Display *d = glfwGetX11Display();
	if (!d) return 0;
	Atom a = XInternAtom(d, "_ICC_PROFILE", False);
	if (n > 0)
		XChangeProperty(d, DefaultRootWindow(d), a, XA_CARDINAL, 8, PropModeReplace, data, n);
	else
		XDeleteProperty(d, DefaultRootWindow(d), a);
	XSync(d, False);
	return 1;
}
*/
import "C"

import (
	"errors"
	"unsafe"
)

// X11ICCProfile is the display's ICC profile as the X server holds it (the _ICC_PROFILE property of
// the default screen's root window), or nil where none is set or GLFW runs on no X display. Call it
// after a window was made (GLFW initialised).
func X11ICCProfile() []byte {
	var n C.ulong
	data := C.glfwx_icc_profile(&n)
	if data == nil {
		return nil
	}
	defer C.glfwx_xfree(unsafe.Pointer(data))
	return C.GoBytes(unsafe.Pointer(data), C.int(n))
}

// SetX11ICCProfile sets the display's _ICC_PROFILE (nil or empty: deletes it), as colord or xiccd
// do: for tests of X11ICCProfile's users. GLFW must be initialised (Init).
func SetX11ICCProfile(profile []byte) error {
	var p *C.uchar
	if len(profile) > 0 {
		c := C.CBytes(profile)
		defer C.free(c)
		p = (*C.uchar)(c)
	}
	if C.glfwx_set_icc_profile(p, C.int(len(profile))) == 0 {
		return errors.New("glfwx: no X11 display")
	}
	return nil
}
