package wall

import (
	"bytes"
	"fmt"
	"os"
	"sort"
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
}

// sampleEvery is the sampler's period: each sample stands for this much time asleep.
const sampleEvery = time.Millisecond

func startWaitSampler(ph *phases) *waitSampler {
	s := &waitSampler{tid: syscall.Gettid(), quit: make(chan struct{}), done: make(chan struct{}), samples: map[string]int{}}
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
			s.samples[phaseNames[ph.now.Load()]+" "+syscallName(sc)]++
		}
	}()
	return s
}

// syscallName names the call a /proc syscall file shows (its number, and for futex its address).
func syscallName(b []byte) string {
	f := bytes.Fields(b)
	if len(f) == 0 {
		return "?"
	}
	names := map[string]string{"0": "read", "1": "write", "7": "poll", "9": "mmap", "10": "mprotect", "11": "munmap",
		"16": "ioctl", "23": "select", "24": "sched_yield", "28": "madvise", "35": "nanosleep", "202": "futex",
		"230": "clock_nanosleep", "232": "epoll_wait", "281": "epoll_pwait"}
	n, ok := names[string(f[0])]
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
	return out
}
