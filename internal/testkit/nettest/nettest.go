// Package nettest gives tests loopback ports for FFmpeg to bind. A port the kernel picked and a test
// released (net.ListenPacket on port 0, then Close) is one of the ephemeral range, which the kernel
// hands to the next socket bound to port 0: in make test, another test's FFmpeg sender, whose UDP
// output binds one, took such a port before the test's receiver did ("Address already in use").
// Ports below that range (/proc/sys/net/ipv4/ip_local_port_range) are given to no socket unasked.
package nettest

import (
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"strconv"
	"strings"
	"testing"
)

// lowest is the first port UDPPort tries: above the well-known and the common services' ports.
const lowest = 20000

// UDPPort is a loopback UDP port below the ephemeral range where nothing is bound now, nor on the
// port after it (RTP's RTCP goes there: libavformat/rtpproto.c).
func UDPPort(t testing.TB) int {
	t.Helper()
	hi := ephemeralLow()
	for range 200 {
		p := lowest + rand.IntN(hi-lowest-1)
		if free(p) && free(p+1) {
			return p
		}
	}
	t.Fatalf("nettest: no free loopback UDP port pair in %d-%d", lowest, hi-1)
	return 0
}

// UDPAddr is UDPPort's port on 127.0.0.1, as host:port.
func UDPAddr(t testing.TB) string {
	t.Helper()
	return fmt.Sprintf("127.0.0.1:%d", UDPPort(t))
}

func free(port int) bool {
	c, err := net.ListenPacket("udp", "127.0.0.1:"+strconv.Itoa(port))
	if err != nil {
		return false
	}
	c.Close()
	return true
}

// ephemeralLow is the first port of the kernel's ephemeral range (32768 where it cannot be read,
// Linux's default).
func ephemeralLow() int {
	b, err := os.ReadFile("/proc/sys/net/ipv4/ip_local_port_range")
	if err == nil {
		if f := strings.Fields(string(b)); len(f) == 2 {
			if n, err := strconv.Atoi(f[0]); err == nil && n > lowest+2 {
				return n
			}
		}
	}
	return 32768
}
