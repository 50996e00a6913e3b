package nettest

import (
	"net"
	"strconv"
	"testing"
)

// TestUDPPort: the port is below the kernel's ephemeral range, and it and the next one can be bound.
func TestUDPPort(t *testing.T) {
	for range 20 {
		p := UDPPort(t)
		if p < lowest || p+1 >= ephemeralLow() {
			t.Fatalf("port %d outside %d-%d", p, lowest, ephemeralLow()-2)
		}
		for _, q := range []int{p, p + 1} {
			c, err := net.ListenPacket("udp", "127.0.0.1:"+strconv.Itoa(q))
			if err != nil {
				t.Fatalf("port %d: %v", q, err)
			}
			c.Close()
		}
	}
}
