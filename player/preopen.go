package player

import (
	"sync/atomic"
	"time"

	"github.com/ycbcrkit/ycbcrkit/gpu"
)

// Opening is a device being opened on its own goroutine for a later Play (Config.Opening), so that
// creating the Vulkan instance and device overlaps with what the program does first: opening the
// input, whose stream probing decodes the first frames (tens of milliseconds for H.264 at 2160p).
type Opening struct {
	done  chan struct{}
	dev   *gpu.Device
	err   error
	taken atomic.Bool
}

// deviceOptions is how Play opens the device for cfg (a window's instance extensions aside).
func deviceOptions(cfg Config) gpu.Options {
	return gpu.Options{Index: cfg.Device, Validation: cfg.Validate, Video: cfg.Video, CacheDir: cfg.CacheDir}
}

// OpenDevice starts opening the device cfg asks for, headless only: a window's instance extensions
// come from GLFW, which runs on the main thread. It returns nil otherwise; Play then opens the
// device itself. A program that does not reach Play calls Discard.
func OpenDevice(cfg Config) *Opening {
	if !cfg.Headless {
		return nil
	}
	o := &Opening{done: make(chan struct{})}
	go func() {
		defer close(o.done)
		o.dev, o.err = gpu.Open(deviceOptions(cfg))
	}()
	return o
}

// take hands the device to Play (once), after waiting for it; wait is how long that took.
func (o *Opening) take() (dev *gpu.Device, wait time.Duration, err error) {
	o.taken.Store(true)
	t := time.Now()
	<-o.done
	return o.dev, time.Since(t), o.err
}

// Discard closes the device if no Play took it. It does nothing on nil.
func (o *Opening) Discard() {
	if o == nil || o.taken.Swap(true) {
		return
	}
	<-o.done
	if o.dev != nil {
		o.dev.Close()
	}
}
