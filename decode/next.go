package decode

import (
	"errors"
	"fmt"
	"io"

	"github.com/asticode/go-astiav"

	"github.com/ycbcrkit/ycbcrkit/formats"
	"github.com/ycbcrkit/ycbcrkit/internal/avx"
)

// Bounds that turn a broken input into an error instead of an endless loop. Each decode error that
// consumes a packet is progress through the file, so maxErrRun is generous; an error from
// avcodec_receive_frame without a packet in between is not progress, so maxRecvErrRun is small.
const (
	maxErrRun     = 1000 // consecutive decode errors without a frame
	maxRecvErrRun = 64   // consecutive receive errors without feeding a packet
	maxReadErrRun = 64   // consecutive demuxer errors
)

// errFellBack: output met a hardware frame it could not read and the decoder fell back to software;
// decoding goes on.
var errFellBack = errors.New("decode: fell back to software")

// Next returns the next frame in presentation order, or io.EOF once the input is exhausted and the
// decoder drained. Decode errors mid-stream are skipped (Stats().Skipped) and decoding goes on with
// the next decodable frame; a frame the decoder concealed errors in comes with Damaged set. An input
// that breaks off (a truncated file) gives the frames that could be decoded, then io.EOF, or the read
// error when the demuxer failed rather than reaching the end.
//
// The caller owns the Frame and must Release it.
func (d *Decoder) Next() (*Frame, error) {
	switch {
	case d.closed:
		return nil, fmt.Errorf("decode: next %s: %w", d.url, ErrClosed)
	case d.fatal != nil:
		return nil, d.fatal
	case d.pending != nil:
		f := d.pending
		d.pending = nil
		return f, nil
	}
	return d.decodeNext()
}

func (d *Decoder) decodeNext() (*Frame, error) {
	recvErrs := 0
	for {
		if d.deint != nil {
			switch err := d.deint.f.Pull(d.recv); {
			case err == nil:
				return d.output()
			case isEOF(err): // flushed and drained
				d.resetDeinterlacer()
			case !isAgain(err):
				d.fatal = fmt.Errorf("decode: deinterlace %s: %w", d.url, err)
				return nil, d.fatal
			}
		}
		if d.drained && d.deint != nil && !d.deint.flushed {
			d.deint.flushed = true
			if err := d.deint.f.Push(nil); err != nil {
				d.fatal = fmt.Errorf("decode: deinterlace %s: %w", d.url, err)
				return nil, d.fatal
			}
			continue
		}
		if d.drained {
			if err := d.checkHW(); err != nil {
				return nil, err
			}
			if d.endErr == nil && d.nextStream() {
				continue
			}
			if d.fatal != nil {
				return nil, d.fatal
			}
			if d.endErr != nil {
				return nil, d.endErr
			}
			// Its Vulkan Video queue is free for decoders still decoding (hw.c, rebalance).
			d.pool.IdleHW()
			return nil, io.EOF
		}
		if d.hwSingle {
			if err := d.restoreThreads(); err != nil {
				return nil, err
			}
		}
		err := d.cc.ReceiveFrame(d.recv)
		injected := false
		if err == nil && avx.HWFailureDue() { // tests: this frame is a hardware failure
			d.recv.Unref()
			err, injected = astiav.ErrExternal, true
		}
		switch {
		case err == nil:
			if f, err := d.received(); f != nil || err != nil {
				return f, err
			}
		case isAgain(err):
			if d.inputDone {
				// After the flush packet the decoder owes EOF, not EAGAIN; end rather than spin.
				d.drained = true
				continue
			}
			recvErrs = 0
			if err := d.feed(); err != nil {
				return nil, err
			}
		case isEOF(err):
			d.drained = true
		default:
			if fell, err2 := d.hwFallback(err, injected); fell {
				if err2 != nil {
					return nil, err2
				}
				recvErrs = 0
				continue
			}
			d.stats.Skipped++
			d.errRun++
			recvErrs++
			if err := d.checkRefused(); err != nil {
				return nil, err
			}
			if err := d.checkHW(); err != nil {
				return nil, err
			}
			if recvErrs > maxRecvErrRun || d.errRun > maxErrRun {
				d.fatal = fmt.Errorf("decode: decode %s: giving up after %d consecutive errors: %w", d.url, d.errRun, err)
				return nil, d.fatal
			}
		}
	}
}

