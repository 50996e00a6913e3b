package wall

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/ycbcrkit/ycbcrkit/internal/cgoprof"
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
	chains  map[string]int // the sleeping threads' callers (chain), "who: chain" → scans
	mem     *os.File       // /proc/self/mem: the futex word and its owner, the stacks
	maps    []cgoprof.Mapping
	mapsAt  time.Time
	handles map[string]uintptr // the device's and queues' handles: is the futex in the driver's objects?
}

// sampleEvery is the sampler's period: each sample stands for this much time asleep.
const sampleEvery = time.Millisecond

func startWaitSampler(ph *phases, handles map[string]uintptr) *waitSampler {
	s := &waitSampler{tid: syscall.Gettid(), quit: make(chan struct{}), done: make(chan struct{}), samples: map[string]int{},
		other: map[string]int{}, chains: map[string]int{}, handles: handles}
	s.mem, _ = os.Open("/proc/self/mem")
	s.maps, s.mapsAt = readMaps(), time.Now()
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
			state, ok := taskState(dir)
			if !ok {
				return
			}
			if state != 'S' && state != 'D' {
				continue
			}
			sc, _ := os.ReadFile(dir + "syscall")
			name := syscallName(sc)
			s.samples[phaseNames[ph.now.Load()]+" "+name]++
			if s.n++; strings.HasPrefix(name, "futex@") && s.n%5 == 0 {
				s.others(name)
				s.owner(sc)
				s.chains["step: "+s.chain(sc)]++
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
		c, ok := taskState(d)
		if !ok {
			continue
		}
		what := "running"
		if c == 'S' || c == 'D' {
			sc, _ := os.ReadFile(d + "syscall")
			what = syscallName(sc)
			switch {
			case what == futex:
				what = "same futex"
				s.chains["waiter: "+s.chain(sc)]++
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

// taskState is the state letter of the thread whose /proc directory is dir (R running, S asleep,
// D in uninterruptible sleep: /proc/PID/stat's third field, after the name in parentheses).
func taskState(dir string) (byte, bool) {
	st, err := os.ReadFile(dir + "stat")
	i := bytes.LastIndexByte(st, ')')
	if err != nil || i < 0 || i+2 >= len(st) {
		return 0, false
	}
	return st[i+2], true
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
	out := map[string]float64{}
	for _, e := range top(s.samples, 12) {
		out[e.k] = float64(time.Duration(e.n)*sampleEvery) / 1e6
	}
	// The other threads, as the mean number of threads doing each thing at a scan.
	if s.scans > 0 {
		for _, e := range top(s.other, 10) {
			out["others: "+e.k] = float64(e.n) / float64(s.scans)
		}
	}
	for _, e := range top(s.chains, 16) {
		out["chain "+e.k] = float64(e.n)
	}
	return out
}

// A count is a key of a sampler's map and how often it was seen.
type count struct {
	k string
	n int
}

// top is m's n most frequent keys, most frequent first.
func top(m map[string]int, n int) []count {
	all := make([]count, 0, len(m))
	for k, c := range m {
		all = append(all, count{k, c})
	}
	sort.Slice(all, func(i, j int) bool { return all[i].n > all[j].n })
	return all[:min(n, len(all))]
}

// owner reads the futex the steps' thread sleeps on (sc: its syscall file) as glibc's
// pthread_mutex_t (its owner's thread id at byte 8) and counts what that owner does, and where the
// futex lies against the device's handles (a dispatchable handle is the driver's object).
func (s *waitSampler) owner(sc []byte) {
	f := bytes.Fields(sc)
	if len(f) < 9 || s.mem == nil {
		return
	}
	addr, err := strconv.ParseUint(string(f[1]), 0, 64)
	if err != nil {
		return
	}
	for name, h := range s.handles {
		if d := int64(addr) - int64(h); d >= -1<<16 && d < 1<<20 {
			s.chains[fmt.Sprintf("where: %s%+#x", name, d)]++
		}
	}
	if m := s.mapping(uintptr(addr)); m != nil {
		s.chains["where: "+m.Name()]++
	}
	var w [16]byte
	if _, err := s.mem.ReadAt(w[:], int64(addr)); err != nil {
		return
	}
	lock := int32(binary.LittleEndian.Uint32(w[0:]))
	tid := int32(binary.LittleEndian.Uint32(w[8:]))
	what := fmt.Sprintf("owner: lock word %d, no owner thread", lock)
	if tid > 0 {
		d := fmt.Sprintf("/proc/self/task/%d/", tid)
		state, ok := taskState(d)
		switch {
		case int(tid) == s.tid:
			what = "owner: the steps' thread"
		case !ok:
			what = fmt.Sprintf("owner: lock word %d, %d not a thread", lock, tid)
		case state == 'R':
			what = "owner: running"
		default:
			osc, _ := os.ReadFile(d + "syscall")
			what = "owner: in " + syscallName(osc)
			s.chains["owner: "+s.chain(osc)]++
		}
	}
	s.chains[what]++
}

// chain names the return addresses on a sleeping thread's stack (sc: its syscall file, whose last
// two fields are its stack pointer and program counter), innermost first, as module+offset:
// addresses in executable mappings that a call instruction precedes (a scan, not an unwind).
func (s *waitSampler) chain(sc []byte) string {
	f := bytes.Fields(sc)
	if len(f) < 9 || s.mem == nil {
		return "?"
	}
	sp, err1 := strconv.ParseUint(string(f[7]), 0, 64)
	pc, err2 := strconv.ParseUint(string(f[8]), 0, 64)
	if err1 != nil || err2 != nil {
		return "?"
	}
	var buf [4096]byte
	n, _ := s.mem.ReadAt(buf[:], int64(sp))
	out := []string{s.name(uintptr(pc))}
	for i := 0; i+8 <= n && len(out) < 8; i += 8 {
		a := uintptr(binary.LittleEndian.Uint64(buf[i:]))
		if m := s.mapping(a); m == nil || m.Name() == "[heap]" || !s.called(a) {
			continue
		}
		out = append(out, s.name(a))
	}
	return strings.Join(out, " < ")
}

// called says whether a call instruction ends at ret: call rel32, or FF /2 in its 2- to 7-byte forms.
func (s *waitSampler) called(ret uintptr) bool {
	var c [7]byte
	if _, err := s.mem.ReadAt(c[:], int64(ret-7)); err != nil {
		return false
	}
	if c[2] == 0xe8 {
		return true
	}
	for n := 2; n <= 7; n++ {
		if c[7-n] == 0xff && (c[7-n+1]>>3)&7 == 2 {
			return true
		}
	}
	return false
}

// readMaps reads the mappings the sampler names addresses by: the executable ones and the heap.
func readMaps() []cgoprof.Mapping {
	all, _ := cgoprof.ReadMaps()
	var ms []cgoprof.Mapping
	for _, m := range all {
		if m.Exec() || m.Path == "[heap]" {
			ms = append(ms, m)
		}
	}
	return ms
}

// mapping is the mapping that holds a (an executable one, or the heap), reading the maps again
// on a miss, at most each second (a library loaded since).
func (s *waitSampler) mapping(a uintptr) *cgoprof.Mapping {
	for i := range s.maps {
		if m := &s.maps[i]; a >= m.Lo && a < m.Hi {
			return m
		}
	}
	if time.Since(s.mapsAt) > time.Second {
		s.maps, s.mapsAt = readMaps(), time.Now()
		return s.mapping(a)
	}
	return nil
}

func (s *waitSampler) name(a uintptr) string {
	if m := s.mapping(a); m != nil {
		return fmt.Sprintf("%s+%#x", m.Name(), a-m.Lo+m.Off)
	}
	return fmt.Sprintf("%#x", a)
}
