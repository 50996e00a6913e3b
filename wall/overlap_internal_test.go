package wall

import "testing"

// TestPumpOverlap: an untimed wall's pumps wait for a hardware picture untimedOverlap pictures
// later, a timed wall's and a relayed stream's (whose pictures hold relay images until waited for)
// one later, -one-decode's at once.
func TestPumpOverlap(t *testing.T) {
	for _, c := range []struct {
		o       Options
		relayed bool
		want    int
	}{
		{Options{}, false, 1},
		{Options{Untimed: true}, false, untimedOverlap},
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
	if untimedOverlap < 2 {
		t.Errorf("untimedOverlap %d: an untimed wall waits no later than a timed one", untimedOverlap)
	}
}
