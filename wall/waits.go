package wall

import (
	"bytes"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"
)

// waitSampler reads, every millisecond, whether the display loop's thread is asleep during a
// timed step and in which system call (/proc/thread-self/task's stat and syscall files: futex for a
// lock, ioctl for a driver's wait) and in which phase of the step (Options.SampleWaits): where a
// step's time off the CPU goes, which neither Go's profiles nor its scheduler metrics see.
type waitSampler struct {
	tid     int
	inStep  atomic.Bool
	quit    chan struct{}
	done    chan struct{}
	samples map[string]int // "phase syscall" → samples asleep (read after done)
	n       int
	other   map[string]int // what the other threads did at scans (others)
	scans   int
}

// sampleEvery is the sampler's period: each sample stands for this much time asleep.
const sampleEvery = time.Millisecond

func startWaitSampler(ph *phases) *waitSampler {
	s := &waitSampler{tid: syscall.Gettid(), quit: make(chan struct{}), done: make(chan struct{}), samples: map[string]int{}, other: map[string]int{}}
	dir := fmt.Sprintf("/proc/self/task/%d/", s.tid)
	go func() {
		defer close(s.done)
		tk := time.NewTicker(sampleEvery)
		defer tk.Stop()
		for {
			select {
			case <-s.quit:
				return
			case <-tk.C:
			}
			if !s.inStep.Load() {
				continue
			}
			st, err := os.ReadFile(dir + "stat")
			if err != nil {
				return
			}
			i := bytes.LastIndexByte(st, ')')
			if i < 0 || i+2 >= len(st) || (st[i+2] != 'S' && st[i+2] != 'D') {
				continue
			}
			sc, _ := os.ReadFile(dir + "syscall")
			name := syscallName(sc)
			s.samples[phaseNames[ph.now.Load()]+" "+name]++
			if s.n++; strings.HasPrefix(name, "futex@") && s.n%5 == 0 {
				s.others(name)
			}
		}
	}()
	return s
}

// others counts what the process's other threads do while the steps' thread sleeps on a futex:
// the lock's holder is among those running or in another call (an ioctl names its device file and
// request), its other waiters on the same address.
func (s *waitSampler) others(futex string) {
	tasks, err := os.ReadDir("/proc/self/task")
	if err != nil {
		return
	}
	for _, e := range tasks {
		if e.Name() == strconv.Itoa(s.tid) {
			continue
		}
		d := "/proc/self/task/" + e.Name() + "/"
		st, err := os.ReadFile(d + "stat")
		i := bytes.LastIndexByte(st, ')')
		if err != nil || i < 0 || i+2 >= len(st) {
			continue
		}
		what := "running"
		if c := st[i+2]; c == 'S' || c == 'D' {
			sc, _ := os.ReadFile(d + "syscall")
			what = syscallName(sc)
			switch {
			case what == futex:
				what = "same futex"
			case strings.HasPrefix(what, "futex@"):
				what = "other futex"
			case what == "ioctl":
				if f := bytes.Fields(sc); len(f) > 2 {
					fd, _ := strconv.ParseInt(string(f[1]), 0, 64)
					dev, _ := os.Readlink(fmt.Sprintf("/proc/self/fd/%d", fd))
					what = "ioctl " + dev + " " + string(f[2])
				}
			}
			if c == 'D' {
				what += " (D)"
			}
		}
		s.other[what]++
	}
	s.scans++
}

// syscallNames are the x86-64 numbers of the calls a sleeping thread is likely in.
var syscallNames = map[string]string{"0": "read", "1": "write", "7": "poll", "9": "mmap", "10": "mprotect",
	"11": "munmap", "16": "ioctl", "23": "select", "24": "sched_yield", "28": "madvise", "35": "nanosleep",
	"202": "futex", "230": "clock_nanosleep", "232": "epoll_wait", "281": "epoll_pwait"}

// syscallName names the call a /proc syscall file shows (its number, and for futex its address).
func syscallName(b []byte) string {
	f := bytes.Fields(b)
	if len(f) == 0 {
		return "?"
	}
	n, ok := syscallNames[string(f[0])]
	if !ok {
		n = "syscall " + string(f[0])
	}
	if n == "futex" && len(f) > 1 {
		n += "@" + string(f[1])
	}
	return n
}

// stop ends the sampling and returns the most frequent places, in ms asleep.
func (s *waitSampler) stop() map[string]float64 {
	select {
	case <-s.quit:
	default:
		close(s.quit)
	}
	<-s.done
	type kv struct {
		k string
		n int
	}
	var all []kv
	for k, n := range s.samples {
		all = append(all, kv{k, n})
	}
	sort.Slice(all, func(i, j int) bool { return all[i].n > all[j].n })
	out := map[string]float64{}
	for i, e := range all {
		if i == 12 {
			break
		}
		out[e.k] = float64(time.Duration(e.n)*sampleEvery) / 1e6
	}
	// The other threads, as the mean number of threads doing each thing at a scan.
	var ot []kv
	for k, n := range s.other {
		ot = append(ot, kv{k, n})
	}
	sort.Slice(ot, func(i, j int) bool { return ot[i].n > ot[j].n })
	for i, e := range ot {
		if i == 10 || s.scans == 0 {
			break
		}
		out["others: "+e.k] = float64(e.n) / float64(s.scans)
	}
	return out
}
