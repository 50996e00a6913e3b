//go:build nowindow

package window

import (
	"errors"
	"image"

	vk "github.com/vulkan-go/vulkan"
)

var errNoWindow = errors.New("window: this build has no window support (built with -tags nowindow); use -headless")

// Available is false: this build cannot open windows.
func Available() bool { return false }

// Init fails: this build cannot open windows.
func Init() ([]string, error) { return nil, errNoWindow }

// Terminate does nothing.
func Terminate() {}

// Window is never made in this build; its methods exist so that callers compile.
type Window struct {
	Surface vk.Surface
}

// New fails: this build cannot open windows.
func New(vk.Instance, string, int, int) (*Window, error) { return nil, errNoWindow }

func (w *Window) Poll() []Key               { return []Key{KeyQuit} }
func (w *Window) Press(Key)                 {}
func (w *Window) Resized() bool             { return false }
func (w *Window) MouseMoved() bool          { return false }
func (w *Window) DragBy(dx, dy float64)     {}
func (w *Window) Click(x, y int)            {}
func (w *Window) Clicks() []image.Point     { return nil }
func (w *Window) Drag() (int, int)          { return 0, 0 }
func (w *Window) Size() (int, int)          { return 0, 0 }
func (w *Window) Pos() (int, int)           { return 0, 0 }
func (w *Window) SetSize(width, height int) {}
func (w *Window) SetTitle(t string)         {}
func (w *Window) ToggleFullscreen()         {}
func (w *Window) Fullscreen() bool          { return false }
func (w *Window) RefreshRate() float64      { return 0 }
func (w *Window) Destroy()                  {}
func (w *Window) Close()                    {}
func (w *Window) Iconify()                  {}
func (w *Window) Restore()                  {}
func (w *Window) Iconified() bool           { return false }
func (w *Window) Hide()                     {}
func (w *Window) Show()                     {}
func (w *Window) ICCProfile() []byte        { return nil }
