// Package pump owns the CPU side of a stream of pictures, for every client (the player, the engine
// texture, the wall): the one decoding goroutine (decodeLoop) that calls the source's Next into a
// bounded queue (Params.Queue frames, or the player's start-up run-ahead: StartAhead, AheadFrames,
// room), the client's seeks and their generations (Item.Gen against Pump.Gen: an item of an older
// generation is from before the last seek), plays (Params.Plays) and the end of the stream (an
// io.EOF item, then the pump waits for a seek), the clock hand-off (Item.Start: the first frame of
// a play, a seek or a live feed's return, at whose PTS the client restarts the stream's clock),
// pending GPU work before a frame is queued (Params.Pending: a hardware decoding), the stall and
// picture watches (Receive: Params.Stall, Params.Timeout), stopping with an interrupt (Stop), and
// live feeds: a signal State per stream and reconnection (Params.Live, Reopen). Whether a frame is
// decoded in hardware, and the mid-stream fallback to software, are the source's (decode.Decoder):
// the pump only carries its frames.
//
// A pump imports no GPU-level package: its frames are any type (the decoder's *decode.Frame, the
// player's *player.Frame).
package pump
