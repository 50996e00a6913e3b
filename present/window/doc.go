// Package window is the GLFW window a player shows video in: its Vulkan surface, size, fullscreen
// toggle and keys. It is apart from present so that headless programs (the conformance checker, the
// GPU benchmark) link no windowing library.
//
// Built with -tags nowindow it links no GLFW or X11 library at all: Available reports false, and
// Init and New fail with a one-line reason. That build is for machines without a display server and
// without the X11 client libraries (the GPU machines the project measures on); the programs then run
// headless.
package window
