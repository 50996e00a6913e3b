//go:build !nowindow

package window

import (
	"fmt"
	"image"
	"os"
	"runtime"
	"sync"

	"github.com/go-gl/glfw/v3.3/glfw"
	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/internal/glfwx"
	"github.com/ycbcrkit/ycbcrkit/internal/vkx"
)

// GLFW must be called from the main OS thread.
func init() { runtime.LockOSThread() }

// Available reports whether a display server is reachable. Without one glfw.Init only logs and the
// next GLFW call panics, so callers check first.
func Available() bool { return os.Getenv("DISPLAY") != "" || os.Getenv("WAYLAND_DISPLAY") != "" }

var initialised bool

// Init starts GLFW and returns the instance extensions a Vulkan surface needs.
func Init() ([]string, error) {
	if !Available() {
		return nil, fmt.Errorf("window: no display (DISPLAY and WAYLAND_DISPLAY unset; -headless plays without a window)")
	}
	if !initialised {
		// glfwx.Init first: go-gl's Init reports a display that cannot be opened only as a log line.
		if err := glfwx.Init(); err != nil {
			return nil, fmt.Errorf("window: %v (DISPLAY=%q; use -headless to play without a window)", err, os.Getenv("DISPLAY"))
		}
		if err := glfw.Init(); err != nil {
			return nil, fmt.Errorf("window: %w", err)
		}
		initialised = true
	}
	if !glfw.VulkanSupported() {
		return nil, fmt.Errorf("window: GLFW finds no Vulkan loader")
	}
	return glfw.GetCurrentContext().GetRequiredInstanceExtensions(), nil
}

// Terminate stops GLFW; call after every window is destroyed.
func Terminate() {
	if initialised {
		glfw.Terminate()
		initialised = false
	}
}

var keyMap = map[glfw.Key]Key{
	glfw.KeySpace: KeySpace, glfw.KeyLeft: KeyLeft, glfw.KeyRight: KeyRight, glfw.KeyUp: KeyUp,
	glfw.KeyDown: KeyDown, glfw.KeyPeriod: KeyPeriod, glfw.KeyP: KeyP, glfw.KeyC: KeyC, glfw.KeyI: KeyI,
	glfw.KeyF: KeyF, glfw.Key9: Key9, glfw.Key0: Key0, glfw.KeyM: KeyM, glfw.KeyQ: KeyQuit, glfw.KeyEscape: KeyEscape,
	glfw.KeyZ: KeyZ, glfw.Key1: Key1,
	glfw.KeyComma: KeyComma, glfw.KeyS: KeyS, glfw.KeyEnter: KeyNext, glfw.KeyKPEnter: KeyNext, glfw.KeyF1: KeyHelp,
	glfw.KeyBackspace: KeyBackspace, glfw.KeyPageUp: KeyChapterNext, glfw.KeyPageDown: KeyChapterPrev,
	glfw.KeyL: KeyL, glfw.KeyTab: KeyTab, glfw.KeyO: KeyO,
	glfw.Key2: Key2, glfw.Key3: Key3, glfw.Key4: Key4, glfw.Key5: Key5, glfw.Key6: Key6, glfw.Key7: Key7, glfw.Key8: Key8,
}

// charMap is the keys named by the character they type, whatever the layout puts them on (as mpv
// binds them): '?' is shift+/ on a US layout and elsewhere on others.
var charMap = map[rune]Key{'?': KeyHelp, '[': KeySlower, ']': KeyFaster, '>': KeyNext, '<': KeyPrev,
	'!': KeyChapterPrev, '@': KeyChapterNext, 'Q': KeyQuitSave,
	'j': KeySubNext, 'J': KeySubPrev, 'v': KeySubToggle}

// Window is a resizable window with a Vulkan surface.
type Window struct {
	win      *glfw.Window
	Surface  vk.Surface
	instance vk.Instance
	keys     []Key
	keysMu   sync.Mutex
	resized  bool
	moved    bool
	// dragging: the left button is down; drag is the pointer's motion meanwhile not yet taken by
	// Drag, in framebuffer pixels (under keysMu: DragBy comes from any goroutine).
	dragging bool
	drag     [2]float64
	// press is where the left button went down, in framebuffer pixels; clicks are the presses
	// released within clickSlop of it, not yet taken by Clicks (under keysMu).
	press  [2]float64
	clicks []image.Point
	// windowed position and size, restored when leaving fullscreen
	wx, wy, ww, wh int
}

