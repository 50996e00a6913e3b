package wall

import (
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/ycbcrkit/ycbcrkit/decode"
	"github.com/ycbcrkit/ycbcrkit/stream"
)

// item is one entry of a tile's queue: a decoded picture, or the error that ended decoding.
type item struct {
	f   *decode.Frame
	err error
}

// decodeLoop runs on the tile's own goroutine: it decodes up to limit pictures (0: all) of loops
// plays of the input (0: one), queues them, and wakes the display loop after each. The queue is
// closed at the end of the input, after an error (queued first) or when stop closes.
//
// A hardware-decoded picture is queued once its decoding has finished on the GPU: a stream's frame
// submitted earlier would make its queue wait on this stream's decoder, and every other stream's
// pictures on that queue behind it (a queue runs its submissions in order). With Options.TwoDecodes
// the loop waits for a picture only after it has submitted the next one's decoding, so that two
// decodings of the stream are in flight (FFmpeg's decoder has two execution contexts:
// libavcodec/vulkan_decode.c); serial (the default) waits for each before the next. It waits for the value the picture's
// decoding signals, read when the decoder returned it: the next decoding, which may use the picture
// as a reference, raises the frame's value again (libavutil/vulkan.c, ff_vk_exec_add_dep_frame).
func (t *tile) decodeLoop(wake chan<- struct{}, limit, loops int, serial bool) {
	defer close(t.done)
	defer close(t.q)
	defer nudge(wake)
	var held *decode.Frame // decoded on the GPU, not yet waited for
	var heldAt stream.TimelinePoint
	defer func() {
		if held != nil {
			held.Release()
		}
	}()
	// send waits, for a hardware-decoded f, until its semaphore reaches at, and queues f; false: the
	// loop ends.
	send := func(f *decode.Frame, at stream.TimelinePoint) bool {
		if f.HW != nil {
			t0 := time.Now()
			err := at.Wait(t.dev, decodeTimeout)
			t.waitNs.Add(int64(time.Since(t0)))
			if err != nil {
				f.Release()
				t.fail(fmt.Errorf("waiting for the decoder: %w", err))
				return false
			}
		}
		select {
		case t.q <- item{f: f}:
			nudge(wake)
			return true
		case <-t.stop:
			f.Release()
			return false
		}
	}
	// flush queues the held picture; false: the loop ends.
	flush := func() bool {
		h := held
		if h == nil {
			return true
		}
		held = nil
		return send(h, heldAt)
	}
	for n := 0; limit == 0 || n < limit; n++ {
		t0 := time.Now()
		f, err := t.dec.Next()
		if errors.Is(err, io.EOF) && loops > 1 {
			loops--
			if err = t.dec.Seek(0); err == nil {
				f, err = t.dec.Next()
			}
		}
		t.nextNs.Add(int64(time.Since(t0)))
		if err == nil {
			t.decoded.Add(1)
		}
		if err != nil {
			if flush() && !errors.Is(err, io.EOF) {
				t.fail(err)
			}
			return
		}
		var at stream.TimelinePoint
		if f.HW != nil {
			if at, err = decodedAt(f); err != nil {
				f.Release()
				if flush() {
					t.fail(err)
				}
				return
			}
		}
		// f's decoding is submitted: now the one before it is waited for and queued, in order.
		if !flush() {
			f.Release()
			return
		}
		if f.HW != nil && !serial {
			held, heldAt = f, at
		} else if !send(f, at) {
			return
		}
	}
	flush()
}

// fail queues err, which ends the stream.
func (t *tile) fail(err error) {
	select {
	case t.q <- item{err: err}:
	case <-t.stop:
	}
}

// decodedAt is the point of f's semaphore that its decoding signals (stream.ForeignPoint).
func decodedAt(f *decode.Frame) (stream.TimelinePoint, error) {
	return stream.ForeignPoint(f.HW.Foreign())
}

// ready says, without waiting, whether a hardware-decoded f's semaphore has reached the value its
// next user waits on now: a later decoding that uses f as a reference raises it, and a frame
// submitted before that decoding has finished would hold its queue (and every stream's pictures on
// it) until then.
func (t *tile) ready(f *decode.Frame) (bool, error) {
	if f.HW == nil {
		return true, nil
	}
	at, err := decodedAt(f)
	if err != nil {
		return false, err
	}
	return at.Reached(t.dev)
}

// decodeTimeout bounds the wait for one picture's decoding on the GPU (a hung decoder ends the
// stream with an error instead of the wall).
const decodeTimeout = 10 * time.Second

// nudge wakes the display loop without blocking: one pending wake-up is enough.
func nudge(wake chan<- struct{}) {
	select {
	case wake <- struct{}{}:
	default:
	}
}
