module github.com/ycbcrkit/ycbcrkit

go 1.26.8

require (
	github.com/asticode/go-astiav v0.39.0
	github.com/go-gl/glfw/v3.3/glfw v0.0.0-20260823155953-d41da22a9587
	github.com/vulkan-go/vulkan v0.0.0-20221209234627-c0a353ae26c8
	golang.org/x/image v0.47.0
	golang.org/x/sys v0.49.0
)

require (
	github.com/asticode/go-astikit v0.42.0 // indirect
	golang.org/x/text v0.43.0 // indirect
)
