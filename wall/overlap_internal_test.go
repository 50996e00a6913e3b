package wall

import "testing"

// TestPumpOverlap: an untimed wall's pumps wait for a hardware picture Options.Ahead pictures later
// (DefaultAhead unless given), a timed wall's and a relayed stream's (whose pictures hold relay
// images until waited for) one later, -one-decode's at once.
func TestPumpOverlap(t *testing.T) {
	for _, c := range []struct {
		o       Options
		relayed bool
		want    int
	}{
		{Options{}, false, 1},
		{Options{Untimed: true}, false, DefaultAhead},
		{Options{Untimed: true, Ahead: 5}, false, 5},
		{Options{Ahead: 5}, false, 1},
		{Options{Untimed: true, Ahead: 5}, true, 1},
		{Options{Untimed: true}, true, 1},
		{Options{}, true, 1},
		{Options{Untimed: true, OneDecode: true}, false, 0},
		{Options{OneDecode: true}, true, 0},
	} {
		if got := pumpOverlap(c.o, c.relayed); got != c.want {
			t.Errorf("pumpOverlap(untimed %v, one decode %v, relayed %v) = %d, want %d",
				c.o.Untimed, c.o.OneDecode, c.relayed, got, c.want)
		}
	}
	if DefaultAhead < 2 {
		t.Errorf("DefaultAhead %d: an untimed wall waits no later than a timed one", DefaultAhead)
	}
}
