//go:build !nowindow

package window

import "github.com/go-gl/glfw/v3.3/glfw"

// Iconify minimises the window (the framebuffer becomes 0×0 on most window managers; under a bare
// X server without one the request may be ignored). Tests use it to check that playback survives a
// window with nothing to draw into.
func (w *Window) Iconify() { w.win.Iconify() }

// Restore undoes Iconify (and maximisation).
func (w *Window) Restore() { w.win.Restore() }

// Iconified reports whether the window is minimised.
func (w *Window) Iconified() bool { return w.win.GetAttrib(glfw.Iconified) == 1 }

// Hide unmaps the window, as a window manager does with a minimised one: the swapchain's images
// then have nowhere to go.
func (w *Window) Hide() { w.win.Hide() }

// Show maps the window again after Hide.
func (w *Window) Show() { w.win.Show() }
