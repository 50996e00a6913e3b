package decode

import (
	"errors"
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// stallServer serves prefix to every connection on a local TCP port, then sends nothing more while
// keeping the connection open: a network source that stalls.
func stallServer(t *testing.T, prefix []byte) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	t.Cleanup(func() { close(done); ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				c.Write(prefix)
				<-done
			}()
		}
	}()
	return "tcp://" + ln.Addr().String()
}

// TestStalledOpen: a server that never answers; Open gives up after Options.Timeout.
func TestStalledOpen(t *testing.T) {
	url := stallServer(t, nil)
	start := time.Now()
	_, err := Open(url, Options{Timeout: 300 * time.Millisecond})
	if !errors.Is(err, ErrTimeout) {
		t.Fatalf("Open: %v, want ErrTimeout", err)
	}
	oneLine(t, err)
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("took %s", d)
	}
}

// stalledY4M serves a y4m clip's header and first frames, then stalls.
func stalledY4M(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(mediaDir, "clip.y4m"))
	if err != nil {
		t.Fatal(err)
	}
	return stallServer(t, b[:len(b)*3/5]) // header and 3 of 5 frames
}

// TestStalledRead: the stream stops mid-way; Next returns the frames that came, then ErrTimeout.
func TestStalledRead(t *testing.T) {
	d, err := Open(stalledY4M(t), Options{Timeout: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	start := time.Now()
	n, err := drain(d)
	if !errors.Is(err, ErrTimeout) || n < 2 {
		t.Fatalf("%d frames, %v: want the frames sent, then ErrTimeout", n, err)
	}
	oneLine(t, err)
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("took %s", d)
	}
}

// TestInterrupt: without a deadline, Interrupt from another goroutine ends a stalled read.
func TestInterrupt(t *testing.T) {
	d, err := Open(stalledY4M(t), Options{Timeout: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	time.AfterFunc(300*time.Millisecond, d.Interrupt)
	start := time.Now()
	n, err := drain(d)
	if !errors.Is(err, ErrInterrupted) {
		t.Fatalf("%d frames, %v: want ErrInterrupted", n, err)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("took %s", d)
	}
}
