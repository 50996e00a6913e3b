// Package ipc is mpv's JSON IPC protocol on a Unix socket (mpv's manual, "JSON IPC"): one JSON
// object per line, {"command": [NAME, ARGS...], "request_id": ID}, answered in order with
// {"data": ..., "request_id": ID, "error": "success"} or one of mpv's error strings ("invalid
// parameter", "property unavailable", ...), events as {"event": NAME, ...}, and observe_property's
// property-change events carrying the observer's id. Lines not starting with { are input.conf-style
// text commands, run without a reply, as mpv does.
//
// The package owns the socket, the clients' goroutines and the protocol; it knows no player. What a
// request means is answered by the program on its own goroutine: it takes Requests from the
// server's channel between frames and replies to each, and calls Update to have observed
// properties compared and their changes sent. A client that goes away, sends garbage or floods the
// socket costs the player nothing beyond the requests it takes per frame: its replies and events
// queue per client, and a client that does not read them is dropped.
package ipc
