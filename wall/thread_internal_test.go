package wall

import (
	"os"
	"reflect"
	"strings"
	"syscall"
	"testing"

	"github.com/ycbcrkit/ycbcrkit/gpu"
	"golang.org/x/sys/unix"
)

// TestLockStepsAvoidsInterrupts: the steps' thread leaves the CPUs that take the device's
// interrupts (here the first CPU the test may use, standing in for the H200's CPU 14), notes them
// (Stats' steps_avoid_cpus), is named ycbcrwall-step, and gets its CPUs back at the unlock; with
// YCBCRKIT_STEP_ANYCPU=1 it keeps them all. A thread with one CPU keeps it.
func TestLockStepsAvoidsInterrupts(t *testing.T) {
	var all unix.CPUSet
	if err := unix.SchedGetaffinity(0, &all); err != nil {
		t.Fatal(err)
	}
	first := -1
	for c := 0; first < 0 && c < 1024; c++ {
		if all.IsSet(c) {
			first = c
		}
	}
	defer func(f func(*gpu.Device) []int) { interruptCPUs = f }(interruptCPUs)
	interruptCPUs = func(*gpu.Device) []int { return []int{first, 4095} }
	done := make(chan struct{})
	go func() { // a goroutine of its own: the unlock's thread goes back to the pool
		defer close(done)
		w := &Wall{}
		unlock := w.LockSteps()
		var in unix.CPUSet
		unix.SchedGetaffinity(0, &in)
		name, _ := os.ReadFile("/proc/thread-self/comm")
		main := syscall.Gettid() == os.Getpid()
		unlock()
		var after unix.CPUSet
		unix.SchedGetaffinity(0, &after)
		switch {
		case all.Count() == 1 && (in != all || w.avoided != nil):
			t.Errorf("one CPU: the thread's CPUs %v, avoided %v; want them kept", in, w.avoided)
		case all.Count() > 1 && (in.IsSet(first) || in.Count() != all.Count()-1 || !reflect.DeepEqual(w.avoided, []int{first})):
			t.Errorf("the thread's CPUs %d of %d, CPU %d among them: %v, avoided %v; want every CPU but %d", in.Count(), all.Count(), first, in.IsSet(first), w.avoided, first)
		case after != all:
			t.Errorf("after the unlock: %d CPUs, want the %d before", after.Count(), all.Count())
		case !main && strings.TrimSpace(string(name)) != "ycbcrwall-step":
			t.Errorf("the steps' thread is named %q, want ycbcrwall-step", name)
		}
		t.Setenv("YCBCRKIT_STEP_ANYCPU", "1")
		w = &Wall{}
		unlock = w.LockSteps()
		unix.SchedGetaffinity(0, &in)
		unlock()
		if in != all || w.avoided != nil {
			t.Errorf("YCBCRKIT_STEP_ANYCPU=1: %d CPUs, avoided %v; want all %d", in.Count(), w.avoided, all.Count())
		}
	}()
	<-done
}
