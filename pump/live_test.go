package pump_test

import (
	"net"
	"os"
	"os/exec"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ycbcrkit/ycbcrkit/decode"
	"github.com/ycbcrkit/ycbcrkit/internal/testkit/nettest"
	"github.com/ycbcrkit/ycbcrkit/pump"
)

// sender is FFmpeg's own MPEG-TS muxer sending a live test picture to a UDP port on the loopback,
// in real time (-re).
func sender(t *testing.T, port int) {
	t.Helper()
	ff, err := exec.LookPath("ffmpeg") // Debian's
	if err != nil {
		t.Fatalf("ffmpeg (Debian's package) is needed: %v", err)
	}
	cmd := exec.Command(ff, "-v", "error", "-re", "-f", "lavfi", "-i", "testsrc2=s=160x90:r=25",
		"-c:v", "mpeg2video", "-g", "5", "-f", "mpegts", "udp://127.0.0.1:"+strconv.Itoa(port)+"?pkt_size=1316")
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
}

// relay forwards the UDP packets that reach its port to the decoder's port while on: the feed as
// the decoder sees it, stopped and restarted at exact times while FFmpeg's muxer runs on.
type relay struct {
	in  net.PacketConn
	on  atomic.Bool
	got chan struct{} // closed at the first packet: the sender is up
}

func newRelay(t *testing.T, to int) *relay {
	t.Helper()
	in, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	out, err := net.Dial("udp", "127.0.0.1:"+strconv.Itoa(to))
	if err != nil {
		t.Fatal(err)
	}
	r := &relay{in: in, got: make(chan struct{})}
	r.on.Store(true)
	t.Cleanup(func() { in.Close(); out.Close() })
	go func() {
		buf := make([]byte, 65536)
		for first := true; ; first = false {
			n, _, err := in.ReadFrom(buf)
			if err != nil {
				return
			}
			if first {
				close(r.got)
			}
			if r.on.Load() {
				out.Write(buf[:n])
			}
		}
	}()
	return r
}

// TestLiveUDP: a loopback UDP MPEG-TS feed (FFmpeg's own muxer, through a relay that stops
// forwarding) stopped for 3 s and restarted. The feed's state turns to no signal within 1 s of the
// stop (Params.Signal 500 ms), stays so through the gap, and is back to playing within 2 s of the
// restart, with a new epoch (the client restarts its clock). The decoder reads the feed as a live
// source (decode's live mode waits through the gap); a read that fails is reopened (Reopen, as
// TestReconnect checks with a failing source).
func TestLiveUDP(t *testing.T) {
	// It mostly waits on the clock: side by side with the others that do (scripts/test-lib.sh, run).
	t.Parallel()
	port := nettest.UDPPort(t)
	url := "udp://127.0.0.1:" + strconv.Itoa(port)
	if !decode.IsLive(url) {
		t.Fatalf("IsLive(%s) = false", url)
	}
	feed := newRelay(t, port)
	sender(t, feed.in.LocalAddr().(*net.UDPAddr).Port)
	select { // FFmpeg takes a while to start on a loaded machine
	case <-feed.got:
	case <-time.After(10 * time.Second):
		t.Fatal("no packet from the sender in 10 s")
	}
	dec, err := decode.Open(url, decode.Options{Threads: 1, HWDec: decode.HWDecNo, Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	p := pump.Start[*decode.Frame](dec, pump.Params[*decode.Frame]{Live: true, Reopen: dec.Reopen,
		Signal: 500 * time.Millisecond})
	epochs := make(chan int, 1000)
	go func() { // the client: takes every picture
		for {
			it, ok, _ := p.Receive(50 * time.Millisecond)
			if !ok {
				continue
			}
			if it.Err != nil {
				return
			}
			if it.Start {
				epochs <- it.Epoch
			}
			it.Frame.Release()
		}
	}()
	defer func() {
		if !p.Stop() {
			<-p.Done()
		}
		dec.Close()
	}()
	// waitFor polls the state until it is signal, for at most limit; how long it took.
	waitFor := func(signal bool, limit time.Duration) (time.Duration, pump.State) {
		t0 := time.Now()
		for {
			s := p.State()
			if s.Signal == signal || time.Since(t0) > limit {
				return time.Since(t0), s
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	if d, s := waitFor(true, 3*time.Second); !s.Signal {
		t.Fatalf("no signal %s after opening", d)
	}
	time.Sleep(500 * time.Millisecond)
	feed.on.Store(false)
	if d, s := waitFor(false, 2*time.Second); s.Signal || d > time.Second {
		t.Fatalf("feed stopped: state %+v after %s; want no signal within 1 s", s, d)
	} else {
		t.Logf("no signal %s after the feed stopped", d.Round(time.Millisecond))
	}
	time.Sleep(3*time.Second - 500*time.Millisecond)
	if s := p.State(); s.Signal {
		t.Errorf("3 s into the gap: %+v", s)
	}
	feed.on.Store(true)
	d, s := waitFor(true, 4*time.Second)
	if !s.Signal || d > 2*time.Second {
		t.Fatalf("feed back: state %+v after %s; want playing within 2 s", s, d)
	}
	t.Logf("playing %s after the feed came back, %d reconnection(s)", d.Round(time.Millisecond), s.Reconnects)
	last := 0
	for len(epochs) > 0 {
		last = <-epochs
	}
	if last < 2 {
		t.Errorf("last epoch %d: the feed's return did not restart the clock", last)
	}
}
