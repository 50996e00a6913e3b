// Package timebound holds the wall-clock bounds of tests (a call returns within 200 ms, a playback
// ends within 3 s, a clock runs at the wall clock's rate) to the time the processes measured could
// run. On a loaded machine a bound read off the wall clock alone fails for want of a CPU, not
// because of the code; a looser bound would hide real regressions on an idle one.
//
// A Span reads, at its start and at its end, the run-queue delay of every thread of the test's
// process and of any other process it names (a sound server): Linux's /proc/PID/task/TID/schedstat,
// whose second field is the time the thread was runnable but waited for a CPU
// (Documentation/scheduler/sched-stats.rst). A bound holds when the wall time is within it, or when
// the wall time less that delay is: the delay summed over threads counts a wait of two threads at
// once twice, so it can excuse more than the work measured waited, never less; whenever it is used
// the test's log says so with both figures, so a bound met only that way is visible.
package timebound

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Span is a measurement started by Start.
type Span struct {
	start time.Time
	pids  []int
	delay map[string]time.Duration // per /proc/PID/task/TID at the start
}

// Start begins a span over this process and the processes pids.
func Start(pids ...int) *Span {
	s := &Span{pids: append([]int{os.Getpid()}, pids...)}
	s.delay = s.read()
	s.start = time.Now()
	return s
}

// read returns the run-queue delay of every thread of the span's processes.
func (s *Span) read() map[string]time.Duration {
	m := map[string]time.Duration{}
	for _, pid := range s.pids {
		tasks, _ := filepath.Glob(filepath.Join("/proc", strconv.Itoa(pid), "task", "*", "schedstat"))
		for _, path := range tasks {
			b, err := os.ReadFile(path)
			if err != nil {
				continue // the thread ended meanwhile
			}
			f := strings.Fields(string(b))
			if len(f) < 2 {
				continue
			}
			if ns, err := strconv.ParseInt(f[1], 10, 64); err == nil {
				m[path] = time.Duration(ns)
			}
		}
	}
	return m
}

// Elapsed returns the wall time since Start and the run-queue delay of the span's threads in it
// (threads started meanwhile count from 0; threads that ended meanwhile are not counted).
func (s *Span) Elapsed() (wall, waited time.Duration) {
	wall = time.Since(s.start)
	for k, v := range s.read() {
		waited += v - s.delay[k]
	}
	return wall, max(waited, 0)
}

// Within reports whether the span's time is within limit: its wall time, or failing that its wall
// time less the time its threads waited for a CPU, which it then logs. It fails the test (Errorf)
// when neither is; what names the measurement in both messages.
func (s *Span) Within(t testing.TB, what string, limit time.Duration) bool {
	t.Helper()
	wall, waited := s.Elapsed()
	if wall <= limit {
		return true
	}
	if wall-waited <= limit {
		t.Logf("%s: %s by the wall clock, over %s, but the threads measured waited %s for a CPU meanwhile (a loaded machine): %s of running time, within the bound",
			what, wall.Round(time.Millisecond), limit, waited.Round(time.Millisecond), (wall - waited).Round(time.Millisecond))
		return true
	}
	t.Errorf("%s: took %s, over %s (the threads measured waited %s for a CPU meanwhile: %s of running time)",
		what, wall.Round(time.Millisecond), limit, waited.Round(time.Millisecond), (wall - waited).Round(time.Millisecond))
	return false
}
