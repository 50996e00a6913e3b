package pump

import (
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"
)

// Source is what a pump decodes from. Next returns io.EOF at the input's end; Seek is called only
// between Nexts, on the pump's goroutine. A Source may also have Interrupt() (Stop calls it from
// the client's goroutine: a blocked read returns at once) and Progress() int64 (a count that grows
// while it reads or decodes, read from any goroutine: the stall watch tells work from a stall).
type Source[F any] interface {
	Next() (F, error)
	Seek(seconds float64) error
}

// Defaults of the zero Params.
const (
	// DefaultQueue is how many decoded frames may wait in steady playback.
	DefaultQueue = 3
	// MaxAhead caps the start-up queue (Params.StartAhead), in frames.
	MaxAhead = 256
	// DefaultStall is how long a source may make no progress before Receive fails.
	DefaultStall = 10 * time.Second
	// DefaultRetry is how often a live source that failed is reopened.
	DefaultRetry = 500 * time.Millisecond
	// DefaultSignal is how long a live source may go without a new picture before its State says
	// "no signal".
	DefaultSignal = time.Second
)

// Params tune Start. The zero value decodes one play of the input into a queue of DefaultQueue
// frames, waits at its end for a seek, and watches for a stall of DefaultStall.
type Params[F any] struct {
	// Queue is how many decoded frames may wait for the client; 0 means DefaultQueue. Without
	// StartAhead the queue is a channel of Queue frames (the decoder, blocked on a full one, holds
	// one more); with it, the decoder waits for room before it decodes (room).
	Queue int
	// StartAhead, if set, lets decoding run ahead before the first picture: it is given the first
	// frame and says how many frames like it may wait (AheadFrames: a budget in bytes), up to
	// MaxAhead, until the client calls Drain; then the queue comes down to Queue at the rate frames
	// are taken (room).
	StartAhead func(first F) int
	// Plays is how many times the input plays (0 or 1: once; negative: forever): at the end of each
	// but the last the pump seeks to 0 itself and the next play's first frame has Item.Start. After
	// the last the queue gets an Item with io.EOF and the pump waits for a Seek (a client looping on
	// its own terms, Rewind) or Stop.
	Plays int
	// Frames ends the stream (io.EOF) after this many frames; 0: all.
	Frames int
	// Stall: Receive fails once the source has made no progress (no frame, no Progress change) for
	// this long; 0 means DefaultStall, negative none.
	Stall time.Duration
	// Timeout: Receive fails once no new frame has come for this long, the first one included,
	// whatever the source's progress (a source trickling a few bytes a second); 0: none. Idle and
	// Seek restart the wait.
	Timeout time.Duration
	// Pending, if set, is called on the decoding goroutine with each frame as Next returns it: a
	// frame whose work is still in flight (a hardware decoding on the GPU) returns how to wait for
	// it (nil: nothing to wait for), and the pump waits before queueing it. With Overlap n > 0 the
	// wait comes only after n more frames' Next (their decodings submitted meanwhile).
	Pending func(F) (wait func() error, err error)
	Overlap int
	// Sink, if set, takes each item on the decoding goroutine instead of the queue: a client that
	// keeps its own bounded store (videotex stages into the stream's pictures, blocking while all are
	// taken) and needs no hop to another goroutine. It returns false to end decoding.
	Sink func(Item[F]) bool
	// Queued, if set, is called on the decoding goroutine after each item is queued and when
	// decoding ends (the wall wakes its display loop).
	Queued func()
	// Release frees a frame the pump drops (stopping, a stale frame); nil: the frame's own
	// Release() if it has one.
	Release func(F)

	// Live says the source is a live feed (decode.IsLive): its State turns to "no signal" after
	// Signal (0: DefaultSignal) without a new picture, and with Reopen, when it fails or ends (a
	// network error, RTSP's connection closed, the end of a live stream), the pump reopens it,
	// an attempt every Retry (0: DefaultRetry; at once after an attempt that took longer), until
	// it plays again or Stop, and goes on with Item.Start set:
	// the client restarts the stream's clock. Reopen runs on the decoding goroutine, between
	// Nexts; it must leave the Source ready for Next.
	Live   bool
	Reopen func() error
	Retry  time.Duration
	Signal time.Duration
}

