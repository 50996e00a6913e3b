package wall

import "testing"

// TestAutoDecodeDevices: H.264 streams spread over more devices once they outnumber the decode
// queues of the wall's device, so that no queue has two, at most four devices in all (the H200's 7
// queues: 8 streams over two devices, 16 over three, 48 over four).
func TestAutoDecodeDevices(t *testing.T) {
	for _, c := range []struct{ n, queues, want int }{
		{1, 7, 0}, {7, 7, 0}, {8, 7, 1}, {14, 7, 1}, {15, 7, 2}, {16, 7, 2}, {21, 7, 2}, {22, 7, 3},
		{48, 7, 3}, {64, 7, 3}, {200, 7, 3}, {16, 0, 0}, {2, 1, 1}, {3, 1, 2},
	} {
		if got := AutoDecodeDevices(c.n, c.queues); got != c.want {
			t.Errorf("AutoDecodeDevices(%d streams, %d queues) = %d, want %d", c.n, c.queues, got, c.want)
		}
	}
}
