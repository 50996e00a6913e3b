package stream

import (
	"fmt"
	"testing"
)

// fakeFences stands in for the GPU: a slot's fence signals only when the test says so (or when
// the ring waits on it, as the GPU would eventually).
type fakeFences struct {
	on      map[*Slot]bool
	signals map[*Slot]int // how often each slot's fence has signalled
	waits   int
}

func (f *fakeFences) signal(s *Slot)         { f.on[s] = true; f.signals[s]++ }
func (f *fakeFences) wait(s *Slot) error     { f.waits++; f.signal(s); return nil }
func (f *fakeFences) signalled(s *Slot) bool { return f.on[s] }
func (f *fakeFences) reset(s *Slot) error    { f.on[s] = false; return nil }

func fakeRing(n int) (*Ring, *fakeFences) {
	ff := &fakeFences{on: map[*Slot]bool{}, signals: map[*Slot]int{}}
	r := &Ring{fences: ff}
	for i := 0; i < n; i++ {
		r.slots = append(r.slots, &Slot{Index: i})
	}
	return r, ff
}

// TestRetireOnFence: what is handed to a slot is released only once that slot's fence has
// signalled, never before, and never for another slot's fence.
func TestRetireOnFence(t *testing.T) {
	r, ff := fakeRing(2)
	var log []string
	// obj is released by the ring; it checks that its slot's fence has signalled by then.
	obj := func(name string, s *Slot) func() {
		before := ff.signals[s]
		return func() {
			if ff.signals[s] == before {
				t.Errorf("%s released before slot %d's fence signalled", name, s.Index)
			}
			log = append(log, name)
		}
	}
	s0, err := r.Next()
	if err != nil {
		t.Fatal(err)
	}
	s0.Retire(obj("frame0", s0))
	r.submitted(s0)
	s1, _ := r.Next()
	s1.Retire(obj("frame1", s1))
	r.submitted(s1)
	r.RetireLast(obj("old images", s1)) // last submitted: s1

	r.Collect() // no fence has signalled
	if len(log) != 0 {
		t.Fatalf("released with no fence signalled: %v", log)
	}
	if r.Pending() != 3 {
		t.Fatalf("pending %d, want 3", r.Pending())
	}

	ff.signal(s1) // slot 1's fence signals; slot 0's has not been looked at yet
	r.Collect()
	if fmt.Sprint(log) != "[frame1 old images]" {
		t.Fatalf("after slot 1's fence: %v, want [frame1 old images]", log)
	}

	// Next on slot 0 waits for its fence, then releases.
	waits := ff.waits
	if _, err := r.Next(); err != nil {
		t.Fatal(err)
	}
	if ff.waits != waits+1 || fmt.Sprint(log) != "[frame1 old images frame0]" {
		t.Fatalf("Next on slot 0: %d waits, released %v", ff.waits-waits, log)
	}
	if r.Pending() != 0 {
		t.Fatalf("pending %d after every fence", r.Pending())
	}
}

// TestRetireLastIdle: with nothing in flight there is no fence to wait for: released at once.
func TestRetireLastIdle(t *testing.T) {
	r, _ := fakeRing(2)
	done := false
	r.RetireLast(func() { done = true })
	if !done {
		t.Fatal("not released with nothing in flight")
	}
	s, _ := r.Next()
	r.submitted(s)
	done = false
	r.RetireLast(func() { done = true })
	if done {
		t.Fatal("released while the last submission is in flight")
	}
	if err := r.Drain(); err != nil || !done {
		t.Fatalf("Drain: %v, released %v", err, done)
	}
}