// Item is one entry of the queue: a frame, or the error that ended decoding.
type Item[F any] struct {
	Frame F
	// Err is io.EOF at the end of the last play, else what ended decoding (Frame is then unset).
	Err error
	// Gen is the seek generation the item belongs to: an item whose Gen differs from Pump.Gen is
	// from before the client's last seek.
	Gen int
	// Start marks the first frame of a play, of a seek, or after a live source came back (Epoch
	// counts them): the client restarts the stream's clock at its PTS.
	Start bool
	Epoch int
	// Dur is the time Next took; Ready when it returned.
	Dur   time.Duration
	Ready time.Time
}

// State is a stream's signal as a client shows it.
type State struct {
	// Signal: pictures come (always true for a source that is not live).
	Signal bool
	// Since is when the signal was lost (the last picture, or the start): the zero time while
	// Signal.
	Since time.Time
	// Reconnects counts the times a live source was reopened and played again.
	Reconnects int
}

// Stats are the decoding goroutine's figures, read from any goroutine.
type Stats struct {
	Decoded int64         // frames decoded
	Next    time.Duration // time in the source's Next (and the loop's seeks)
	Wait    time.Duration // time waiting for Pending's work
}

// ErrEnded is Receive's item error once the decoding goroutine has ended (after Stop, or a seek
// the source failed, reported before).
var ErrEnded = errors.New("pump: decoding ended")

// Pump runs one stream's decoding goroutine. Seek, Rewind, Receive, Poll, Drain, Idle, Gen and
// Stop are the client's, called from one goroutine; State and Stats may be called from any.
type Pump[F any] struct {
	src   Source[F]
	prm   Params[F]
	out   chan Item[F]
	seeks chan float64
	taken chan struct{}
	quit  chan struct{}
	done  chan struct{}
	drain atomic.Bool
	ended atomic.Bool // the end is queued: the goroutine waits for a seek

	// The client's side: seek generations and the waits' watch.
	gen   int
	watch watch

	// Written by the decoding goroutine.
	decoded, nextNs, waitNs atomic.Int64
	started                 time.Time
	lastPic, lost           atomic.Int64 // unix ns of the last picture; of the failure (live), 0 when playing
	reconnects              atomic.Int64
	stopOnce                sync.Once
}

// Start starts decoding src on its own goroutine.
func Start[F any](src Source[F], prm Params[F]) *Pump[F] {
	if prm.Queue <= 0 {
		prm.Queue = DefaultQueue
	}
	if prm.Stall == 0 {
		prm.Stall = DefaultStall
	}
	if prm.Retry <= 0 {
		prm.Retry = DefaultRetry
	}
	if prm.Signal <= 0 {
		prm.Signal = DefaultSignal
	}
	size := prm.Queue
	if prm.StartAhead != nil {
		size = MaxAhead
	}
	p := &Pump[F]{src: src, prm: prm, out: make(chan Item[F], size), seeks: make(chan float64, 1),
		taken: make(chan struct{}, 1), quit: make(chan struct{}), done: make(chan struct{}), started: time.Now()}
	p.watch.reset()
	go p.decodeLoop()
	return p
}

// AheadFrames is how many frames of size bytes may wait before the first picture for a budget of
// bytes: 0 asks for what the pipeline needs, the steady queue (queue) and one frame per decoder
// thread (threads), so that each thread's next frame is there when the first picture is up, within
// budget0 bytes; a positive budget for as many frames as it holds. Never below queue, at most
// MaxAhead.
func AheadFrames(budget, budget0, size, threads, queue int) int {
	size = max(size, 1)
	if budget == 0 {
		need := queue + max(threads, 1)
		return min(max(min(need, budget0/size), queue), MaxAhead)
	}
	return min(max(budget/size, queue), MaxAhead)
}

// room says whether the decoder may decode a frame with queued frames waiting, and the limit from
// now on. Draining (after Drain) the limit follows the queue down, so that a client taking the
// start-up backlog faster than frames are decoded never leaves the decoder idle, and comes down by
// one each time the queue is found full, so that a backlog the decoder keeps up with drains at the
// rate frames are taken; never below queue.
func room(limit, queued, queue int, draining bool) (int, bool) {
	if draining {
		limit = max(queue, min(limit, queued+2))
		if queued >= limit {
			limit = max(queue, limit-1)
		}
	}
	return limit, queued < limit
}

