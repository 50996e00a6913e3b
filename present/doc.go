// Package present shows converted pictures: the swapchain of a window's (or a headless) surface,
// recreated on resize, and the opening of a program's device with the window system (OpenDevice)
// and of its window with a swapchain (OpenWindow); present/window is the GLFW window. The GPU
// context it presents with (device, queue, memory, sync, render targets) is package gpu, which
// nothing in the core imports through here.
package present
