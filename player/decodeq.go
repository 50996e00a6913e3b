package player

import (
	"errors"
	"fmt"
	"time"
)

// The decode queue: frames come from the Source on their own goroutine (decodeLoop) into a bounded
// queue, which the main thread takes them from (receive); seeks go the other way (decoding.seek),
// and generations tell the frames from before a seek from those after it.

// DefaultDecodeAhead caps the decode-ahead that Config.Playback.DecodeAhead 0 asks for (startAhead):
// 64 MiB, 20 frames of 1080p 4:2:0, 5 of 2160p, 2 of 2160p 10-bit. Each frame waiting is a picture
// buffer of the decoder's pool, which keeps it after the frame is shown: the budget is resident
// memory for the whole run, so it is sized by what the pipeline needs, not by what decoding during
// the device's creation could fill (86 frames of 1080p at the earlier fixed 256 MiB).
const DefaultDecodeAhead = 64 << 20

// queueAhead is how many decoded frames may wait for the main thread in steady playback (as many
// as a queue of two and the decoder blocked sending a third held before); maxAhead caps the
// start-up queue, in frames.
const (
	queueAhead = 3
	maxAhead   = 256
)

// aheadOnCPU lets the decoder run ahead for a CPU device too (tests, on lavapipe).
var aheadOnCPU = false

// decoded is one item of the decode queue.
type decoded struct {
	f   *Frame
	err error
	dur time.Duration
	gen int
	// ready is when the decoder had the frame (start-up figures).
	ready time.Time
}

// startAhead is how many frames like f may wait in the queue before the first picture. With
// Config.Playback.DecodeAhead 0, what the pipeline needs: the queue of steady playback (queueAhead)
// and one frame per decoder thread, so that when the first picture is up each thread's next frame
// is already there while the threads, stopped while the queue was full, take up their work again;
// at most DefaultDecodeAhead bytes. A positive DecodeAhead asks for as many frames as that many
// bytes hold.
func (p *Player) startAhead(f *Frame) int {
	if p.cfg.Playback.DecodeAhead < 0 || p.cfg.GPU.Video || p.cfg.GPU.Frames || f.Picture == nil {
		return queueAhead
	}
	size := 0
	for _, pl := range f.Picture.Planes {
		size += len(pl)
	}
	return aheadFrames(p.cfg.Playback.DecodeAhead, size, p.src.Info().Threads)
}

// aheadFrames is startAhead's count for a budget of bytes (0: the pipeline's need), frames of size
// bytes and a decoder of threads frame threads.
func aheadFrames(budget, size, threads int) int {
	size = max(size, 1)
	if budget == 0 {
		need := queueAhead + max(threads, 1)
		return min(max(min(need, DefaultDecodeAhead/size), queueAhead), maxAhead)
	}
	return min(max(budget/size, queueAhead), maxAhead)
}

// room says whether the decoder may decode a frame with queued frames waiting, and the limit from
// now on. Draining (after the first picture, or on a CPU device) the limit follows the queue down,
// so that a main thread taking the start-up backlog faster than frames are decoded never leaves
// the decoder idle, and comes down by one each time the queue is found full, so that a backlog the
// decoder keeps up with drains at the rate frames are taken; never below queueAhead.
func room(limit, queued int, draining bool) (int, bool) {
	if draining {
		limit = max(queueAhead, min(limit, queued+2))
		if queued >= limit {
			limit = max(queueAhead, limit-1)
		}
	}
	return limit, queued < limit
}

// decodeLoop runs on its own goroutine: frames into a bounded queue, seeks from the main thread.
func (p *Player) decodeLoop(out chan<- decoded, seek <-chan float64, quit <-chan struct{}) {
	defer close(out)
	gen := 0
	// seekTo starts a new generation at s; false when the source failed (reported, loop ends).
	seekTo := func(s float64) bool {
		gen++
		if err := p.src.Seek(s); err != nil {
			out <- decoded{err: err, gen: gen}
			return false
		}
		return true
	}
	// limit is how many frames may wait in out before the next is decoded: up to the start-up budget
	// before the first picture, then down to queueAhead (room).
	limit, sized := queueAhead, false
	draining := func() bool { return p.presented.Load() || p.cpuDevice.Load() }
	for {
		select {
		case s := <-seek:
			if !seekTo(s) {
				return
			}
		case <-quit:
			return
		default:
		}
		for {
			var ok bool
			if limit, ok = room(limit, len(out), draining()); ok {
				break
			}
			select {
			case <-p.taken:
			case <-quit:
				return
			}
		}
		t := time.Now()
		f, err := p.src.Next()
		if f != nil && !sized {
			sized = true
			if !draining() {
				limit = p.startAhead(f)
			}
		}
		d := decoded{f: f, err: err, dur: time.Since(t), gen: gen, ready: time.Now()}
		select {
		case out <- d:
		case <-quit:
			d.f.release()
			return
		}
		if err != nil {
			// EOF: wait for a seek (backwards play continues) or quit.
			select {
			case s := <-seek:
				if !seekTo(s) {
					return
				}
			case <-quit:
				return
			}
		}
	}
}