// decodeLoop is the decoding goroutine: frames into the queue (or Sink), the client's seeks, the
// plays, the end, and a live source's reconnections.
func (p *Pump[F]) decodeLoop() {
	defer close(p.done)
	if p.prm.Sink == nil {
		defer close(p.out)
	}
	if p.prm.Queued != nil {
		defer p.prm.Queued()
	}
	d := decoder[F]{p: p, start: true, plays: 1, limit: p.prm.Queue}
	defer d.dropHeld()
	for {
		select {
		case s := <-p.seeks:
			if !d.seekTo(s) {
				return
			}
		case <-p.quit:
			return
		default:
		}
		if !d.waitRoom() {
			return
		}
		if p.prm.Frames > 0 && d.n >= p.prm.Frames { // the end asked for
			if !d.flush() || !d.send(Item[F]{Err: io.EOF, Gen: d.gen}) || !d.waitSeek() {
				return
			}
			continue
		}
		f, err, dur := d.next()
		if err != nil && p.prm.Live && p.prm.Reopen != nil {
			if !d.flush() || !d.reconnect() {
				return
			}
			continue
		}
		if err != nil {
			if !d.flush() || !d.send(Item[F]{Err: err, Gen: d.gen, Dur: dur, Ready: time.Now()}) {
				return
			}
			if !d.waitSeek() {
				return
			}
			continue
		}
		if !d.frame(f, dur) {
			return
		}
	}
}

// decoder is the decoding goroutine's own state.
type decoder[F any] struct {
	p          *Pump[F]
	gen, epoch int
	start      bool          // the next frame begins a play, a seek or a reconnection
	plays, n   int           // plays begun, frames decoded
	limit      int           // room's limit
	sized      bool          // the start-up queue was sized (StartAhead)
	held       []heldItem[F] // frames whose waits come later (Overlap), oldest first
}

// heldItem is a frame whose pending work is waited for later (Overlap).
type heldItem[F any] struct {
	it   Item[F]
	wait func() error
}

// seekTo starts a new generation at s; false when the source failed (reported: the loop ends).
func (d *decoder[F]) seekTo(s float64) bool {
	d.gen++
	d.start = true
	if err := d.p.src.Seek(s); err != nil {
		d.send(Item[F]{Err: err, Gen: d.gen})
		return false
	}
	return true
}

// waitSeek waits at the end (or after an error) for a seek; false: Stop, or the seek failed.
func (d *decoder[F]) waitSeek() bool {
	d.p.ended.Store(true)
	defer d.p.ended.Store(false)
	select {
	case s := <-d.p.seeks:
		return d.seekTo(s)
	case <-d.p.quit:
		return false
	}
}

// waitRoom waits until the queue has room for one more frame (StartAhead's sizing only).
func (d *decoder[F]) waitRoom() bool {
	p := d.p
	if p.prm.StartAhead == nil || p.prm.Sink != nil {
		return true
	}
	for {
		var ok bool
		if d.limit, ok = room(d.limit, len(p.out), p.prm.Queue, p.drain.Load()); ok {
			return true
		}
		select {
		case <-p.taken:
		case <-p.quit:
			return false
		}
	}
}

// next decodes one frame, going on to the next play at the end of one with plays left.
func (d *decoder[F]) next() (F, error, time.Duration) {
	p := d.p
	t := time.Now()
	f, err := p.src.Next()
	if errors.Is(err, io.EOF) && !p.prm.Live && (p.prm.Plays < 0 || d.plays < p.prm.Plays) && d.n > 0 {
		d.plays++
		d.start = true
		if err = p.src.Seek(0); err == nil {
			f, err = p.src.Next()
		} else {
			err = fmt.Errorf("loop: %w", err)
		}
	}
	dur := time.Since(t)
	p.nextNs.Add(int64(dur))
	return f, err, dur
}

// frame queues f (after its pending work, Params.Pending).
func (d *decoder[F]) frame(f F, dur time.Duration) bool {
	p := d.p
	d.n++
	p.decoded.Add(1)
	now := time.Now()
	prev := p.lastPic.Swap(now.UnixNano())
	if p.lost.Swap(0) != 0 || p.prm.Live && prev != 0 && now.Sub(time.Unix(0, prev)) > p.prm.Signal {
		d.start = true // the feed is back: its clock starts again
	}
	if p.prm.StartAhead != nil && !d.sized {
		d.sized = true
		if !p.drain.Load() {
			d.limit = p.prm.StartAhead(f)
		}
	}
	it := Item[F]{Frame: f, Gen: d.gen, Dur: dur, Ready: now}
	if d.start {
		d.epoch++
		d.start = false
		it.Start = true
	}
	it.Epoch = d.epoch
	var wait func() error
	if p.prm.Pending != nil {
		var err error
		if wait, err = p.prm.Pending(f); err != nil {
			p.release(f)
			if d.flush() {
				d.send(Item[F]{Err: err, Gen: d.gen})
			}
			return false
		}
	}
	// f's work is under way: now the ones before it beyond Overlap are waited for and queued, in
	// order.
	keep := 0
	if wait != nil {
		keep = max(p.prm.Overlap-1, 0)
	}
	if !d.flushTo(keep) {
		p.release(f)
		return false
	}
	if wait != nil && p.prm.Overlap > 0 {
		d.held = append(d.held, heldItem[F]{it, wait})
		return true
	}
	return d.finish(it, wait)
}

