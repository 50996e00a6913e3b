package gpu

import (
	"errors"
	"sync"
	"testing"
	"time"

	vk "github.com/vulkan-go/vulkan"

	"github.com/ycbcrkit/ycbcrkit/internal/vkx"
)

// TestWaiter: eight callers wait on points of their own timeline semaphores, raised from the host one
// at a time in another order; each Wait returns only once its point is raised (and then at once,
// the others still waiting), a point never raised times out, and Close ends a wait in progress.
func TestWaiter(t *testing.T) {
	d, err := Open(Options{Index: -1, Validation: true, Frames: true})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	w, err := d.NewWaiter()
	if err != nil {
		t.Fatal(err)
	}
	const n = 8
	sems := make([]vk.Semaphore, n)
	for i := range sems {
		if sems[i], err = vkx.NewTimelineSemaphore(d.Device, 0); err != nil {
			t.Fatal(err)
		}
		defer vk.DestroySemaphore(d.Device, sems[i], nil)
	}
	var mu sync.Mutex
	raised := make([]bool, n)
	returned := make(chan int, n)
	errs := make(chan error, n)
	for i := range n {
		go func() {
			err := w.Wait(sems[i], 2, 10*time.Second)
			mu.Lock()
			ok := raised[i]
			mu.Unlock()
			if err == nil && !ok {
				err = errors.New("returned before its point")
			}
			errs <- err
			returned <- i
		}()
	}
	time.Sleep(20 * time.Millisecond) // the callers' points in the thread's wait, most of them
	for _, i := range []int{5, 0, 7, 2, 6, 1, 3, 4} {
		mu.Lock()
		raised[i] = true
		mu.Unlock()
		if err := vkx.SignalSemaphore(d.Device, sems[i], 2); err != nil {
			t.Fatal(err)
		}
		select {
		case j := <-returned:
			if j != i {
				t.Fatalf("raised %d, %d returned", i, j)
			}
			if err := <-errs; err != nil {
				t.Fatalf("wait %d: %v", i, err)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("raised %d: its wait did not return", i)
		}
	}

	t0 := time.Now()
	if err := w.Wait(sems[0], 3, 50*time.Millisecond); err == nil {
		t.Fatal("a point never raised: no error")
	} else if el := time.Since(t0); el < 50*time.Millisecond || el > 2*time.Second {
		t.Fatalf("timed out after %v, want 50 ms", el)
	}
	go func() { errs <- w.Wait(sems[1], 3, 10*time.Second) }()
	time.Sleep(20 * time.Millisecond)
	w.Close()
	if err := <-errs; !errors.Is(err, ErrWaiterClosed) {
		t.Fatalf("closed during a wait: %v", err)
	}
	if err := w.Wait(sems[1], 3, time.Second); !errors.Is(err, ErrWaiterClosed) {
		t.Fatalf("after Close: %v", err)
	}
	if msgs := d.ValidationMessages(); len(msgs) > 0 {
		t.Fatalf("validation: %v", msgs)
	}
}
