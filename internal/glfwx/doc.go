// Package glfwx is the thin cgo leaf for the GLFW calls the window makes itself. The first is
// glfwCreateWindowSurface with a VkSurfaceKHR that lives in C memory; another reads the reason a
// display could not be opened, which go-gl only logs; the last reads the display's ICC profile from
// the X server (libX11, which go-gl links already) on GLFW's own display connection.
//
// go-gl/glfw's Window.CreateWindowSurface returns the address of a Go variable as a uintptr, which
// the caller must turn back into a pointer (vulkan-go's SurfaceFromPointer): once only the uintptr
// refers to it the collector may free that variable before it is read, and the race detector's
// checkptr rejects the conversion ("pointer arithmetic result points to invalid allocation"). Here
// the handle comes back by value.
//
// GLFW's C code is compiled into github.com/go-gl/glfw; this package only declares the function
// (GLFW 3.3, glfw3.h), so it links wherever that package is linked.
package glfwx
