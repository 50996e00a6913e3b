package player

import (
	"time"

	"github.com/ycbcrkit/ycbcrkit/pump"
)

// The decode queue is a pump (package pump): frames come from the Source on its goroutine into a
// bounded queue, which the main thread takes them from (receive); seeks go the other way
// (decoding.seek), and generations tell the frames from before a seek from those after it.

// DefaultDecodeAhead caps the decode-ahead that Config.Playback.DecodeAhead 0 asks for (startAhead):
// 64 MiB, 20 frames of 1080p 4:2:0, 5 of 2160p, 2 of 2160p 10-bit. Each frame waiting is a picture
// buffer of the decoder's pool, which keeps it after the frame is shown: the budget is resident
// memory for the whole run, so it is sized by what the pipeline needs, not by what decoding during
// the device's creation could fill (86 frames of 1080p at the earlier fixed 256 MiB).
const DefaultDecodeAhead = 64 << 20

// queueAhead is how many decoded frames may wait for the main thread in steady playback (as many
// as a queue of two and the decoder blocked sending a third held before).
const queueAhead = pump.DefaultQueue

// aheadOnCPU lets the decoder run ahead for a CPU device too (tests, on lavapipe).
var aheadOnCPU = false

// decoded is one item of the decode queue.
type decoded = pump.Item[*Frame]

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
	return pump.AheadFrames(p.cfg.Playback.DecodeAhead, DefaultDecodeAhead, size, p.src.Info().Threads, queueAhead)
}

// stallLimit is how long the source may go without progress (no frame, and for a ProgressSource no
// packet read or frame decoded) before playback ends with an error.
var stallLimit = 10 * time.Second

// decoding is the pump and the main thread's side of its seeks.
type decoding struct {
	pump *pump.Pump[*Frame]
	// seeking: a seek was asked for and its picture is not shown yet; target is where it goes.
	seeking bool
	target  float64
	// unseekable: the source cannot seek (a pipe); noticed: the user was told so once.
	unseekable, noticed bool
}

func (p *Player) startDecoding() *decoding {
	// Bounded: in steady playback decoding runs queueAhead frames ahead; before the first picture,
	// up to Config.Playback.DecodeAhead bytes of frames (startAhead), until drained (at the first
	// picture, or at once on a CPU device).
	d := &decoding{}
	if ss, ok := p.src.(SeekingSource); ok {
		d.unseekable = !ss.CanSeek()
	}
	prm := pump.Params[*Frame]{Queue: queueAhead, StartAhead: p.startAhead, Stall: stallLimit,
		Timeout: p.cfg.Playback.Timeout, Release: (*Frame).release}
	if ls, ok := p.src.(LiveSource); ok && ls.Live() {
		prm.Live, prm.Reopen = true, ls.Reopen
	}
	d.pump = pump.Start[*Frame](p.src, prm)
	if p.cpuDevice.Load() || p.presented.Load() {
		d.pump.Drain()
	}
	return d
}

// seek asks the decoder for target. Seeks add up as mpv's do: a seek made before the last one has
// shown its picture starts from that one's target (from).
func (d *decoding) seek(target float64) {
	d.seeking, d.target = true, target
	d.pump.Seek(target)
}

// gen is the generation of the last seek the decoder takes: a frame of an older one is from
// before it.
func (d *decoding) gen() int { return d.pump.Gen() }

// from is where a relative seek starts: the last seek's target while its picture is not shown yet,
// else shown (the picture on screen).
func (d *decoding) from(shown float64) float64 {
	if d.seeking {
		return d.target
	}
	return shown
}

// rewind seeks to the start at the input's end (Config.Playback.Loop): the decoder waits there for it.
func (d *decoding) rewind() { d.pump.Rewind() }

// receive takes the next item of the queue, waiting at most slice for it: ok is false when none
// came (the caller polls the window and comes back). A source that makes no progress for
// stallLimit, or gives no picture for Config.Playback.Timeout, is an error.
func (p *Player) receive(slice time.Duration) (d decoded, ok bool, err error) {
	var waitFrom time.Time
	if p.stats.FramesDecoded == 0 {
		waitFrom = time.Now()
	}
	d, ok, err = p.dec.pump.Receive(slice)
	if ok && !waitFrom.IsZero() && d.Frame != nil && p.stats.Startup.FirstDecoded == 0 {
		p.stats.Startup.WaitDecoded += msOf(time.Since(waitFrom))
		p.stats.Startup.FirstDecoded = msOf(d.Ready.Sub(p.start))
	}
	return d, ok, err
}

// stop ends the decode goroutine and releases the frames it queued: false when the source could
// not be interrupted and must not be closed (pump.Pump.Stop).
func (d *decoding) stop() bool { return d.pump.Stop() }

// Signal is the input's signal: for a live source (LiveSource), whether pictures come, since when
// they do not, and how many times it was reopened; always playing otherwise. Safe from any
// goroutine once Play has begun decoding.
func (p *Player) Signal() pump.State {
	if p.dec == nil {
		return pump.State{Signal: true}
	}
	return p.dec.pump.State()
}
