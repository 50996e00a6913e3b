// Package readahead is the player's byte cache for inputs read once: a pipe (standard input, a
// FIFO) or a network stream. A goroutine reads the source ahead into memory, up to a limit, while
// the demuxer reads and seeks inside what is held, as mpv's cache does (mpv's manual, --cache and
// --demuxer-max-bytes): so an MP4 whose moov box sits after its media (the demuxer seeks to the
// end and back) plays from a pipe when it fits, and seeks back within the held range work on
// inputs that cannot seek. Held bytes are dropped oldest first once the limit is reached.
package readahead

import (
	"errors"
	"fmt"
	"io"
	"sync"
)

// blockSize is the unit of memory: the window grows and drops whole blocks.
const blockSize = 1 << 20

// chunkSize is the most one read of the source asks for.
const chunkSize = 64 << 10

// ErrOutside is a seek to bytes no longer (or never, past a source that cannot seek) held.
var ErrOutside = errors.New("readahead: seek outside the cached range")

// Source is what the cache reads: Read as io.Reader; Seek, if the source can (nil: it cannot),
// moves it so that the next Read returns the bytes from off.
type Source struct {
	Read func(p []byte) (int, error)
	Seek func(off int64) error
	// Interrupt, if set, ends a Read blocked in the source (Close calls it).
	Interrupt func()
}

// Cache reads a Source ahead. Read and Seek are for one reader (the demuxer); Range and Close may
// be called from any goroutine.
type Cache struct {
	src   Source
	limit int64 // bytes held at most (rounded up to whole blocks)

	mu     sync.Mutex
	cond   *sync.Cond
	blocks [][]byte // held bytes [base, end): full blocks but the last
	base   int64
	end    int64
	pos    int64 // the reader's position
	err    error // the source's error (io.EOF at its end), once end is reached
	size   int64 // the source's size once its end was read; -1 before
	closed bool
	// gen counts source seeks: a read that began before one is dropped.
	gen int
	// refused counts seeks refused with ErrOutside.
	refused int

	srcMu sync.Mutex // held by the filler while it reads the source, and by a source seek
	done  chan struct{}
}

// New starts reading src ahead, holding at most limit bytes (at least one block).
func New(src Source, limit int64) *Cache {
	c := &Cache{src: src, limit: max(limit, blockSize), size: -1, done: make(chan struct{})}
	c.cond = sync.NewCond(&c.mu)
	go c.fill()
	return c
}

// roomLocked says whether the filler may read another chunk: three quarters of the limit may be
// read ahead of the reader, the rest is what it has passed, kept for seeks back (mpv's defaults
// split its cache so: --demuxer-max-bytes 150 MiB ahead, --demuxer-max-back-bytes 50 MiB behind).
func (c *Cache) roomLocked() bool {
	return c.end-c.pos < c.limit-c.limit/4
}

func (c *Cache) fill() {
	defer close(c.done)
	chunk := make([]byte, chunkSize)
	for {
		c.mu.Lock()
		for !c.closed && (c.err != nil || !c.roomLocked()) {
			c.cond.Wait()
		}
		if c.closed {
			c.mu.Unlock()
			return
		}
		c.mu.Unlock()

		// The generation is taken with srcMu held: a read that follows a source seek counts, one
		// that a seek waited for is dropped.
		c.srcMu.Lock()
		c.mu.Lock()
		gen := c.gen
		c.mu.Unlock()
		n, err := c.src.Read(chunk)
		c.srcMu.Unlock()

		c.mu.Lock()
		if gen != c.gen { // the source was moved meanwhile: these bytes are from before
			c.mu.Unlock()
			continue
		}
		if n > 0 {
			c.appendLocked(chunk[:n])
		}
		if err != nil {
			if errors.Is(err, io.EOF) {
				c.size = c.end
			}
			c.err = err
		}
		c.cond.Broadcast()
		c.mu.Unlock()
	}
}

// appendLocked adds b at end, dropping the oldest blocks the reader has passed while over the limit.
func (c *Cache) appendLocked(b []byte) {
	for len(b) > 0 {
		if len(c.blocks) == 0 || len(c.blocks[len(c.blocks)-1]) == blockSize {
			c.blocks = append(c.blocks, make([]byte, 0, blockSize))
		}
		last := &c.blocks[len(c.blocks)-1]
		n := min(len(b), blockSize-len(*last))
		*last = append(*last, b[:n]...)
		b = b[n:]
		c.end += int64(n)
	}
	// Whole blocks go, so up to a block more than the limit may be held.
	for c.end-c.base-blockSize >= c.limit && c.pos-c.base >= blockSize && len(c.blocks) > 1 {
		c.blocks[0] = nil
		c.blocks = c.blocks[1:]
		c.base += blockSize
	}
}

