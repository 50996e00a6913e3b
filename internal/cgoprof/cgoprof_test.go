package cgoprof

import "testing"

// TestTraceback: C's traceback, given a context as the profiler's signal gives one, names the
// interrupted PC first and finds, by scanning the stack, the return address into the function
// that called the interrupted one (within its first 64 bytes: a call near its start).
func TestTraceback(t *testing.T) {
	Start()
	first, pcs, outer := selfCheck()
	if !first {
		t.Fatalf("the interrupted PC is not first: %#x", pcs)
	}
	found := false
	for _, pc := range pcs[1:] {
		found = found || pc > outer && pc < outer+64
	}
	if !found {
		t.Errorf("no return address into cgoprof_check_outer (%#x) among %#x", outer, pcs)
	}
}
