// Package audio plays decoded audio through PulseAudio (internal/pulse) and is the master clock
// while it plays.
//
// Output feeds a stream of decode.Chunks to the server from a goroutine of its own, keeping the
// samples on the media timeline: a gap between chunks (a track that starts after the video, a hole
// in the stream) is filled with silence and an overlap is cut, so that sample n of the stream is
// media time Base + n/rate. Position is then the rule mpv and ffplay follow, with the device latency
// measured rather than guessed:
//
//	position = Base + written/rate − latency
//
// where latency is pa_stream_get_latency (the queued samples plus the sink's own latency, from the
// server's timing, interpolated to now). Corking (pause) freezes it, Seek restarts the stream at the
// target, and once the last sample has been heard the position goes on with the wall clock, so that
// video longer than its audio keeps playing.
//
// Volume and mute are the stream's own on the server (they take effect at once, not after the
// queued samples); Volume 1 is PulseAudio's 100 %.
package audio