// Read reads from the position, waiting for the filler; at the source's end it returns io.EOF,
// after a source error that error.
func (c *Cache) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for c.pos >= c.end && c.err == nil && !c.closed {
		c.cond.Wait()
	}
	if c.closed {
		return 0, errors.New("readahead: closed")
	}
	if c.pos >= c.end {
		return 0, c.err
	}
	i := c.pos - c.base
	blk := c.blocks[i/blockSize]
	n := copy(p, blk[i%blockSize:])
	c.pos += int64(n)
	c.cond.Broadcast() // room for the filler, maybe
	return n, nil
}

// Seek moves the position as io.Seeker does. Inside the held range it is immediate; ahead of it,
// it waits for the filler to read that far (at most to the source's end); behind it, or ahead by
// more than the cache holds, the source is moved if it can seek, else ErrOutside. io.SeekEnd needs
// the source's end to have been read.
func (c *Cache) Seek(offset int64, whence int) (int64, error) {
	c.mu.Lock()
	var off int64
	switch whence {
	case io.SeekStart:
		off = offset
	case io.SeekCurrent:
		off = c.pos + offset
	case io.SeekEnd:
		if c.size < 0 {
			c.mu.Unlock()
			return 0, fmt.Errorf("readahead: seek from the end: the size is not known yet")
		}
		off = c.size + offset
	default:
		c.mu.Unlock()
		return 0, fmt.Errorf("readahead: bad whence %d", whence)
	}
	if off < 0 {
		c.mu.Unlock()
		return 0, fmt.Errorf("readahead: seek to %d", off)
	}
	if off >= c.base && off <= c.end {
		c.pos = off
		c.cond.Broadcast()
		c.mu.Unlock()
		return off, nil
	}
	if off > c.end && c.src.Seek == nil && off-c.base > c.limit {
		// So far ahead that the bytes from the oldest held to it do not fit: refused rather than
		// read through, which would drop what the demuxer may come back to (Matroska's seek to
		// its cues at the end, then back).
		c.refused++
		base := c.base // read under the lock: the filler moves it
		c.mu.Unlock()
		return 0, fmt.Errorf("%w: %d is more than the cache's %d bytes past %d, the oldest byte held", ErrOutside, off, c.limit, base)
	}
	if off > c.end && (c.src.Seek == nil || off-c.end <= c.limit/2) {
		// Ahead: read up to it (the bytes between are passed, so they may be dropped).
		c.pos = c.end
		for off > c.end && c.err == nil && !c.closed {
			c.pos = c.end
			c.cond.Broadcast()
			c.cond.Wait()
		}
		if off <= c.end {
			c.pos = off
		} else if c.size >= 0 {
			c.pos = off // past the end: reads give io.EOF, as for a file
		}
		err, short := c.err, off > c.end // read under the lock: the filler moves end
		c.mu.Unlock()
		if short && !errors.Is(err, io.EOF) {
			return 0, err
		}
		return off, nil
	}
	if c.src.Seek == nil {
		c.refused++
		base := c.base
		c.mu.Unlock()
		return 0, fmt.Errorf("%w: %d is before %d, the oldest byte held, and the input cannot seek", ErrOutside, off, base)
	}
	// Behind or far ahead, on a source that seeks (a file, an HTTP server with ranges): start over
	// at off. A filler read that ended before srcMu was taken here is dropped (gen); the next one
	// reads from off.
	c.mu.Unlock()
	c.srcMu.Lock()
	defer c.srcMu.Unlock()
	c.mu.Lock()
	c.gen++
	c.mu.Unlock()
	err := c.src.Seek(off)
	c.mu.Lock()
	defer c.mu.Unlock()
	if err != nil {
		c.err = err
		c.cond.Broadcast()
		return 0, err
	}
	c.blocks, c.base, c.end, c.pos, c.err = nil, off, off, off, nil
	if c.size >= 0 && off >= c.size {
		c.err = io.EOF
	}
	c.cond.Broadcast()
	return off, nil
}

// Refused counts the seeks refused with ErrOutside so far.
func (c *Cache) Refused() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.refused
}

// Size is the source's size, known once its end was read.
func (c *Cache) Size() (int64, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.size, c.size >= 0
}

// Range is the held byte range [start, end) and the reader's position.
func (c *Cache) Range() (start, end, pos int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.base, c.end, c.pos
}

// Close stops the filler (interrupting its read in the source) and waits for it.
func (c *Cache) Close() {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return
	}
	c.closed = true
	c.cond.Broadcast()
	c.mu.Unlock()
	if c.src.Interrupt != nil {
		c.src.Interrupt()
	}
	<-c.done
	c.mu.Lock()
	c.blocks = nil
	c.mu.Unlock()
}
