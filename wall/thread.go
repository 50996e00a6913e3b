package wall

import (
	"os"
	"runtime"
	"strconv"
	"syscall"

	"github.com/ycbcrkit/ycbcrkit/gpu"
	"golang.org/x/sys/unix"
)

// LockSteps locks the calling goroutine to its thread for the display steps (Step, Tick) and
// returns the unlock. -stats reads that thread's time on and off the CPU (untimed_thread_ms, the
// slow timed steps'), top -H and perf see it as ycbcrwall-step (unless it is the process's main
// thread, whose name ps shows), and it keeps off the CPUs that take the device's interrupts
// (gpu.Device.InterruptCPUs; Stats.StepsAvoidCPUs): an interrupt handler's time counts against
// whatever runs on its CPU, and the untimed loop, busy from the moment it lands there, never
// sleeps to move. On the H200 machine every interrupt of the GPU goes to one CPU of 16; an
// untimed 16 HEVC wall whose steps ran there took 2.8 times the CPU time a picture and set the
// decoders' pace (row cpus47: display_idle 0.03 against 0.59-0.66 on the 15 others; rows final46
// to fair47: one run in four, the steps' thread settling there by chance).
// YCBCRKIT_STEP_ANYCPU=1 leaves the thread on every CPU, YCBCRKIT_STEP_CPU=N puts it on CPU N
// alone (A/B runs).
func (w *Wall) LockSteps() (unlock func()) {
	runtime.LockOSThread()
	named := syscall.Gettid() != os.Getpid()
	if named {
		os.WriteFile("/proc/thread-self/comm", []byte("ycbcrwall-step"), 0)
	}
	var restore *unix.CPUSet
	if cpu, err := strconv.Atoi(os.Getenv("YCBCRKIT_STEP_CPU")); err == nil { // A/B runs: one CPU
		var old, set unix.CPUSet
		set.Set(cpu)
		if unix.SchedGetaffinity(0, &old) == nil && unix.SchedSetaffinity(0, &set) == nil {
			restore = &old
		}
	} else if os.Getenv("YCBCRKIT_STEP_ANYCPU") != "1" {
		restore, w.avoided = avoidCPUs(interruptCPUs(w.dev))
	}
	return func() {
		if restore != nil {
			unix.SchedSetaffinity(0, restore)
		}
		if named {
			os.WriteFile("/proc/thread-self/comm", []byte("ycbcrwall"), 0)
		}
		runtime.UnlockOSThread()
	}
}

// interruptCPUs is gpu.Device.InterruptCPUs (a test's stand-in where the device has none).
var interruptCPUs = (*gpu.Device).InterruptCPUs

// avoidCPUs takes cpus out of the calling thread's CPUs, unless that would leave it none, and
// returns the set before (nil when unchanged) and the CPUs taken out.
func avoidCPUs(cpus []int) (before *unix.CPUSet, avoided []int) {
	var set unix.CPUSet
	if len(cpus) == 0 || unix.SchedGetaffinity(0, &set) != nil {
		return nil, nil
	}
	old := set
	for _, c := range cpus {
		if set.IsSet(c) {
			set.Clear(c)
			avoided = append(avoided, c)
		}
	}
	if len(avoided) == 0 || set.Count() == 0 || unix.SchedSetaffinity(0, &set) != nil {
		return nil, nil
	}
	return &old, avoided
}