// finish waits for it's pending work and queues it.
func (d *decoder[F]) finish(it Item[F], wait func() error) bool {
	p := d.p
	if wait != nil {
		t := time.Now()
		err := wait()
		p.waitNs.Add(int64(time.Since(t)))
		if err != nil {
			p.release(it.Frame)
			d.send(Item[F]{Err: err, Gen: d.gen})
			return false
		}
	}
	return d.send(it)
}

// flush queues the held frames (Overlap); false: decoding ends.
func (d *decoder[F]) flush() bool { return d.flushTo(0) }

// flushTo queues the oldest held frames until keep are left; false: decoding ends.
func (d *decoder[F]) flushTo(keep int) bool {
	for len(d.held) > keep {
		h := d.held[0]
		d.held = d.held[1:]
		if !d.finish(h.it, h.wait) {
			return false
		}
	}
	return true
}

func (d *decoder[F]) dropHeld() {
	for _, h := range d.held {
		d.p.release(h.it.Frame)
	}
	d.held = nil
}

// send queues it (or hands it to Sink); false when the pump stops meanwhile (it's frame released).
func (d *decoder[F]) send(it Item[F]) bool {
	p := d.p
	if p.prm.Sink != nil {
		return p.prm.Sink(it)
	}
	select {
	case p.out <- it:
		if p.prm.Queued != nil {
			p.prm.Queued()
		}
		return true
	case <-p.quit:
		if it.Err == nil {
			p.release(it.Frame)
		}
		return false
	}
}

// reconnect reopens a live source that failed or ended, every Retry until it opens or Stop; the
// state says "no signal" meanwhile. Seeks asked for meanwhile are dropped: a live feed goes on
// from now.
func (d *decoder[F]) reconnect() bool {
	p := d.p
	p.lost.CompareAndSwap(0, time.Now().UnixNano())
	// Attempts start every Retry: one that took that long already (an open waiting for a feed
	// that sends nothing, up to the source's read timeout) is followed by the next at once.
	t := time.NewTimer(p.prm.Retry)
	defer t.Stop()
	for {
		select {
		case <-p.quit:
			return false
		case <-p.seeks:
			continue
		case <-t.C:
		}
		began := time.Now()
		if err := p.prm.Reopen(); err == nil {
			p.reconnects.Add(1)
			d.start = true
			return true
		}
		t.Reset(max(0, p.prm.Retry-time.Since(began)))
	}
}

func (p *Pump[F]) release(f F) {
	if p.prm.Release != nil {
		p.prm.Release(f)
		return
	}
	if r, ok := any(f).(interface{ Release() }); ok {
		r.Release()
	}
}

// Seek asks the decoder for target (seconds). A target replaces one the decoder has not taken yet
// (the channel holds one), so Gen counts only the seeks the decoder takes.
func (p *Pump[F]) Seek(target float64) {
	select {
	case <-p.seeks: // not taken yet: replaced, same generation
	default:
		p.gen++
	}
	p.seeks <- target
	p.watch.picture = time.Now() // the wait for a picture begins again; the stall watch goes on
}

// Rewind seeks to the start at the input's end, where the decoder waits for it (a client's own
// loop: the player's -loop and A-B loop).
func (p *Pump[F]) Rewind() {
	p.seeks <- 0
	p.gen++
	p.watch.picture = time.Now()
}

// Gen is the generation of the client's last seek: items of another are stale.
func (p *Pump[F]) Gen() int { return p.gen }

// Drain ends the start-up run-ahead (StartAhead): the queue comes down to Params.Queue.
func (p *Pump[F]) Drain() { p.drain.Store(true) }

// Idle restarts the waits' watch: a client that paused does not count its pause against the source.
func (p *Pump[F]) Idle() { p.watch.reset() }

// Queued is how many items wait in the queue.
func (p *Pump[F]) Queued() int { return len(p.out) }

