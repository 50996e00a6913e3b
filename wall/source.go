package wall

import (
	"errors"
	"io"

	"github.com/ycbcrkit/ycbcrkit/decode"
)

// item is one entry of a tile's queue: a decoded picture, or the error that ended decoding.
type item struct {
	f   *decode.Frame
	err error
}

// decodeLoop runs on the tile's own goroutine: it decodes up to limit pictures (0: all), queues
// them, and wakes the display loop after each. The queue is closed at the end of the input, after
// an error (queued first) or when stop closes.
func (t *tile) decodeLoop(wake chan<- struct{}, limit int) {
	defer close(t.done)
	defer close(t.q)
	defer nudge(wake)
	for n := 0; limit == 0 || n < limit; n++ {
		f, err := t.dec.Next()
		if err != nil {
			if !errors.Is(err, io.EOF) {
				select {
				case t.q <- item{err: err}:
				case <-t.stop:
				}
			}
			return
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

// nudge wakes the display loop without blocking: one pending wake-up is enough.
func nudge(wake chan<- struct{}) {
	select {
	case wake <- struct{}{}:
	default:
	}
}
