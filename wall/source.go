package wall

import (
	"fmt"
	"time"

	"github.com/ycbcrkit/ycbcrkit/decode"
	"github.com/ycbcrkit/ycbcrkit/pump"
	"github.com/ycbcrkit/ycbcrkit/stream"
)

// startDecoding starts t's pump (package pump): its decoding goroutine decodes up to o.Frames
// pictures (0: all) of o.Loop plays of the input (0: one) into a queue of o.Queue pictures, and
// wakes the display loop after each.
//
// A hardware-decoded picture is queued once its decoding has finished on the GPU (pending): a
// stream's frame submitted earlier would make its queue wait on this stream's decoder, and every
// other stream's pictures on that queue behind it (a queue runs its submissions in order). The
// pump waits for a picture only once more have been returned (pump.Params.Overlap), so that the
// stream's next decodings are parsed, recorded and submitted meanwhile (FFmpeg keeps two in flight,
// libavcodec/vulkan_decode.c): one later; untimed (Options.Untimed), Options.Ahead later. A
// relayed picture (relaying) holds one of the relay's images until it is waited for: one later.
// Options.OneDecode waits for each before the next.
//
// A live input (decode.IsLive) that fails or ends is reopened by its pump every 500 ms
// (pump.DefaultRetry) on the tile's own goroutine, the other tiles untouched.
func (t *tile) startDecoding(wake chan<- struct{}, o Options) {
	up, relay := t.up, t.relay
	prm := pump.Params[*decode.Frame]{Queue: o.Queue, Frames: o.Frames, Plays: o.Loop,
		Pending: t.pending, Overlap: pumpOverlap(o, relay != nil), Queued: func() { nudge(wake) }, Stall: -1}
	if decode.IsLive(t.in.URL) {
		prm.Live, prm.Reopen = true, t.dec.Reopen
	}
	var src pump.Source[*decode.Frame] = t.dec
	if up != nil {
		src = uploading{t.dec, up}
	}
	if relay != nil {
		t.relaying = &relaying{Source: src, relay: relay}
		src = t.relaying
	}
	t.pump = pump.Start[*decode.Frame](src, prm)
}

// DefaultAhead is how many pictures later an untimed wall's pump waits for a picture's hardware
// decoding. The decoder returns pictures in display order, and a B picture's decoding is often the
// one just submitted: waited for one later, the stream's next decoding but one was parsed only once
// that one had finished, and an engine with two streams starved 1-12 % of the time (row trace44).
// Three later, on an H200: 16 HEVC streams 1.02x the pictures, starved 0.9-1.3 % against 2.9-4.3,
// no second below 91 % decoder use (row final44). Four later cut a stream's turnaround further
// (median 125 us from a decoding's end to its next but one's submission, against 330) but keeps
// another picture's image: GPU memory per added 1080p stream is 62.8 MB with three (docs/performance.md,
// "Live walls"), the limit 64.
const DefaultAhead = 3

// pumpOverlap is how many pictures later a stream's pump waits for a picture (startDecoding).
func pumpOverlap(o Options, relayed bool) int {
	switch {
	case o.OneDecode:
		return 0
	case o.Untimed && !relayed && o.Ahead > 0:
		return o.Ahead
	case o.Untimed && !relayed:
		return DefaultAhead
	}
	return 1
}

// uploading is a decoder whose pictures come in FFmpeg's Vulkan frames (Options.Upload).
type uploading struct {
	*decode.Decoder
	up *decode.Uploader
}

func (u uploading) Next() (*decode.Frame, error) {
	f, err := u.Decoder.Next()
	if err != nil {
		return nil, err
	}
	defer f.Release()
	return u.up.UploadFrame(f)
}

// relaying is a source whose pictures another device decoded (Options.DecodeDevices): each is
// copied into the wall's device (stream.Relay) once its decoding has finished there, so that the
// wall waits for nothing of that device. The copy is waited for on the CPU as the picture's pending
// wait (pending), so that the stream's next decoding is submitted first (16 H.264 streams over two
// devices: 1.02x against waiting in Next, row relay40).
type relaying struct {
	pump.Source[*decode.Frame]
	relay *stream.Relay
	wait  func() error // the last picture's copy, for pending (the decoding goroutine's)
}

func (r *relaying) Next() (*decode.Frame, error) {
	f, err := r.Source.Next()
	if err != nil || f.HW == nil {
		return f, err
	}
	img, back, wait, err := r.relay.Submit(f.HW.Foreign(), f.HW.SWFormat)
	if err != nil {
		f.Release()
		return nil, fmt.Errorf("wall: %w", err)
	}
	// f's image is read until the copy is done: f goes once it has been waited for.
	out, release := decode.Relayed(f, img, back)
	r.wait = func() error {
		defer release()
		return wait()
	}
	return out, nil
}

// pending is how to wait for a hardware-decoded f's decoding on the GPU: for the value its
// decoding signals, read when the decoder returned it (the next decoding, which may use the picture
// as a reference, raises the frame's value again: libavutil/vulkan.c, ff_vk_exec_add_dep_frame).
// A picture relayed ahead: the wait for its copy (relaying).
func (t *tile) pending(f *decode.Frame) (func() error, error) {
	if f.HW == nil {
		return nil, nil
	}
	if r := t.relaying; r != nil && r.wait != nil {
		wait := r.wait
		r.wait = nil
		return func() error {
			if err := wait(); err != nil {
				return fmt.Errorf("waiting for the relay's copy: %w", err)
			}
			return nil
		}, nil
	}
	at, err := decodedAt(f)
	if err != nil {
		return nil, err
	}
	return func() error {
		if err := at.Wait(t.dev, decodeTimeout); err != nil {
			return fmt.Errorf("waiting for the decoder: %w", err)
		}
		return nil
	}, nil
}

// decodedAt is the point of f's semaphore that its decoding signals (stream.ForeignPoint).
func decodedAt(f *decode.Frame) (stream.TimelinePoint, error) {
	return stream.ForeignPoint(f.HW.Foreign())
}

// hold takes a hardware-decoded f's lock without waiting and checks that its semaphore has reached
// the value its next user waits on: FFmpeg's decoder holds the lock while it records a decoding
// that reads the picture, until that submission returns (tens of milliseconds when the device's
// driver lock is contended), and that decoding raises the value; a frame submitted before it has
// finished would hold its queue, and every stream's pictures on it, until then. ok false: not now
// (nothing held). A software picture has nothing to hold (nil, true).
//
// A point found unreached is asked again first, without the lock: the point only grows, so while
// it is not reached the picture is not ready either (the wall asks on every step; the lock and a
// second question cost the display loop more than the answer: row prof46).
func (t *tile) hold(f *decode.Frame) (src stream.Foreign, ok bool, err error) {
	if f.HW == nil {
		return nil, true, nil
	}
	if t.notYetOf == f {
		if ok, err := t.notYet.Reached(t.dev); !ok || err != nil {
			return nil, false, err
		}
	}
	t.notYetOf = nil
	h, ok, err := stream.TryHold(f.HW.Foreign())
	if !ok || err != nil {
		return nil, false, err
	}
	if ok, err = h.Point().Reached(t.dev); !ok || err != nil {
		if err == nil {
			t.notYet, t.notYetOf = h.Point(), f
		}
		h.Abandon()
		return nil, false, err
	}
	return h, true, nil
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
