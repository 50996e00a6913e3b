// Package subtitle reads, times and renders subtitles into images to draw over the video.
//
// It owns:
//
//   - the track model (track.go): the subtitle tracks of a playback as plain data (Track: mpv's
//     track-list entries of type "sub", with their 1-based ids), embedded in the input or external
//     files, and which one mpv's rules pick when none is asked for;
//   - reading (reader.go): one demuxer of its own per file (as decode's audio has), which reads every
//     subtitle packet in the background and decodes it with FFmpeg's decoders, so that a seek
//     anywhere finds the events that show there. Text formats (SubRip, ASS/SSA, WebVTT, mov_text)
//     come out of FFmpeg as ASS events; bitmap formats (PGS, DVB, DVD) as paletted bitmaps;
//   - text rendering (text.go) with libass (internal/ass, loaded at run time: without it text tracks
//     are listed but not shown, and Subtitles.Notice says so once);
//   - bitmap timing and scaling (bitmap.go), and the overlay (overlay.go): what shows at a time as one
//     premultiplied RGBA image placed in the output's pixels, sRGB-encoded; the drawing pass turns
//     it into the output's colour space.
//
// Times are seconds on the player's clock: embedded tracks count from the input's start time
// (Options.Origin, as decode.Frame.PTS does), external files from their own zero.
package subtitle
