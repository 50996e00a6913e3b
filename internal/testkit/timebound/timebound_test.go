package timebound

import (
	"runtime"
	"sync"
	"testing"
	"time"
)

// fakeT records what Within reports.
type fakeT struct {
	testing.TB
	errors, logs int
}

func (f *fakeT) Helper()               {}
func (f *fakeT) Errorf(string, ...any) { f.errors++ }
func (f *fakeT) Logf(string, ...any)   { f.logs++ }

// TestWaitedIsCounted: threads made to compete for the CPUs (4 busy goroutines per CPU, each on a
// thread of its own) wait on the run queue, and the span sees it; a span over a sleep sees (almost) none
// and its wall time is the sleep's.
func TestWaitedIsCounted(t *testing.T) {
	s := Start()
	time.Sleep(50 * time.Millisecond)
	wall, waited := s.Elapsed()
	if wall < 50*time.Millisecond || waited > wall {
		t.Errorf("sleep: wall %s, waited %s", wall, waited)
	}

	n := 4 * runtime.NumCPU()
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(n)) // all n at once, competing for the CPUs in the kernel
	s = Start()
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			runtime.LockOSThread() // a thread of its own, kept after (a locked goroutine's thread ends with it)
			defer runtime.UnlockOSThread()
			for end := time.Now().Add(300 * time.Millisecond); time.Now().Before(end); {
			}
		}()
	}
	wg.Wait()
	wall, waited = s.Elapsed()
	t.Logf("%d busy threads on %d CPUs for 300 ms: wall %s, waited %s", n, runtime.NumCPU(), wall, waited)
	if waited < 300*time.Millisecond {
		t.Errorf("%d threads for %d CPUs waited only %s in all", n, runtime.NumCPU(), waited)
	}
}

// TestWithin: a bound met by the wall clock passes silently; one met only after the wait is taken
// off passes with a log line; one missed either way fails.
func TestWithin(t *testing.T) {
	s := &Span{start: time.Now().Add(-100 * time.Millisecond), pids: nil}
	f := &fakeT{}
	if !s.Within(f, "x", time.Second) || f.errors+f.logs != 0 {
		t.Errorf("within by the wall clock: errors %d logs %d", f.errors, f.logs)
	}
	if s.Within(f, "x", 10*time.Millisecond) || f.errors != 1 {
		t.Errorf("over either way: errors %d", f.errors)
	}
}
