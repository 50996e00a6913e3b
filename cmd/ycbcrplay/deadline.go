package main

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ycbcrkit/ycbcrkit/decode"
)

// firstDeadline bounds the time to the first picture by -timeout: -timeout bounds each blocking
// read, and a source that trickles a few bytes a second never blocks that long while FFmpeg probes
// it for minutes. Its stop is the decoder's decode.Options.Stop: closed by the caller's stop (a
// signal, q), or at the deadline if no picture came by then (first was not called). The deadline
// is the timeout and a quarter of it (at most a second more), so that an input that stalls from
// the start is reported by its read's own timeout, which names the read. After the first picture
// the player's pump bounds each stretch without a new picture (player's Config.Playback.Timeout).
type firstDeadline struct {
	stop          chan struct{}
	name          string
	timeout       time.Duration
	fired         atomic.Bool
	picture, done chan struct{}
	once, closing sync.Once
}

func newFirstDeadline(name string, stop <-chan struct{}, timeout time.Duration) *firstDeadline {
	d := &firstDeadline{stop: make(chan struct{}), name: name, timeout: timeout, picture: make(chan struct{}), done: make(chan struct{})}
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

// first says the first picture came: the deadline is off.
func (d *firstDeadline) first() {
	if d != nil {
		d.once.Do(func() { close(d.picture) })
	}
}

// close ends the watch (after playback).
func (d *firstDeadline) close() { d.closing.Do(func() { close(d.done) }) }

// explain turns the interruption at the deadline into its reason.
func (d *firstDeadline) explain(err error) error {
	if d != nil && d.fired.Load() && errors.Is(err, decode.ErrInterrupted) {
		return fmt.Errorf("decode: %s: %w: no picture within %s (-timeout)", d.name, decode.ErrTimeout, d.timeout)
	}
	return err
}