// New opens a window with a Vulkan surface on instance.
func New(instance vk.Instance, title string, width, height int) (*Window, error) {
	glfw.WindowHint(glfw.ClientAPI, glfw.NoAPI)
	glfw.WindowHint(glfw.Resizable, glfw.True)
	win, err := glfw.CreateWindow(width, height, title, nil, nil)
	if err != nil {
		return nil, fmt.Errorf("window: %w", err)
	}
	w := &Window{win: win, instance: instance}
	surface, r := glfwx.CreateSurface(instance, win)
	if err := vkx.Check(r, "glfwCreateWindowSurface"); err != nil {
		win.Destroy()
		return nil, fmt.Errorf("window: surface: %w", err)
	}
	w.Surface = surface
	win.SetKeyCallback(func(_ *glfw.Window, k glfw.Key, _ int, action glfw.Action, mods glfw.ModifierKey) {
		if action == glfw.Press || action == glfw.Repeat {
			if (k == glfw.KeyComma || k == glfw.KeyPeriod || k == glfw.KeyQ) && mods&glfw.ModShift != 0 {
				return // '<', '>' or 'Q' on a US layout: the character callback has it
			}
			if key, ok := keyMap[k]; ok {
				w.Press(key)
			}
		}
	})
	win.SetCharCallback(func(_ *glfw.Window, r rune) {
		if key, ok := charMap[r]; ok {
			w.Press(key)
		}
	})
	// GLFW reports a cursor position when the pointer enters the window too (x11_window.c, EnterNotify),
	// which happens when the window moves or grows under a still pointer: that first report after an
	// enter is a baseline, not a motion.
	var entered bool
	var lx, ly float64
	win.SetCursorEnterCallback(func(_ *glfw.Window, in bool) { entered = in })
	win.SetCursorPosCallback(func(_ *glfw.Window, x, y float64) {
		if !entered && (x != lx || y != ly) {
			w.moved = true
			if w.dragging {
				// Cursor positions are in screen coordinates, the picture in framebuffer pixels (HiDPI).
				ww, wh := win.GetSize()
				fw, fh := win.GetFramebufferSize()
				if ww > 0 && wh > 0 {
					w.DragBy((x-lx)*float64(fw)/float64(ww), (y-ly)*float64(fh)/float64(wh))
				}
			}
		}
		entered, lx, ly = false, x, y
	})
	win.SetMouseButtonCallback(func(_ *glfw.Window, b glfw.MouseButton, action glfw.Action, _ glfw.ModifierKey) {
		if b == glfw.MouseButtonLeft {
			w.dragging = action == glfw.Press
			x, y := win.GetCursorPos()
			ww, wh := win.GetSize()
			fw, fh := win.GetFramebufferSize()
			if ww > 0 && wh > 0 {
				x, y = x*float64(fw)/float64(ww), y*float64(fh)/float64(wh)
			}
			if action == glfw.Press {
				w.press = [2]float64{x, y}
			} else if dx, dy := x-w.press[0], y-w.press[1]; dx*dx+dy*dy <= clickSlop*clickSlop {
				w.Click(int(x), int(y))
			}
		}
	})
	win.SetFramebufferSizeCallback(func(_ *glfw.Window, _, _ int) { w.resized = true })
	return w, nil
}

// Press queues k as if it had been pressed (tests drive the player with it). Safe from any goroutine.
func (w *Window) Press(k Key) {
	w.keysMu.Lock()
	w.keys = append(w.keys, k)
	w.keysMu.Unlock()
}

// clickSlop is how far, in framebuffer pixels, the pointer may move between a left button's press
// and release for it to count as a click rather than a drag.
const clickSlop = 4

// Click adds a click of the left button at (x, y) in framebuffer pixels, as if the pointer had
// clicked there (tests drive ycbcrwall with it). Safe from any goroutine.
func (w *Window) Click(x, y int) {
	w.keysMu.Lock()
	w.clicks = append(w.clicks, image.Pt(x, y))
	w.keysMu.Unlock()
}

// Clicks returns the left button's clicks since the last call, in framebuffer pixels.
func (w *Window) Clicks() []image.Point {
	w.keysMu.Lock()
	defer w.keysMu.Unlock()
	c := w.clicks
	w.clicks = nil
	return c
}

