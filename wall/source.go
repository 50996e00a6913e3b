package wall

import (
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/ycbcrkit/ycbcrkit/decode"
	"github.com/ycbcrkit/ycbcrkit/internal/vkx"
)

// item is one entry of a tile's queue: a decoded picture, or the error that ended decoding.
type item struct {
	f   *decode.Frame
	err error
}

// decodeLoop runs on the tile's own goroutine: it decodes up to limit pictures (0: all) of loops
// plays of the input (0: one), queues them, and wakes the display loop after each. The queue is closed at the end of the input, after
// an error (queued first) or when stop closes.
func (t *tile) decodeLoop(wake chan<- struct{}, limit, loops int) {
	defer close(t.done)
	defer close(t.q)
	defer nudge(wake)
	for n := 0; limit == 0 || n < limit; n++ {
		f, err := t.dec.Next()
		if errors.Is(err, io.EOF) && loops > 1 {
			loops--
			if err = t.dec.Seek(0); err == nil {
				f, err = t.dec.Next()
			}
		}
		if err != nil {
			if !errors.Is(err, io.EOF) {
				select {
				case t.q <- item{err: err}:
				case <-t.stop:
				}
			}
			return
		}
		if f.HW != nil {
			// The picture is queued once its decoding has finished on the GPU: a stream's frame
			// submitted earlier would make the wall's queue wait on this stream's decoder, and every
			// other stream's pictures behind it (a queue runs its submissions in order).
			if err := t.decoded(f); err != nil {
				f.Release()
				select {
				case t.q <- item{err: err}:
				case <-t.stop:
				}
				return
			}
		}
		select {
		case t.q <- item{f: f}:
			nudge(wake)
		case <-t.stop:
			f.Release()
			return
		}
	}
}

// decoded waits, at most decodeTimeout, until the decoder's submission of f has completed: the frame's
// timeline semaphore reaches the value its next user waits on (AVVkFrame.sem_value).
func (t *tile) decoded(f *decode.Frame) error {
	ff := f.HW.Foreign()
	st, err := ff.Lock()
	if err != nil {
		return err
	}
	ff.Unlock()
	if err := vkx.WaitSemaphore(t.dev.Device, st.Semaphore, st.Value, decodeTimeout); err != nil {
		return fmt.Errorf("waiting for the decoder: %w", err)
	}
	return nil
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
