package pump

import (
	"errors"
	"io"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// frame is a fake source's picture: its PTS, and whether it was released.
type frame struct {
	pts      float64
	released *atomic.Int64
}

func (f *frame) Release() { f.released.Add(1) }

// fake is a source of n frames 1/25 s apart. fail, if set, is returned once after failAt frames
// (a network error); block makes Next wait for Interrupt.
type fake struct {
	mu       sync.Mutex
	n, pos   int
	calls    atomic.Int64
	released atomic.Int64
	fail     error
	failAt   int
	block    chan struct{}
	progress atomic.Int64
}

func (s *fake) Next() (*frame, error) {
	s.calls.Add(1)
	if s.block != nil {
		<-s.block
		return nil, errors.New("interrupted")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.fail != nil && s.pos == s.failAt {
		err := s.fail
		s.fail = nil
		return nil, err
	}
	if s.pos >= s.n {
		return nil, io.EOF
	}
	s.pos++
	return &frame{pts: float64(s.pos-1) / 25, released: &s.released}, nil
}

func (s *fake) Seek(sec float64) error {
	s.mu.Lock()
	s.pos = int(sec * 25)
	s.mu.Unlock()
	return nil
}

func (s *fake) Interrupt() {
	if s.block != nil {
		close(s.block)
	}
}

func (s *fake) Progress() int64 { return s.progress.Load() }

// receive takes the next item within 2 s.
func receive(t *testing.T, p *Pump[*frame]) Item[*frame] {
	t.Helper()
	it, ok, err := p.Receive(2 * time.Second)
	if err != nil || !ok {
		t.Fatalf("no item: %v", err)
	}
	return it
}

// TestSeekGenerations: after a seek, items of the generation before are stale, and the first of the
// new one starts the clock at the seek's target; two seeks the decoder has not taken yet make one
// generation.
func TestSeekGenerations(t *testing.T) {
	src := &fake{n: 100}
	p := Start[*frame](src, Params[*frame]{})
	defer p.Stop()
	if it := receive(t, p); !it.Start || it.Gen != 0 || it.Frame.pts != 0 {
		t.Fatalf("first item %+v: want the start of generation 0 at 0", it)
	}
	p.Seek(1)
	p.Seek(2) // replaces 1 if the decoder has not taken it
	if p.Gen() != 1 && p.Gen() != 2 {
		t.Fatalf("Gen %d after two seeks", p.Gen())
	}
	stale := 0
	for {
		it := receive(t, p)
		if it.Gen != p.Gen() {
			stale++
			it.Frame.Release()
			continue
		}
		if !it.Start || it.Frame.pts != 2 {
			t.Fatalf("first item of generation %d: start %v at %v, want the start at 2", it.Gen, it.Start, it.Frame.pts)
		}
		break
	}
	if stale > DefaultQueue+2 {
		t.Errorf("%d stale items: more than the queue holds", stale)
	}
}

// TestPlaysAndClock: Plays 3 plays the input three times; each play's first frame has Start and a
// new Epoch (the client restarts its clock there), the others neither; then io.EOF, and a seek after
// the end plays on.
func TestPlaysAndClock(t *testing.T) {
	src := &fake{n: 5}
	p := Start[*frame](src, Params[*frame]{Plays: 3})
	defer p.Stop()
	for play := 1; play <= 3; play++ {
		for i := 0; i < 5; i++ {
			it := receive(t, p)
			if it.Err != nil {
				t.Fatalf("play %d frame %d: %v", play, i, it.Err)
			}
			if it.Start != (i == 0) || it.Epoch != play || it.Frame.pts != float64(i)/25 {
				t.Fatalf("play %d frame %d: start %v epoch %d pts %v", play, i, it.Start, it.Epoch, it.Frame.pts)
			}
		}
	}
	if it := receive(t, p); !errors.Is(it.Err, io.EOF) {
		t.Fatalf("after three plays: %+v, want io.EOF", it)
	}
	p.Rewind()
	if it := receive(t, p); it.Gen != p.Gen() || !it.Start || it.Frame.pts != 0 {
		t.Fatalf("after Rewind: %+v", it)
	}
}

// TestQueueBound: a client that takes nothing gets at most Queue frames queued and one more in the
// decoder's hands; with StartAhead, that many before Drain, then the queue comes down to Queue as
// frames are taken.
func TestQueueBound(t *testing.T) {
	src := &fake{n: 1000}
	p := Start[*frame](src, Params[*frame]{Queue: 2})
	time.Sleep(100 * time.Millisecond)
	if n := src.calls.Load(); n > 2+1 {
		t.Errorf("%d frames decoded with nothing taken, queue 2: want at most 3", n)
	}
	p.Stop()
	if r := src.released.Load(); r != src.calls.Load() {
		t.Errorf("Stop released %d of %d frames", r, src.calls.Load())
	}

	src = &fake{n: 1000}
	p = Start[*frame](src, Params[*frame]{StartAhead: func(*frame) int { return 10 }})
	defer p.Stop()
	time.Sleep(100 * time.Millisecond)
	if n := p.Queued(); n != 10 || src.calls.Load() != 10 {
		t.Errorf("start-up: %d queued, %d decoded; want 10", n, src.calls.Load())
	}
	p.Drain()
	for i := 0; i < 30; i++ {
		it := receive(t, p)
		it.Frame.Release()
		time.Sleep(2 * time.Millisecond)
		if q := p.Queued(); i > 10 && q > DefaultQueue {
			t.Fatalf("after %d taken: %d queued, want at most %d", i+1, q, DefaultQueue)
		}
	}
}

// TestAheadFrames: the default decode-ahead is the steady queue and a frame per decoder thread,
// within the default budget (never below the steady queue); a byte budget asks for as many frames
// as it holds.
func TestAheadFrames(t *testing.T) {
	const (
		p1080   = 1920 * 1088 * 3 / 2 // 4:2:0, rows padded as a decoder's pool pads them
		p2160   = 3840 * 2176 * 3 / 2
		p2160x2 = 2 * p2160 // 10-bit samples in 16-bit words
		budget0 = 64 << 20
		q       = DefaultQueue
	)
	for _, tc := range []struct{ budget, size, threads, want int }{
		{0, p1080, 8, q + 8},
		{0, p1080, 1, q + 1},
		{0, p1080, 0, q + 1},
		{0, p2160, 8, budget0 / p2160},
		{0, p2160x2, 8, q},
		{256 << 20, p1080, 8, (256 << 20) / p1080},
		{256 << 20, 1, 8, MaxAhead},
		{1, p1080, 8, q},
	} {
		if got := AheadFrames(tc.budget, budget0, tc.size, tc.threads, q); got != tc.want {
			t.Errorf("AheadFrames(%d, %d, %d) = %d, want %d", tc.budget, tc.size, tc.threads, got, tc.want)
		}
	}
}

// TestRoomDrains: after the first picture, the start-up backlog (86 frames) drains without the
// decoder waiting while the client takes frames faster than they are decoded (two per frame
// decoded), and at the rate frames are taken while the decoder is the faster (it would decode two
// per frame taken): the queue never grows again and ends at the steady queue either way.
func TestRoomDrains(t *testing.T) {
	const q = DefaultQueue
	for _, tc := range []struct {
		name          string
		takes, decode int // per step
		wantNoWait    bool
	}{{"main faster", 2, 1, true}, {"decoder faster", 1, 2, false}} {
		limit, queued := 86, 86
		waited := false
		for step := 0; step < 200; step++ {
			queued = max(0, queued-tc.takes)
			for i := 0; i < tc.decode; i++ {
				var ok bool
				if limit, ok = room(limit, queued, q, true); !ok {
					waited = true
					break
				}
				if queued++; queued > 86 {
					t.Fatalf("%s: the queue grew to %d", tc.name, queued)
				}
			}
			if tc.wantNoWait && waited && queued > q {
				t.Fatalf("%s: the decoder waited at step %d with %d frames queued", tc.name, step, queued)
			}
		}
		if limit != q || queued > q {
			t.Errorf("%s: limit %d, %d queued after 200 steps; want %d", tc.name, limit, queued, q)
		}
	}
	// Before the first picture nothing shrinks: a full queue waits.
	if l, ok := room(86, 86, q, false); ok || l != 86 {
		t.Errorf("start-up: room(86, 86) = %d, %v", l, ok)
	}
}

// TestStopWhileBlocked: Stop interrupts a source blocked in Next and returns at once.
func TestStopWhileBlocked(t *testing.T) {
	src := &fake{n: 10, block: make(chan struct{})}
	p := Start[*frame](src, Params[*frame]{})
	for src.calls.Load() == 0 {
		time.Sleep(time.Millisecond)
	}
	t0 := time.Now()
	if !p.Stop() {
		t.Fatal("Stop: the decoding goroutine did not end")
	}
	if d := time.Since(t0); d > 200*time.Millisecond {
		t.Errorf("Stop took %s", d)
	}
	select {
	case <-p.Done():
	default:
		t.Error("Done not closed after Stop")
	}
}

// TestTimeout: a source that works (its progress grows) but gives no picture ends Receive with
// ErrTimeout after Params.Timeout; without a timeout the stall watch lets it go on.
func TestTimeout(t *testing.T) {
	// It mostly waits on the clock: side by side with the others that do (scripts/test-lib.sh, run).
	t.Parallel()
	for _, timeout := range []time.Duration{300 * time.Millisecond, 0} {
		src := &fake{n: 10, block: make(chan struct{})}
		p := Start[*frame](src, Params[*frame]{Timeout: timeout, Stall: time.Second})
		stop := make(chan struct{})
		go func() { // a trickle: progress, never a frame
			for {
				select {
				case <-stop:
					return
				case <-time.After(10 * time.Millisecond):
					src.progress.Add(1)
				}
			}
		}()
		t0 := time.Now()
		var err error
		for err == nil && time.Since(t0) < 800*time.Millisecond {
			_, _, err = p.Receive(50 * time.Millisecond)
		}
		close(stop)
		p.Stop()
		switch {
		case timeout > 0 && !errors.Is(err, ErrTimeout):
			t.Errorf("timeout %s: %v after %s, want ErrTimeout", timeout, err, time.Since(t0))
		case timeout > 0 && time.Since(t0) > timeout+200*time.Millisecond:
			t.Errorf("timeout %s: ended after %s", timeout, time.Since(t0))
		case timeout == 0 && err != nil:
			t.Errorf("no timeout: a source at work failed: %v", err)
		}
	}
}

// TestReconnect: a live source that fails mid-stream is reopened every Retry; meanwhile its State
// says no signal (since the last picture), then playing again with one reconnection, and the first
// frame after it restarts the clock.
func TestReconnect(t *testing.T) {
	src := &fake{n: 1 << 30, fail: errors.New("connection reset"), failAt: 5}
	var reopens atomic.Int64
	reopen := func() error {
		if reopens.Add(1) < 3 {
			return errors.New("connection refused")
		}
		return nil
	}
	p := Start[*frame](src, Params[*frame]{Live: true, Reopen: reopen, Retry: 100 * time.Millisecond, Signal: 150 * time.Millisecond})
	defer p.Stop()
	for i := 0; i < 5; i++ {
		if it := receive(t, p); it.Err != nil || it.Start != (i == 0) {
			t.Fatalf("frame %d: %+v", i, it)
		}
	}
	time.Sleep(50 * time.Millisecond)
	if s := p.State(); s.Signal || s.Since.IsZero() || s.Reconnects != 0 {
		t.Fatalf("after the failure: %+v, want no signal", s)
	}
	it := receive(t, p) // after three tries, 300 ms
	if it.Err != nil || !it.Start || it.Epoch != 2 {
		t.Fatalf("first item after the reconnection: %+v, want a frame that starts epoch 2", it)
	}
	if n := reopens.Load(); n != 3 {
		t.Errorf("%d reopens, want 3", n)
	}
	if s := p.State(); !s.Signal || s.Reconnects != 1 {
		t.Errorf("playing again: %+v", s)
	}
}

// TestNoSignal: a live source whose pictures stop (a feed that pauses, no error) has no signal after
// Params.Signal, and its next picture restarts the clock.
func TestNoSignal(t *testing.T) {
	src := &fake{n: 3}
	gate := make(chan struct{})
	p := Start[*frame](&gated{src, gate}, Params[*frame]{Live: true, Signal: 100 * time.Millisecond})
	defer p.Stop()
	receive(t, p)
	if !p.State().Signal {
		t.Fatal("no signal while playing")
	}
	time.Sleep(200 * time.Millisecond)
	if s := p.State(); s.Signal || s.Lost() < 100*time.Millisecond {
		t.Fatalf("a feed that paused 200 ms: %+v", s)
	}
	close(gate)
	if it := receive(t, p); !it.Start || it.Epoch != 2 {
		t.Fatalf("first frame after the gap: %+v, want a new epoch", it)
	}
	if !p.State().Signal {
		t.Error("no signal after the feed came back")
	}
}

// gated gives its first frame, then waits for gate.
type gated struct {
	*fake
	gate chan struct{}
}

func (g *gated) Next() (*frame, error) {
	if g.fake.pos == 1 {
		<-g.gate
	}
	return g.fake.Next()
}

// TestOverlap: with Overlap n, a frame's pending work is waited for only once n more frames' Next
// has returned (decodings in flight), with 0 at once; frames are queued in order, and at the end
// the held ones are queued before io.EOF.
func TestOverlap(t *testing.T) {
	for _, overlap := range []int{0, 1, 3} {
		src := &fake{n: 12}
		var waitedAt []int64 // Next calls made when each frame's wait ran
		var mu sync.Mutex
		p := Start[*frame](src, Params[*frame]{Queue: 64, Overlap: overlap,
			Pending: func(f *frame) (func() error, error) {
				return func() error {
					mu.Lock()
					waitedAt = append(waitedAt, src.calls.Load())
					mu.Unlock()
					return nil
				}, nil
			}})
		for i := 0; i < 12; i++ {
			it := receive(t, p)
			if want := float64(i) / 25; it.Frame.pts != want {
				t.Fatalf("Overlap %d: item %d has pts %v, want %v", overlap, i, it.Frame.pts, want)
			}
			it.Frame.Release()
		}
		if it := receive(t, p); !errors.Is(it.Err, io.EOF) {
			t.Fatalf("Overlap %d: after the frames %v, want io.EOF", overlap, it.Err)
		}
		p.Stop()
		mu.Lock()
		n := int64(overlap)
		for i, c := range waitedAt {
			// Frame i came from Next call i+1; its wait comes after call i+1+n (or at the end: 13
			// calls, the last returning io.EOF).
			if want := min(int64(i)+1+n, 13); c != want {
				t.Errorf("Overlap %d: frame %d waited for after %d Next calls, want %d", overlap, i, c, want)
			}
		}
		if len(waitedAt) != 12 {
			t.Errorf("Overlap %d: %d waits, want 12", overlap, len(waitedAt))
		}
		mu.Unlock()
	}
}