// DragBy adds a drag with the left button of (dx, dy) framebuffer pixels, as if the pointer had
// moved so with the button down (tests drive the player with it). Safe from any goroutine.
func (w *Window) DragBy(dx, dy float64) {
	w.keysMu.Lock()
	w.drag[0] += dx
	w.drag[1] += dy
	w.keysMu.Unlock()
}

// Drag returns the left button's drag since the last call in whole framebuffer pixels (right and
// down positive), keeping the fractions for the next.
func (w *Window) Drag() (dx, dy int) {
	w.keysMu.Lock()
	defer w.keysMu.Unlock()
	dx, dy = int(w.drag[0]), int(w.drag[1])
	w.drag[0] -= float64(dx)
	w.drag[1] -= float64(dy)
	return dx, dy
}

// Poll processes window events and returns the keys pressed since the last call.
func (w *Window) Poll() []Key {
	glfw.PollEvents()
	w.keysMu.Lock()
	keys := w.keys
	w.keys = nil
	w.keysMu.Unlock()
	if w.win.ShouldClose() {
		keys = append(keys, KeyQuit)
	}
	return keys
}

// MouseMoved reports (once) that the pointer moved over the window since the last call: motion
// events only, not the window moving or resizing under a still pointer.
func (w *Window) MouseMoved() bool {
	m := w.moved
	w.moved = false
	return m
}

// Resized reports (once) that the framebuffer size changed.
func (w *Window) Resized() bool {
	r := w.resized
	w.resized = false
	return r
}

// Size is the framebuffer size in pixels (0×0 while minimised).
func (w *Window) Size() (int, int) { return w.win.GetFramebufferSize() }

// Pos is the position of the window's content area on the screen.
func (w *Window) Pos() (int, int) { return w.win.GetPos() }

// SetSize resizes the window (the player, once the first frame gives the video's size; tests, for
// resize storms). On the full screen it sets the size the window returns to when it leaves it.
func (w *Window) SetSize(width, height int) {
	if w.Fullscreen() {
		w.ww, w.wh = width, height
		return
	}
	w.win.SetSize(width, height)
}

// Close asks the window to close, as the window manager's close button does: GLFW turns
// WM_DELETE_WINDOW into the same flag (glfwSetWindowShouldClose; x11_window.c), which Poll reports as
// KeyQuit. Tests use it; call it from the thread that polls.
func (w *Window) Close() { w.win.SetShouldClose(true) }

// SetTitle sets the window title.
func (w *Window) SetTitle(t string) { w.win.SetTitle(t) }

// ToggleFullscreen switches between the window and the primary monitor's full screen.
func (w *Window) ToggleFullscreen() {
	if m := w.win.GetMonitor(); m != nil {
		w.win.SetMonitor(nil, w.wx, w.wy, w.ww, w.wh, 0)
		return
	}
	mon := glfw.GetPrimaryMonitor()
	if mon == nil {
		return
	}
	w.wx, w.wy = w.win.GetPos()
	w.ww, w.wh = w.win.GetSize()
	mode := mon.GetVideoMode()
	w.win.SetMonitor(mon, 0, 0, mode.Width, mode.Height, mode.RefreshRate)
}

// RefreshRate is the refresh rate in Hz of the monitor the window is on (full screen), else of the
// primary monitor; 0 when GLFW knows none.
func (w *Window) RefreshRate() float64 {
	mon := w.win.GetMonitor()
	if mon == nil {
		mon = glfw.GetPrimaryMonitor()
	}
	if mon == nil {
		return 0
	}
	if mode := mon.GetVideoMode(); mode != nil {
		return float64(mode.RefreshRate)
	}
	return 0
}

// Fullscreen reports whether the window covers a monitor.
func (w *Window) Fullscreen() bool { return w.win.GetMonitor() != nil }

// Destroy destroys the surface and the window. The swapchain must be gone first.
func (w *Window) Destroy() {
	if w.Surface != vk.NullSurface {
		vk.DestroySurface(w.instance, w.Surface, nil)
		w.Surface = vk.NullSurface
	}
	w.win.Destroy()
}

// ICCProfile is the display's ICC profile where the window system holds one (X11: the _ICC_PROFILE
// property of the default screen's root window), else nil.
func (w *Window) ICCProfile() []byte { return glfwx.X11ICCProfile() }
