package wall

import "testing"

// TestAutoDecodeDevices: H.264 streams spread over more devices once they outnumber two a decode
// queue of the wall's device, so that no device has more, at most four devices in all (the H200's
// 7 queues: 16 streams over two devices, 48 over four).
func TestAutoDecodeDevices(t *testing.T) {
	for _, c := range []struct{ n, queues, want int }{
		{1, 7, 0}, {7, 7, 0}, {14, 7, 0}, {15, 7, 1}, {16, 7, 1}, {28, 7, 1}, {29, 7, 2},
		{48, 7, 3}, {64, 7, 3}, {200, 7, 3}, {16, 0, 0}, {3, 1, 1},
	} {
		if got := AutoDecodeDevices(c.n, c.queues); got != c.want {
			t.Errorf("AutoDecodeDevices(%d streams, %d queues) = %d, want %d", c.n, c.queues, got, c.want)
		}
	}
}
