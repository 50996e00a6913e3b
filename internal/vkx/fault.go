package vkx

import (
	"strings"
	"sync"
	"sync/atomic"

	vk "github.com/vulkan-go/vulkan"
)

// Fault injection for tests of the error paths: allocation failures and lost devices are hard to
// cause on purpose on a real device, and every Vulkan result in the project goes through Check with
// the call's name. An injected fault changes only what Check reports: the call itself ran and
// succeeded (memory the driver allocated is leaked, a submit that "failed" still executes), which is
// what the callers' error handling has to cope with anyway.

var (
	faultsArmed atomic.Bool // fast path: Check pays one atomic load when no fault is set
	faultMu     sync.Mutex
	faults      = map[string]*fault{}
	checks      = map[string]int{} // Check calls per call name while armed
)

type fault struct {
	result vk.Result
	after  int // checks of the call that pass before the fault
	seen   int
	fired  int
}

// InjectFault makes Check report result for every check of call after the first afterN (the fault
// is sticky, as a lost device stays lost). call is a Vulkan function's name as the project passes it
// to Check ("vkQueueSubmit"); a name with a parenthesised qualifier ("vkAllocateMemory(...)")
// matches its plain name too. Real failures are reported unchanged.
func InjectFault(call string, result vk.Result, afterN int) {
	faultMu.Lock()
	defer faultMu.Unlock()
	faults[call] = &fault{result: result, after: afterN}
	faultsArmed.Store(true)
}

// ClearFaults removes every injected fault and stops counting.
func ClearFaults() {
	faultMu.Lock()
	defer faultMu.Unlock()
	faults = map[string]*fault{}
	checks = map[string]int{}
	faultsArmed.Store(false)
}

// CountChecks starts counting Check calls per call name (from zero), so that a test can learn how
// many checks of a call a clean run makes before choosing afterN.
func CountChecks() {
	faultMu.Lock()
	defer faultMu.Unlock()
	checks = map[string]int{}
	faultsArmed.Store(true)
}

// Checks is how many times Check saw call since CountChecks or InjectFault armed the hook.
func Checks(call string) int {
	faultMu.Lock()
	defer faultMu.Unlock()
	return checks[call]
}

// Fired is how many times the fault injected for call was reported.
func Fired(call string) int {
	faultMu.Lock()
	defer faultMu.Unlock()
	if f := faults[call]; f != nil {
		return f.fired
	}
	return 0
}

func injected(r vk.Result, call string) vk.Result {
	name, _, _ := strings.Cut(call, "(")
	faultMu.Lock()
	defer faultMu.Unlock()
	checks[name]++
	f := faults[name]
	if f == nil {
		f = faults[call]
	}
	if f == nil || r != vk.Success {
		return r
	}
	if f.seen++; f.seen <= f.after {
		return r
	}
	f.fired++
	return f.result
}
