package present

import (
	"github.com/ycbcrkit/ycbcrkit/gpu"
	"github.com/ycbcrkit/ycbcrkit/present/window"
)

// DeviceParams say how OpenDevice opens the device a program shows pictures with. The zero value
// opens gpu.Options' zero value (the first device in -list-devices order) with the window system.
type DeviceParams struct {
	// GPU are the device's options; OpenDevice adds the window system's instance extensions and
	// VK_KHR_swapchain to them.
	GPU gpu.Options
	// Headless opens the device alone, for offscreen targets: the window system is not started.
	Headless bool
}

// OpenDevice opens a program's device: unless Headless, the window system first (window.Init,
// whose errors say that -headless plays without a window), then gpu.Open with what a window's
// surface and swapchain need. CloseDevice closes it; a caller that closes the device itself
// (gpu.Device.Leave) ends the window system with window.Terminate.
func OpenDevice(p DeviceParams) (*gpu.Device, error) {
	if !p.Headless {
		exts, err := window.Init()
		if err != nil {
			return nil, err
		}
		p.GPU.InstanceExtensions = append(p.GPU.InstanceExtensions[:len(p.GPU.InstanceExtensions):len(p.GPU.InstanceExtensions)], exts...)
		p.GPU.Swapchain = true
	}
	dev, err := gpu.Open(p.GPU)
	if err != nil {
		window.Terminate()
		return nil, err
	}
	return dev, nil
}

// CloseDevice closes dev, then ends the window system OpenDevice started (after every window is
// destroyed; nothing when headless).
func CloseDevice(dev *gpu.Device) {
	dev.Close()
	window.Terminate()
}

// WindowParams say how OpenWindow opens a window and its swapchain. The zero value opens a 640×480
// window titled "ycbcrkit" with an SDR swapchain with vertical sync.
type WindowParams struct {
	Title string
	// Width and Height are the window's size in pixels (0: 640×480).
	Width, Height int
	// Fullscreen starts on the full screen (window.ToggleFullscreen switches back).
	Fullscreen bool
	Swapchain  SwapchainOptions
}

// OpenWindow opens a window on dev's instance (OpenDevice's, not headless) and a swapchain for its
// surface at the window's framebuffer size. Destroy the swapchain, then the window.
func OpenWindow(dev *gpu.Device, p WindowParams) (*window.Window, *Swapchain, error) {
	if p.Title == "" {
		p.Title = "ycbcrkit"
	}
	if p.Width <= 0 || p.Height <= 0 {
		p.Width, p.Height = 640, 480
	}
	win, err := window.New(dev.Instance, p.Title, p.Width, p.Height)
	if err != nil {
		return nil, nil, err
	}
	if p.Fullscreen {
		win.ToggleFullscreen()
	}
	fw, fh := win.Size()
	swap, err := NewSwapchain(dev, win.Surface, fw, fh, p.Swapchain)
	if err != nil {
		win.Destroy()
		return nil, nil, err
	}
	return win, swap, nil
}
