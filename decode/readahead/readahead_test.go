package readahead

import (
	"bytes"
	"errors"
	"io"
	"math/rand"
	"sync"
	"testing"
	"time"
)

// pipeSource reads data in small pieces, as a pipe hands them out, and counts what was read.
type pipeSource struct {
	mu   sync.Mutex
	data []byte
	off  int
	read int
}

func (p *pipeSource) src(seekable bool) Source {
	s := Source{Read: func(b []byte) (int, error) {
		p.mu.Lock()
		defer p.mu.Unlock()
		if p.off >= len(p.data) {
			return 0, io.EOF
		}
		n := copy(b[:min(len(b), 4096)], p.data[p.off:])
		p.off += n
		p.read += n
		return n, nil
	}}
	if seekable {
		s.Seek = func(off int64) error {
			p.mu.Lock()
			defer p.mu.Unlock()
			p.off = int(min(off, int64(len(p.data))))
			return nil
		}
	}
	return s
}

func testData(n int) []byte {
	b := make([]byte, n)
	rand.New(rand.NewSource(1)).Read(b)
	return b
}

func readAt(t *testing.T, c *Cache, off int64, n int) []byte {
	t.Helper()
	if _, err := c.Seek(off, io.SeekStart); err != nil {
		t.Fatalf("seek to %d: %v", off, err)
	}
	b := make([]byte, n)
	if _, err := io.ReadFull(c, b); err != nil {
		t.Fatalf("read %d at %d: %v", n, off, err)
	}
	return b
}

// TestMoovAtEnd: the demuxer's walk through an MP4 whose index comes last (read the head, skip to
// the end, seek back to the media) over a pipe that fits the cache, and the size known at the end.
func TestMoovAtEnd(t *testing.T) {
	data := testData(5*blockSize + 1234)
	p := &pipeSource{data: data}
	c := New(p.src(false), 8*blockSize)
	defer c.Close()
	if got := readAt(t, c, 0, 100); !bytes.Equal(got, data[:100]) {
		t.Fatal("head")
	}
	end := int64(len(data)) - 500
	if got := readAt(t, c, end, 500); !bytes.Equal(got, data[end:]) {
		t.Fatal("tail")
	}
	if n, err := c.Read(make([]byte, 10)); n != 0 || err != io.EOF {
		t.Fatalf("at the end: %d %v", n, err)
	}
	if size, ok := c.Size(); !ok || size != int64(len(data)) {
		t.Fatalf("size %d %v", size, ok)
	}
	if got := readAt(t, c, 200, 3*blockSize); !bytes.Equal(got, data[200:200+3*blockSize]) {
		t.Fatal("back to the media")
	}
	if off, err := c.Seek(-10, io.SeekEnd); err != nil || off != int64(len(data))-10 {
		t.Fatalf("SeekEnd: %d %v", off, err)
	}
	if p.read != len(data) {
		t.Errorf("the source was read %d bytes for %d", p.read, len(data))
	}
}

// TestWindow: past the limit the oldest bytes the reader has passed are dropped: a seek back inside
// the window works, one before it fails with ErrOutside on a source that cannot seek and starts
// over on one that can; the source is not read more than the limit ahead of the reader.
func TestWindow(t *testing.T) {
	data := testData(12 * blockSize)
	p := &pipeSource{data: data}
	c := New(p.src(false), 4*blockSize)
	defer c.Close()
	if got := readAt(t, c, 0, 6*blockSize); !bytes.Equal(got, data[:6*blockSize]) {
		t.Fatal("first 6 blocks")
	}
	time.Sleep(50 * time.Millisecond) // the filler reads ahead meanwhile, within the limit
	start, end, pos := c.Range()
	if end-start > 5*blockSize+chunkSize || end-pos > 3*blockSize+chunkSize || start > pos || pos > end {
		t.Fatalf("held [%d, %d) at %d, limit %d", start, end, pos, 4*blockSize)
	}
	back := pos - blockSize
	if back < start {
		t.Fatalf("less than a block held behind: [%d, %d) at %d", start, end, pos)
	}
	if got := readAt(t, c, back, 1000); !bytes.Equal(got, data[back:back+1000]) {
		t.Fatal("a seek back inside the window")
	}
	if _, err := c.Seek(0, io.SeekStart); !errors.Is(err, ErrOutside) {
		t.Fatalf("a seek before the window: %v", err)
	}
	if _, err := c.Seek(start+5*blockSize, io.SeekStart); !errors.Is(err, ErrOutside) {
		t.Fatalf("a seek ahead by more than the cache holds: %v", err)
	}
	if _, err := c.Seek(0, io.SeekEnd); err == nil {
		t.Fatal("SeekEnd before the end was read: no error")
	}

	q := &pipeSource{data: data}
	c2 := New(q.src(true), 4*blockSize)
	defer c2.Close()
	readAt(t, c2, 0, 8*blockSize)
	if got := readAt(t, c2, 10, 100); !bytes.Equal(got, data[10:110]) {
		t.Fatal("a seekable source: back to the start")
	}
	if got := readAt(t, c2, 11*blockSize, 100); !bytes.Equal(got, data[11*blockSize:11*blockSize+100]) {
		t.Fatal("a seekable source: far ahead")
	}
}

// TestReadAheadWhileIdle: the filler reads ahead while the reader does nothing, up to the limit.
func TestReadAheadWhileIdle(t *testing.T) {
	data := testData(10 * blockSize)
	p := &pipeSource{data: data}
	c := New(p.src(false), 4*blockSize)
	defer c.Close()
	deadline := time.Now().Add(5 * time.Second)
	for {
		if _, end, _ := c.Range(); end >= 2*blockSize || time.Now().After(deadline) {
			break
		}
		time.Sleep(time.Millisecond)
	}
	time.Sleep(20 * time.Millisecond)
	_, end, _ := c.Range()
	if end < 2*blockSize || end > 3*blockSize {
		t.Errorf("read ahead to %d with the reader at 0 (limit %d: %d ahead)", end, 4*blockSize, 3*blockSize)
	}
}

// TestCloseInterrupts: Close ends a filler blocked in the source through Source.Interrupt, and a
// reader waiting for data gets an error.
func TestCloseInterrupts(t *testing.T) {
	stop := make(chan struct{})
	src := Source{
		Read:      func(b []byte) (int, error) { <-stop; return 0, errors.New("interrupted") },
		Interrupt: func() { close(stop) },
	}
	c := New(src, blockSize)
	res := make(chan error, 1)
	go func() {
		_, err := c.Read(make([]byte, 10))
		res <- err
	}()
	time.Sleep(20 * time.Millisecond)
	closed := make(chan struct{})
	go func() { c.Close(); close(closed) }()
	select {
	case <-closed:
	case <-time.After(5 * time.Second):
		t.Fatal("Close did not return")
	}
	select {
	case err := <-res:
		if err == nil {
			t.Error("the waiting Read got no error")
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the waiting Read did not return")
	}
}

// TestSourceError: a source error reaches the reader once it has read what came before.
func TestSourceError(t *testing.T) {
	n := 0
	boom := errors.New("boom")
	c := New(Source{Read: func(b []byte) (int, error) {
		if n > 0 {
			return 0, boom
		}
		n = copy(b, "hello")
		return n, nil
	}}, blockSize)
	defer c.Close()
	b, err := io.ReadAll(c)
	if string(b) != "hello" || !errors.Is(err, boom) {
		t.Errorf("%q %v", b, err)
	}
}