// stallLimit is how long the source may go without progress (no frame, and for a ProgressSource no
// packet read or frame decoded) before playback ends with an error.
var stallLimit = 10 * time.Second

// stallWatch tells a source at work (a long seek) from a stalled one.
type stallWatch struct {
	since    time.Time // when progress was last seen
	progress int64
}

// reset records progress now (a frame arrived, or the wait begins).
func (w *stallWatch) reset() {
	w.since = time.Now()
	w.progress = -1
}

func (w *stallWatch) check(src Source) error {
	now := time.Now()
	if ps, ok := src.(ProgressSource); ok {
		if n := ps.Progress(); n != w.progress {
			if w.progress >= 0 {
				w.since = now
			}
			w.progress = n
		}
	}
	if now.Sub(w.since) > stallLimit {
		return fmt.Errorf("the input made no progress for %s", stallLimit)
	}
	return nil
}

// decoding is the decode goroutine's channels, and the main thread's side of its seeks.
type decoding struct {
	queue <-chan decoded
	seeks chan float64
	quit  chan struct{}
	// gen counts the seeks the decoder takes: a frame of an older generation is from before the
	// last seek.
	gen int
	// seeking: a seek was asked for and its picture is not shown yet; target is where it goes.
	seeking bool
	target  float64
	// unseekable: the source cannot seek (a pipe); noticed: the user was told so once.
	unseekable, noticed bool
}

func (p *Player) startDecoding() *decoding {
	// Bounded: in steady playback decoding runs queueAhead frames ahead (decodeLoop waits for room);
	// before the first picture, up to Config.Playback.DecodeAhead bytes of frames.
	queue := make(chan decoded, maxAhead)
	p.taken = make(chan struct{}, 1)
	d := &decoding{queue: queue, seeks: make(chan float64, 1), quit: make(chan struct{})}
	if ss, ok := p.src.(SeekingSource); ok {
		d.unseekable = !ss.CanSeek()
	}
	go p.decodeLoop(queue, d.seeks, d.quit)
	return d
}

// seek asks the decoder for target. Seeks add up as mpv's do: a seek made before the last one has
// shown its picture starts from that one's target (from). A target replaces one the decoder has
// not taken yet (the channel holds one), so gen counts only the seeks the decoder takes.
func (d *decoding) seek(target float64) {
	d.seeking, d.target = true, target
	select {
	case <-d.seeks: // not taken yet: replaced, same generation
	default:
		d.gen++
	}
	d.seeks <- target
}

// from is where a relative seek starts: the last seek's target while its picture is not shown yet,
// else shown (the picture on screen).
func (d *decoding) from(shown float64) float64 {
	if d.seeking {
		return d.target
	}
	return shown
}

// rewind seeks to the start at the input's end (Config.Playback.Loop): the decoder waits there for it.
func (d *decoding) rewind() {
	d.seeks <- 0
	d.gen++
}

// errDecoderEnded is receive's item when the decode goroutine has ended (after quit, or a seek
// the source failed, reported before).
var errDecoderEnded = errors.New("player: the decoder ended")

// receive takes the next item of the queue, waiting at most slice for it: ok is false when none
// came (the caller polls the window and comes back). A source that makes no progress for
// stallLimit is an error.
func (p *Player) receive(slice time.Duration) (d decoded, ok bool, err error) {
	var waitFrom time.Time
	if p.stats.FramesDecoded == 0 {
		waitFrom = time.Now()
	}
	select {
	case d, ok = <-p.dec.queue:
		if !ok {
			return decoded{err: errDecoderEnded, gen: p.dec.gen}, true, nil
		}
		p.watch.reset()
		select { // room for the decoder, if it waits
		case p.taken <- struct{}{}:
		default:
		}
		if !waitFrom.IsZero() && d.f != nil && p.stats.Startup.FirstDecoded == 0 {
			p.stats.Startup.WaitDecoded += msOf(time.Since(waitFrom))
			p.stats.Startup.FirstDecoded = msOf(d.ready.Sub(p.start))
		}
		return d, true, nil
	case <-time.After(slice):
		return decoded{}, false, p.watch.check(p.src)
	}
}

// stop ends the decode goroutine and releases the frames it queued. A source blocked in a read (a
// stalled pipe or network input) is interrupted when it can be; one that cannot is left behind after
// a second rather than holding the player; stop then reports false, and the source must not be closed
// (its goroutine is still inside it).
func (d *decoding) stop(src Source) bool {
	close(d.quit)
	if i, ok := src.(interface{ Interrupt() }); ok {
		i.Interrupt()
	}
	deadline := time.After(time.Second)
	for {
		select {
		case f, ok := <-d.queue: // drain so the decoder can exit, returning its buffers
			if !ok {
				return true
			}
			f.f.release()
		case <-deadline:
			return false
		}
	}
}
