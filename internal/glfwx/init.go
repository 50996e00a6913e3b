//go:build !nowindow

package glfwx

/*
int glfwInit(void);
int glfwGetError(const char **description);

// glfwx_init calls glfwInit and, when it fails, returns GLFW's own description of why (GLFW 3.3,
// glfwGetError: "X11: Failed to open display :9").
static int glfwx_init(const char **desc) {
	*desc = 0;
	if (glfwInit()) return 1;
	glfwGetError(desc);
	return 0;
}
*/
import "C"

import "errors"

// Init initialises GLFW and returns its reason when that fails. go-gl/glfw's Init returns nil when
// glfwInit fails with a platform error (a DISPLAY naming no reachable X server) and only logs the
// error, so that the next call fails with a misleading one ("no Vulkan loader"); this returns the
// real cause. Calling it again after success does nothing (glfwInit returns GLFW_TRUE when GLFW is
// already initialised).
func Init() error {
	var desc *C.char
	if C.glfwx_init(&desc) == 1 {
		return nil
	}
	if desc == nil {
		return errors.New("glfwInit failed")
	}
	return errors.New(C.GoString(desc))
}
