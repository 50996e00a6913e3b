package gpu

import (
	"errors"
	"fmt"
	"sync"
	"time"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/internal/vkx"
)

// Waiter waits on the host for points of a device's timeline semaphores, on one thread for all its
// callers: one vkWaitSemaphores with VK_SEMAPHORE_WAIT_ANY_BIT over every point waited for, instead
// of a thread parked in the driver per caller. A wall of 64 hardware-decoded streams had 64 such
// threads, and NVIDIA's driver takes a device-wide lock in each wait that the display's own calls
// queue behind (docs/performance.md, "Live walls"). A new point wakes the waiting thread through a
// timeline semaphore of the Waiter's own, signalled from the host.
type Waiter struct {
	dev  *Device
	kick vk.Semaphore // the waiting thread's wake-up: raised from the host for a new point
	done chan struct{}

	mu      sync.Mutex
	more    *sync.Cond // pending has grown, or closed
	pending []*waitPoint
	kicked  uint64 // kick's value
	waiting bool   // the thread is in the driver, waiting for kicked+1 among others
	woken   bool   // and a Wait has raised kick since
	closed  bool
}

type waitPoint struct {
	sem   vk.Semaphore
	value uint64
	until time.Time
	slot  int // its place in the thread's current wait, -1 before it is in one
	done  chan error
}

// ErrWaiterClosed is what Wait returns after Close.
var ErrWaiterClosed = errors.New("gpu: waiter closed")

// NewWaiter starts a Waiter on d (opened with timelineSemaphore: Options.Video or Frames); Close it
// before the device.
func (d *Device) NewWaiter() (*Waiter, error) {
	if !d.Video.Features.Timeline {
		return nil, errors.New("gpu: waiter: the device was opened without timeline semaphores")
	}
	kick, err := vkx.NewTimelineSemaphore(d.Device, 0)
	if err != nil {
		return nil, fmt.Errorf("gpu: waiter: %w", err)
	}
	w := &Waiter{dev: d, kick: kick, done: make(chan struct{})}
	w.more = sync.NewCond(&w.mu)
	go w.run()
	return w, nil
}

// Wait blocks until timeline semaphore s reaches value, at most timeout (an error after it).
func (w *Waiter) Wait(s vk.Semaphore, value uint64, timeout time.Duration) error {
	p := &waitPoint{sem: s, value: value, until: time.Now().Add(timeout), slot: -1, done: make(chan error, 1)}
	w.mu.Lock()
	if w.closed {
		w.mu.Unlock()
		return ErrWaiterClosed
	}
	w.pending = append(w.pending, p)
	if err := w.wake(); err != nil {
		w.mu.Unlock()
		return err
	}
	w.more.Signal()
	w.mu.Unlock()
	return <-p.done
}

// wake raises kick once while the thread waits in the driver without the newest points; under mu,
// so that raises come in order (a timeline's value only grows: VkSemaphoreSignalInfo).
func (w *Waiter) wake() error {
	if !w.waiting || w.woken {
		return nil
	}
	w.woken = true
	w.kicked++
	if err := vkx.SignalSemaphore(w.dev.Device, w.kick, w.kicked); err != nil {
		return fmt.Errorf("gpu: waiter: %w", err)
	}
	return nil
}

func (w *Waiter) run() {
	defer close(w.done)
	var (
		sems   []vk.Semaphore
		values []uint64
		now    []uint64
	)
	for {
		w.mu.Lock()
		for len(w.pending) == 0 && !w.closed {
			w.more.Wait()
		}
		if w.closed {
			for _, p := range w.pending {
				p.done <- ErrWaiterClosed
			}
			w.pending = nil
			w.mu.Unlock()
			return
		}
		sems, values = append(sems[:0], w.kick), append(values[:0], w.kicked+1)
		until := w.pending[0].until
		for _, p := range w.pending {
			p.slot = len(sems)
			sems, values = append(sems, p.sem), append(values, p.value)
			if p.until.Before(until) {
				until = p.until
			}
		}
		w.waiting, w.woken = true, false
		w.mu.Unlock()

		if cap(now) < len(sems) {
			now = make([]uint64, len(sems), 2*len(sems))
		}
		now = now[:len(sems)]
		_, err := vkx.WaitAny(w.dev.Device, sems, values, now, time.Until(until))

		w.mu.Lock()
		w.waiting = false
		t := time.Now()
		left := w.pending[:0]
		for _, p := range w.pending {
			switch {
			case p.slot < 0: // came during the wait
				left = append(left, p)
			case err != nil:
				p.done <- fmt.Errorf("gpu: waiter: %w", err)
			case now[p.slot] >= p.value:
				p.done <- nil
			case !t.Before(p.until):
				p.done <- fmt.Errorf("gpu: waiter: timeline semaphore not at %d after its time", p.value)
			default:
				left = append(left, p)
			}
		}
		clear(w.pending[len(left):])
		w.pending = left
		w.mu.Unlock()
	}
}

// Close fails the points still waited for with ErrWaiterClosed, stops the thread and destroys the
// wake-up semaphore.
func (w *Waiter) Close() {
	w.mu.Lock()
	if w.closed {
		w.mu.Unlock()
		return
	}
	w.closed = true
	_ = w.wake() // a failed raise leaves the thread to its points' time limits
	w.more.Signal()
	w.mu.Unlock()
	<-w.done
	vk.DestroySemaphore(w.dev.Device, w.kick, nil)
}
