package main

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ycbcrkit/ycbcrkit/decode"
)

// openDeadline bounds the decoder's opening by -timeout as a whole: -timeout bounds each blocking
// read, and a source that trickles a few bytes a second never blocks that long while FFmpeg probes
// it for minutes. Its stop is the decoder's decode.Options.Stop: closed by the caller's stop (a
// signal, q), or at the deadline if the open has not ended by then (off). The deadline is the
// timeout and a quarter of it (at most a second more), so that an input that stalls from the start
// is reported by its read's own timeout, which names the read. From the open on, the player's pump
// bounds the wait for the first picture and each next one (player's Config.Playback.Timeout).
type openDeadline struct {
	stop          chan struct{}
	name          string
	timeout       time.Duration
	fired         atomic.Bool
	picture, done chan struct{}
	once, closing sync.Once
}

func newOpenDeadline(name string, stop <-chan struct{}, timeout time.Duration) *openDeadline {
	d := &openDeadline{stop: make(chan struct{}), name: name, timeout: timeout, picture: make(chan struct{}), done: make(chan struct{})}
	timer := time.NewTimer(timeout + min(timeout/4, time.Second))
	go func() {
		defer timer.Stop()
		select {
		case <-stop:
			close(d.stop)
			return
		case <-timer.C:
			d.fired.Store(true)
			close(d.stop)
			return
		case <-d.picture:
		case <-d.done:
			return
		}
		select { // the caller's stop still reaches the decoder
		case <-stop:
			close(d.stop)
		case <-d.done:
		}
	}()
	return d
}

// off says the open ended: the deadline is off (the caller's stop still reaches the decoder).
func (d *openDeadline) off() {
	if d != nil {
		d.once.Do(func() { close(d.picture) })
	}
}

// close ends the watch (after playback).
func (d *openDeadline) close() { d.closing.Do(func() { close(d.done) }) }

// explain turns the interruption at the deadline into its reason.
func (d *openDeadline) explain(err error) error {
	if d != nil && d.fired.Load() && errors.Is(err, decode.ErrInterrupted) {
		return fmt.Errorf("decode: %s: %w: not open within %s (-timeout)", d.name, decode.ErrTimeout, d.timeout)
	}
	return err
}