// Receive takes the next item, waiting at most wait for it: ok is false when none came (the caller
// does its other work and comes back), with an error once the source has stalled (Params.Stall) or
// given no picture for Params.Timeout. After the decoding goroutine has ended it returns an item
// with ErrEnded.
func (p *Pump[F]) Receive(wait time.Duration) (Item[F], bool, error) {
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case it, ok := <-p.out:
		return p.took(it, ok), true, nil
	case <-t.C:
		return Item[F]{}, false, p.watch.check(p.src, p.prm.Stall, p.prm.Timeout)
	}
}

// Poll takes the next item if one waits (ok), without waiting; after the decoding goroutine has
// ended, an item with ErrEnded.
func (p *Pump[F]) Poll() (Item[F], bool) {
	select {
	case it, ok := <-p.out:
		return p.took(it, ok), true
	default:
		return Item[F]{}, false
	}
}

func (p *Pump[F]) took(it Item[F], ok bool) Item[F] {
	if !ok {
		return Item[F]{Err: ErrEnded, Gen: p.gen}
	}
	p.watch.reset()
	select { // room for the decoder, if it waits
	case p.taken <- struct{}{}:
	default:
	}
	return it
}

// Ended says the decoding goroutine has queued the end (or an error) and waits for a seek, or has
// returned: it will queue nothing more by itself.
func (p *Pump[F]) Ended() bool {
	select {
	case <-p.done:
		return true
	default:
		return p.ended.Load()
	}
}

// Done is closed when the decoding goroutine has returned.
func (p *Pump[F]) Done() <-chan struct{} { return p.done }

// Stop ends the decoding goroutine and releases the frames it queued. A source blocked in a read (a
// stalled pipe or network input) is interrupted when it can be (Interrupt); one that cannot is
// left behind after a second rather than holding the client: Stop then reports false, and the
// source must not be closed (the goroutine is still inside it; Done says when it has left).
func (p *Pump[F]) Stop() bool {
	p.stopOnce.Do(func() { close(p.quit) })
	if i, ok := p.src.(interface{ Interrupt() }); ok {
		i.Interrupt()
	}
	deadline := time.NewTimer(time.Second)
	defer deadline.Stop()
	if p.prm.Sink != nil {
		select {
		case <-p.done:
			return true
		case <-deadline.C:
			return false
		}
	}
	for {
		select {
		case it, ok := <-p.out: // drain so the decoder can exit, returning its buffers
			if !ok {
				return true
			}
			if it.Err == nil {
				p.release(it.Frame)
			}
		case <-deadline.C:
			return false
		}
	}
}

// State is the stream's signal, read without stopping the decoding goroutine.
func (p *Pump[F]) State() State {
	s := State{Signal: true, Reconnects: int(p.reconnects.Load())}
	if !p.prm.Live {
		return s
	}
	last := p.started
	if ns := p.lastPic.Load(); ns != 0 {
		last = time.Unix(0, ns)
	}
	if p.lost.Load() != 0 || time.Since(last) > p.prm.Signal {
		s.Signal, s.Since = false, last
	}
	return s
}

// Lost is how long the signal has been lost (0 while Signal).
func (s State) Lost() time.Duration {
	if s.Signal {
		return 0
	}
	return time.Since(s.Since)
}

// Stats returns the decoding goroutine's figures.
func (p *Pump[F]) Stats() Stats {
	return Stats{Decoded: p.decoded.Load(), Next: time.Duration(p.nextNs.Load()), Wait: time.Duration(p.waitNs.Load())}
}

// watch tells a source at work (a long seek) from a stalled one, and bounds the wait for a picture.
type watch struct {
	since    time.Time // when progress was last seen
	picture  time.Time // when the last frame was taken (or the wait began)
	progress int64
}

// reset records progress now (a frame arrived, or the wait begins).
func (w *watch) reset() {
	w.since = time.Now()
	w.picture = w.since
	w.progress = -1
}

func (w *watch) check(src any, stall, timeout time.Duration) error {
	now := time.Now()
	if timeout > 0 && now.Sub(w.picture) > timeout {
		return fmt.Errorf("%w: no picture for %s", ErrTimeout, timeout)
	}
	if ps, ok := src.(interface{ Progress() int64 }); ok {
		if n := ps.Progress(); n != w.progress {
			if w.progress >= 0 {
				w.since = now
			}
			w.progress = n
		}
	}
	if stall > 0 && now.Sub(w.since) > stall {
		return fmt.Errorf("the input made no progress for %s", stall)
	}
	return nil
}

// ErrTimeout is Receive's error when no picture came for Params.Timeout.
var ErrTimeout = errors.New("timeout")
