// Package soundtest helps tests with sound: clips with a flash and a beep at each whole second, a
// private PulseAudio server with a null sink, recordings of that sink's monitor with parec (each
// sample dated when the sink played it), the analysis of recordings (beep onsets, correlation with
// a reference), and the X server's screen read back (Screen: when a flash was shown).
//
// The server is started the way PulseAudio's own documentation describes a per-user daemon
// (pulseaudio(1): -D daemonizes, -n loads no default script, --load loads a module), on a private
// XDG_RUNTIME_DIR, so that tests run where there is no sound card and no desktop session, as root
// too (pulseaudio warns then, and runs). A test that needs the server and cannot start it fails.
package soundtest
