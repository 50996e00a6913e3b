package decode

import "fmt"

// Reopen opens the input again, with the same options and device, and goes on from where the
// input is now: a live feed that failed or ended (a network error, RTSP's connection closed) plays
// again (package pump's Params.Reopen calls it). Frames already handed out stay valid. Call it
// where Next is called; after Interrupt it fails with ErrInterrupted.
func (d *Decoder) Reopen() error {
	if d.closed {
		return fmt.Errorf("decode: reopen %s: the decoder is closed", d.url)
	}
	if d.pending != nil {
		d.pending.Release()
		d.pending = nil
	}
	d.resetDeinterlacer()
	d.closeStream()
	d.input.close()
	d.tried = nil
	if d.pkt != nil { // nil before the first opening (OpenLater)
		d.pkt.Unref()
	}
	d.pktHeld, d.inputDone, d.drained, d.endErr, d.fatal, d.errRun = false, false, false, nil, nil, 0
	d.hasPTS, d.dropping = false, false
	if err := d.open(); err != nil {
		d.fatal = err
		return err
	}
	return nil
}
