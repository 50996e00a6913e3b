package decode

import (
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/asticode/go-astiav"

	"github.com/ycbcrkit/ycbcrkit/internal/avx"
)

// Seek moves to the first frame whose PTS is at or after seconds (counted like Frame.PTS, from the
// stream's start). It seeks the demuxer backward to a key frame at or before the target, flushes the
// decoder, and decodes forward, dropping frames before the target; the frame it lands on is what the
// next Next returns. Inputs the demuxer cannot seek in are restarted from the beginning. Seeking past
// the end is not an error: Next then returns io.EOF. Negative targets mean 0.
func (d *Decoder) Seek(seconds float64) error {
	switch {
	case d.closed:
		return fmt.Errorf("decode: seek %s: %w", d.url, ErrClosed)
	case d.fatal != nil:
		return d.fatal
	case math.IsNaN(seconds) || math.IsInf(seconds, 0):
		return fmt.Errorf("decode: seek %s: invalid target %v", d.url, seconds)
	}
	if seconds < 0 {
		seconds = 0
	}
	if d.pending != nil {
		d.pending.Release()
		d.pending = nil
	}
	ticks := math.Floor(seconds / d.tb)
	if ticks > math.MaxInt64/4 {
		ticks = math.MaxInt64 / 4
	}
	ts := d.start + int64(ticks)

	d.intr.Arm(d.opts.Timeout)
	if err := d.fc.SeekFrame(d.stIdx, ts, astiav.NewSeekFlags(astiav.SeekFlagBackward)); err != nil {
		// No index or not seekable by timestamp: go back to the start (by time, else by byte) and
		// decode forward.
		d.intr.Arm(d.opts.Timeout)
		if err2 := d.fc.SeekFrame(d.stIdx, d.start, astiav.NewSeekFlags(astiav.SeekFlagBackward)); err2 != nil {
			d.intr.Arm(d.opts.Timeout)
			if err3 := d.fc.SeekFrame(-1, 0, astiav.NewSeekFlags(astiav.SeekFlagByte)); err3 != nil {
				return d.ioError(fmt.Sprintf("seek to %.3fs in", seconds), err)
			}
		}
	}
	d.resetDeinterlacer()
	if err := avx.FlushBuffers(d.cc); err != nil {
		return fmt.Errorf("decode: seek %s: %w", d.url, err)
	}
	d.pkt.Unref()
	d.pktHeld, d.inputDone, d.drained = false, false, false
	d.endErr, d.errRun, d.hasPTS = nil, 0, false
	return d.skipTo(seconds)
}

// SkipTo moves forward to the first frame whose PTS is at or after seconds by decoding, without
// seeking the demuxer: what a pipe can do when the target is past what the read-ahead cache holds
// (CanSeekTo). The frame it lands on is what the next Next returns; a target behind the frames
// already returned lands on the next one.
func (d *Decoder) SkipTo(seconds float64) error {
	switch {
	case d.closed:
		return fmt.Errorf("decode: skip %s: %w", d.url, ErrClosed)
	case d.fatal != nil:
		return d.fatal
	case math.IsNaN(seconds) || math.IsInf(seconds, 0):
		return fmt.Errorf("decode: skip %s: invalid target %v", d.url, seconds)
	}
	if d.pending != nil {
		if d.pending.PTS >= seconds-d.tb/2 {
			return nil
		}
		d.pending.Release()
		d.pending = nil
	}
	return d.skipTo(seconds)
}

// skipTo decodes forward to the first frame at or after seconds and keeps it for Next.
func (d *Decoder) skipTo(seconds float64) error {
	// Half a time-base tick absorbs the float rounding of ticks × time base.
	eps := d.tb / 2
	for {
		f, err := d.decodeNext()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		if f.PTS >= seconds-eps {
			d.pending = f
			return nil
		}
		f.Release()
	}
}

// CanSeekTo says whether a seek to seconds can be made. Without a read-ahead cache (Options.
// CacheSize) it can always be tried; with one that still holds the input's first byte, too;
// otherwise the demuxer's index must place a key frame at or before the target inside the bytes
// the cache still holds or may read ahead to, since the input itself cannot go back (a pipe).
func (d *Decoder) CanSeekTo(seconds float64) bool {
	start, _, ok := d.cached()
	if !ok {
		return true
	}
	if d.closed || d.fatal != nil || math.IsNaN(seconds) || math.IsInf(seconds, 0) {
		return false
	}
	if start == 0 {
		// Nothing dropped yet: every byte read so far is held, and the demuxer may go anywhere in
		// it (a demuxer without an index for the target goes back to the start and decodes on).
		return true
	}
	ts := d.start + int64(math.Floor(max(seconds, 0)/d.tb))
	pos, found := avx.IndexPos(d.fc, d.stIdx, ts)
	return found && pos >= start && pos-start <= d.cacheSize
}