// received takes the frame the decoder returned: into the deinterlacer, or out as a Frame. Nothing
// (nil, nil) when there is nothing to return yet: its fields wait in the deinterlacer, a hardware
// fallback restarted decoding, or the frame was returned before the fallback.
func (d *Decoder) received() (*Frame, error) {
	d.stats.Decoded++
	d.progress.Add(1)
	if deint, err := d.deinterlaceThis(); err != nil {
		d.recv.Unref()
		d.fatal = err
		return nil, err
	} else if deint {
		// The filter times fields by the frame's best-effort timestamp, as ffmpeg's CLI does.
		if ts := avx.ReadFields(d.recv).BestEffortTimestamp; ts != avx.NoPTS {
			d.recv.SetPts(ts)
		}
		if err := d.deint.f.Push(d.recv); err != nil {
			d.recv.Unref()
			d.fatal = fmt.Errorf("decode: deinterlace %s: %w", d.url, err)
			return nil, d.fatal
		}
		d.errRun = 0
		return nil, nil // its fields come out at the top of decodeNext's loop
	}
	f, err := d.output()
	if err == errFellBack {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	d.errRun = 0
	if d.dropping { // after a fallback: frames up to the last one returned were returned already
		if f.PTS <= d.dropUntil+d.tb/2 {
			f.Release()
			return nil, nil
		}
		d.dropping = false
	}
	return f, nil
}

// feed gives the decoder the next packet of the video stream, or the flush packet at the end of the
// input. Packets the decoder rejects are counted and skipped.
func (d *Decoder) feed() error {
	readErrs := 0
	for {
		if !d.pktHeld {
			d.intr.Arm(d.opts.Timeout)
			err := d.fc.ReadFrame(d.pkt)
			// A read the deadline interrupted leaves FFmpeg's I/O context at its end, its error
			// sticky (AVIOContext.eof_reached and error: libavformat/aviobuf.c), and a demuxer
			// may still return a packet it had parsed: later reads would fail at once with the
			// same AVERROR_EXIT. Cleared, reading goes on where it stopped: a live feed that
			// paused for longer than the timeout plays on when it comes back.
			expired := d.intr.TimedOut() || errors.Is(err, astiav.ErrExit) && !d.intr.Aborted()
			if expired {
				avx.ResumeIO(d.fc)
			}
			if err != nil {
				if d.intr.Aborted() {
					return d.ioError("read", err)
				}
				if expired { // not final: a later Next re-arms the deadline and tries again
					return fmt.Errorf("decode: read %s: %w after %s", d.url, ErrTimeout, d.timeout)
				}
				if !isEOF(err) {
					d.stats.ReadErrors++
					if d.live {
						avx.ResumeIO(d.fc) // a live feed's I/O error is sticky too; the next read retries
					}
					if readErrs++; readErrs <= maxReadErrRun {
						continue // demuxers resynchronise on the next packet
					}
					// Broken beyond resynchronising: decode what is queued, then report.
					d.endErr = d.ioError("read", err)
				}
				d.inputDone = true
				if err := d.cc.SendPacket(nil); err != nil {
					d.drained = true
				}
				return nil
			}
			readErrs = 0
			d.progress.Add(1)
			if d.pkt.StreamIndex() != d.stIdx {
				d.pkt.Unref()
				continue
			}
			d.stats.Packets++
		}
		err := d.cc.SendPacket(d.pkt)
		if isAgain(err) {
			// The decoder has output to hand over first; this packet is sent again afterwards.
			d.pktHeld = true
			return nil
		}
		d.pktHeld = false
		d.pkt.Unref()
		if err != nil && !isEOF(err) {
			if fell, err2 := d.hwFallback(err, false); fell {
				return err2 // decodeNext goes on with the software decoder
			}
			// avcodec_send_packet has consumed the packet; the error is this packet's (or, with frame
			// threading, an earlier one's). Skip it and go on.
			d.stats.Skipped++
			d.errRun++
			if err := d.checkRefused(); err != nil {
				return err
			}
			if err := d.checkHW(); err != nil {
				return err
			}
			if d.errRun > maxErrRun {
				d.fatal = fmt.Errorf("decode: decode %s: giving up after %d consecutive errors: %w", d.url, d.errRun, err)
				return d.fatal
			}
			continue
		}
		return nil
	}
}

// checkRefused turns an allocation the pool refused (a picture over the size limit) into a final
// ErrTooLarge, so that the message names the size instead of FFmpeg's "Result too large".
func (d *Decoder) checkRefused() error {
	if w, h := d.pool.Refused(); w > 0 || h > 0 {
		d.fatal = fmt.Errorf("decode: decode %s: %w: frame %dx%d is over the %dx%d limit", d.url, ErrTooLarge,
			w, h, d.opts.MaxWidth, d.opts.MaxHeight)
		return d.fatal
	}
	return nil
}

// output turns the frame in d.recv into a Frame: page-aligned planes in a table layout (moved, copied
// or converted), resolved colour, timestamp and flags.
func (d *Decoder) output() (*Frame, error) {
	fl := avx.ReadFields(d.recv)
	if fl.Width > d.opts.MaxWidth || fl.Height > d.opts.MaxHeight {
		d.recv.Unref()
		d.fatal = fmt.Errorf("decode: decode %s: %w: frame %dx%d is over the %dx%d limit", d.url, ErrTooLarge,
			fl.Width, fl.Height, d.opts.MaxWidth, d.opts.MaxHeight)
		return nil, d.fatal
	}
	if fl.Width <= 0 || fl.Height <= 0 {
		d.recv.Unref()
		return nil, fmt.Errorf("decode: decode %s: frame has no size (%dx%d)", d.url, fl.Width, fl.Height)
	}
	srcName := astiav.PixelFormat(fl.Format).Name()
	hdr := avx.ReadHDR(d.recv)
	tagged := taggedColor(fl, d.streamCl)
	out := &Frame{SourceFormat: srcName, Tagged: tagged}
	if fl.Format == int(avx.PixelFormatVulkan) {
		if err := d.hwOutput(fl, out); err != nil {
			if fell, err2 := d.hwFallback(err, true); fell && err2 == nil {
				return nil, errFellBack
			}
			return nil, err
		}
		d.finish(fl, out)
		return out, nil
	}
	if err := d.checkHW(); err != nil {
		d.recv.Unref()
		return nil, err
	}

	av := astiav.AllocFrame()
	if av == nil {
		d.recv.Unref()
		return nil, fmt.Errorf("decode: decode %s: cannot allocate a frame", d.url)
	}
	var pf *formats.PixelFormat
	if p, ok := formats.Lookup(srcName); ok {
		pf = p
		if aligned(fl, pf) {
			av.MoveRef(d.recv)
		} else {
			// A decoder that allocates its own buffers (no DR1: rawvideo, ...) or cropped the top/left:
			// one copy into the pool keeps the page-alignment promise.
			err := d.copies.Copy(av, d.recv)
			d.recv.Unref()
			if err != nil {
				av.Free()
				return nil, fmt.Errorf("decode: decode %s: %w", d.url, err)
			}
			d.stats.Copied++
		}
		out.Color, out.Notes = d.resolved.resolve(tagged, pf, fl.Width, fl.Height)
	} else {
		av.Free()
		conv, c, err := d.convert(d.recv, fl, tagged)
		d.recv.Unref()
		if err != nil {
			return nil, err
		}
		av, pf = conv, c.t.dst
		out.Color, out.Notes = c.color, c.notes
	}
	out.av = av
	out.Picture = picture(avx.ReadFields(av), pf)
	// Static HDR metadata rides along with the colour (the tone stage reads it); implausible values
	// (formats.HDRMetadata.Valid) are dropped with a notice rather than steering the tone curve.
	if h := (formats.HDRMetadata{MinLuminance: hdr.MinLuminance, MaxLuminance: hdr.MaxLuminance, MaxCLL: hdr.MaxCLL, MaxFALL: hdr.MaxFALL,
		Primaries: hdr.Primaries, WhitePoint: hdr.WhitePoint}); h.Valid() {
		out.Color.HDR = h
	} else {
		d.notice(fmt.Sprintf("notice: ignoring implausible HDR metadata (%s)", h))
	}
	d.finish(fl, out)
	return out, nil
}

// finish sets the frame's timestamp, duration, aspect and flags from fl.
func (d *Decoder) finish(fl avx.Fields, out *Frame) {
	ts := fl.BestEffortTimestamp
	if ts == avx.NoPTS {
		ts = fl.PTS
	}
	tb, start := d.tb, d.start
	if d.deint != nil {
		// A field of the deinterlacer, on its time base: its pts is the filter's (one per field);
		// best_effort_timestamp is the coded frame's, copied to both fields with the frame's
		// properties (av_frame_copy_props), on the decoder's time base.
		tb, start, ts = d.deint.tb, d.deint.start, fl.PTS
		out.Field = true
	}
	if fl.PktDuration > 0 {
		out.Duration = float64(fl.PktDuration) * tb
	} else if fr := d.info.FrameRate.Float64(); fr > 0 {
		out.Duration = 1 / fr
		if out.Field {
			out.Duration /= 2
		}
	}
	switch {
	case ts != avx.NoPTS:
		out.PTS = float64(ts-start) * tb
	case d.hasPTS:
		out.PTS = d.lastPTS + out.Duration
	}
	d.lastPTS, d.hasPTS = out.PTS, true

	out.SampleAspect = sampleAspect(Rational{fl.SARNum, fl.SARDen})
	if fl.SARNum <= 0 || fl.SARDen <= 0 {
		out.SampleAspect = d.info.SampleAspect
	}
	out.Orient = d.info.Orient
	out.KeyFrame = fl.KeyFrame
	out.Damaged = fl.Flags&avx.FrameFlagCorrupt != 0 || fl.DecodeErrorFlags != 0
	if out.Damaged {
		d.stats.Damaged++
	}
	key := frameKey{fl.Width, fl.Height, fl.Format}
	out.Changed = d.hasLast && key != d.last
	d.last, d.hasLast = key, true
}
