package ipc

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"strings"
	"sync"
	"time"
)

// Limits that keep a misbehaving client from costing the player anything.
const (
	// maxLine is the longest request line; a longer one gets "invalid parameter" and is skipped.
	maxLine = 1 << 20
	// outQueue is how many replies and events may wait for a client to read them; a client that
	// lets more pile up is dropped (mpv drops its events then: "event queue full").
	outQueue = 1024
	// writeTimeout bounds one write to a client whose socket buffer is full.
	writeTimeout = 5 * time.Second
	// queuedRequests is how many requests may wait for the player (each client has at most one
	// waiting: its next line is read once the last is answered).
	queuedRequests = 256
)

// Request is one request for the player: a command ("seek", "cycle", ...) or a property access
// ("get_property" with Args [NAME], "set_property" with [NAME, VALUE]). Args are as JSON decodes
// them: string, float64, int64 (a number written without fraction or exponent, as mpv's parser
// reads it), bool, nil, []any, map[string]any; from a text command, strings. Reply exactly once.
type Request struct {
	Name   string
	Args   []any
	Client string // "ipc-N"
	// answer queues the reply for the client; done is closed once it has.
	answer func(data any, err error)
	done   chan struct{}
	once   sync.Once
}

// Reply answers the request: data (nil: none) or err, whose text is mpv's for an Error wrapped in
// it ("property unavailable"), else "error running command". The reply is queued for the client
// before Reply returns, so that it comes before any event sent after it (a property-change an
// Update then finds). Never blocks; later calls do nothing.
func (r *Request) Reply(data any, err error) {
	r.once.Do(func() {
		r.answer(data, err)
		close(r.done)
	})
}

// Server serves mpv's JSON IPC on a Unix socket.
type Server struct {
	path     string
	ln       net.Listener
	requests chan *Request
	log      func(string)
	start    time.Time

	mu      sync.Mutex
	clients map[*client]struct{}
	next    int
	closed  bool

	done chan struct{} // closed by Close
	wg   sync.WaitGroup
}

// Listen makes the socket at path (a stale socket left there is replaced, as mpv does) and serves
// clients until Close. log, if set, gets one line per client that is dropped or sends a malformed
// request.
func Listen(path string, log func(string)) (*Server, error) {
	if path == "" {
		return nil, errors.New("ipc: empty socket path")
	}
	if fi, err := os.Lstat(path); err == nil {
		if fi.Mode()&os.ModeSocket == 0 {
			return nil, fmt.Errorf("ipc: %s exists and is not a socket", path)
		}
		os.Remove(path)
	}
	ln, err := net.Listen("unix", path)
	if err != nil {
		return nil, fmt.Errorf("ipc: %w", err)
	}
	ln.(*net.UnixListener).SetUnlinkOnClose(true)
	s := &Server{path: path, ln: ln, requests: make(chan *Request, queuedRequests), log: log, start: time.Now(),
		clients: map[*client]struct{}{}, done: make(chan struct{})}
	s.wg.Add(1)
	go s.accept()
	return s, nil
}

// Path is the socket's path.
func (s *Server) Path() string { return s.path }

// Requests is where requests wait for the player.
func (s *Server) Requests() <-chan *Request { return s.requests }

// Clients is how many clients are connected.
func (s *Server) Clients() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.clients)
}

func (s *Server) logf(format string, args ...any) {
	if s.log != nil {
		s.log(fmt.Sprintf(format, args...))
	}
}

// Close stops listening, disconnects every client once what was queued for it is written (the
// last end-file event; a client that does not read gets writeTimeout), removes the socket and
// waits for the server's goroutines to end. Requests still waiting are dropped.
func (s *Server) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	close(s.done)
	err := s.ln.Close()
	for c := range s.clients {
		close(c.flush)
	}
	s.mu.Unlock()
	s.wg.Wait()
	return err
}

func (s *Server) accept() {
	defer s.wg.Done()
	for {
		conn, err := s.ln.Accept()
		if err != nil {
			return // closed
		}
		s.mu.Lock()
		if s.closed {
			s.mu.Unlock()
			conn.Close()
			return
		}
		s.next++
		c := &client{s: s, name: fmt.Sprintf("ipc-%d", s.next), conn: conn, out: make(chan []byte, outQueue),
			gone: make(chan struct{}), flush: make(chan struct{}), observed: map[int64]*observation{}, disabled: map[string]bool{}}
		s.clients[c] = struct{}{}
		s.wg.Add(2)
		s.mu.Unlock()
		go c.read()
		go c.write()
	}
}

// Event sends {"event": name, fields...} to every client that has not disabled it.
func (s *Server) Event(name string, fields map[string]any) {
	m := map[string]any{"event": name}
	for k, v := range fields {
		m[k] = v
	}
	b, err := marshal(m)
	if err != nil {
		s.logf("ipc: event %s: %v", name, err)
		return
	}
	for _, c := range s.snapshot() {
		if c.enabled(name) {
			c.send(b)
		}
	}
}

func (s *Server) snapshot() []*client {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]*client, 0, len(s.clients))
	for c := range s.clients {
		out = append(out, c)
	}
	return out
}

// Update reads each observed property once through get (on the caller's goroutine: the player's)
// and sends a property-change event to each observer whose value differs from what it was last
// sent, and to new observers; an unavailable property's event has no "data", as mpv's.
func (s *Server) Update(get func(name string) (any, error)) {
	clients := s.snapshot()
	type value struct {
		v   any
		err error
	}
	values := map[string]value{}
	for _, c := range clients {
		for _, name := range c.observedNames() {
			if _, ok := values[name]; !ok {
				v, err := get(name)
				values[name] = value{v, err}
			}
		}
	}
	for _, c := range clients {
		c.mu.Lock()
		var msgs [][]byte
		for id, o := range c.observed {
			val := values[o.name]
			ev := map[string]any{"event": "property-change", "id": id, "name": o.name}
			if val.err == nil {
				v := val.v
				if o.str {
					v, _ = formatString(v)
				}
				ev["data"] = v
			}
			b, err := marshal(ev)
			if err != nil || o.sent && bytes.Equal(b, o.last) {
				continue
			}
			o.last, o.sent = b, true
			if c.enabledLocked("property-change") {
				msgs = append(msgs, b)
			}
		}
		c.mu.Unlock()
		for _, b := range msgs {
			c.send(b)
		}
	}
}

// client is one connection: a goroutine reads its requests one line at a time and waits for each
// answer, another writes its replies and events from a bounded queue.
type client struct {
	s    *Server
	name string
	conn net.Conn
	out  chan []byte
	gone chan struct{}
	once sync.Once
	// flush, closed by Server.Close: the writer writes what is queued, then disconnects.
	flush chan struct{}

	mu       sync.Mutex
	observed map[int64]*observation
	disabled map[string]bool // events disabled by disable_event ("all" too)
}

type observation struct {
	name string
	str  bool   // observe_property_string
	last []byte // the last event sent
	sent bool
}

func (c *client) close() {
	c.once.Do(func() {
		close(c.gone)
		c.conn.Close()
	})
}

func (c *client) observedNames() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var names []string
	for _, o := range c.observed {
		names = append(names, o.name)
	}
	return names
}

func (c *client) enabled(event string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.enabledLocked(event)
}

func (c *client) enabledLocked(event string) bool {
	if v, ok := c.disabled[event]; ok {
		return !v
	}
	return !c.disabled["all"]
}

// send queues b for the client without ever blocking: a client whose queue is full is dropped.
func (c *client) send(b []byte) {
	select {
	case <-c.gone:
		return
	default:
	}
	select {
	case c.out <- b:
	default:
		c.s.logf("ipc: %s does not read what it is sent (%d messages waiting): disconnected", c.name, outQueue)
		c.close()
	}
}

func (c *client) write() {
	defer c.s.wg.Done()
	w := bufio.NewWriter(c.conn)
	line := func(b []byte) {
		w.Write(b)
		w.WriteByte('\n')
	}
	// waiting writes every message already queued, so that they go out together.
	waiting := func() {
		for {
			select {
			case b := <-c.out:
				line(b)
			default:
				return
			}
		}
	}
	for {
		select {
		case b := <-c.out:
			c.conn.SetWriteDeadline(time.Now().Add(writeTimeout))
			line(b)
			waiting()
			if err := w.Flush(); err != nil {
				c.close()
				return
			}
		case <-c.flush:
			c.conn.SetWriteDeadline(time.Now().Add(writeTimeout))
			waiting()
			w.Flush()
			c.close()
			return
		case <-c.gone:
			return
		}
	}
}

func (c *client) read() {
	defer c.s.wg.Done()
	defer func() {
		c.close()
		c.s.mu.Lock()
		delete(c.s.clients, c)
		c.s.mu.Unlock()
	}()
	r := bufio.NewReaderSize(c.conn, 64<<10)
	for {
		line, tooLong, err := readLine(r)
		if err != nil {
			return // gone (an incomplete last line is dropped, as mpv does)
		}
		if tooLong {
			c.s.logf("ipc: %s: a request over %d bytes", c.name, maxLine)
			c.reply(nil, false, nil, ErrInvalidParameter)
			continue
		}
		if !c.handle(line) {
			return
		}
	}
}

// readLine reads one line without its newline; tooLong: it had more than maxLine bytes (skipped).
func readLine(r *bufio.Reader) (line []byte, tooLong bool, err error) {
	for {
		chunk, err := r.ReadSlice('\n')
		if !tooLong && len(line)+len(chunk) <= maxLine+1 {
			line = append(line, chunk...)
		} else {
			tooLong, line = true, nil
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if err != nil {
			return nil, false, err
		}
		return bytes.TrimRight(line, "\r\n"), tooLong, nil
	}
}

// reply queues the answer to a request: data when hasData, request_id when the request had one.
func (c *client) reply(id json.RawMessage, hasData bool, data any, err error) {
	b, merr := marshalReply(id, hasData, data, err)
	if merr != nil {
		b, _ = marshalReply(id, false, nil, ErrPropertyError)
	}
	c.send(b)
}

// ask hands a request to the player, whose Reply calls answer; false when the client or the
// server went away before the answer.
func (c *client) ask(name string, args []any, answer func(data any, err error)) bool {
	r := &Request{Name: name, Args: args, Client: c.name, answer: answer, done: make(chan struct{})}
	select {
	case c.s.requests <- r:
	case <-c.gone:
		return false
	case <-c.s.done:
		return false
	}
	select {
	case <-r.done:
		return true
	case <-c.gone:
		return false
	case <-c.s.done:
		return false
	}
}

// handle runs one line; false when the client is gone.
func (c *client) handle(line []byte) bool {
	text := strings.TrimLeft(string(line), " \t")
	if text == "" || text[0] == '#' {
		return true
	}
	if text[0] != '{' {
		return c.handleText(text)
	}
	var msg map[string]json.RawMessage
	if err := json.Unmarshal([]byte(text), &msg); err != nil {
		c.s.logf("ipc: %s: malformed JSON received: %q", c.name, text)
		c.reply(nil, false, nil, ErrInvalidParameter)
		return true
	}
	id := msg["request_id"]
	var cmd []any
	if raw, ok := msg["command"]; !ok || decodeArgs(raw, &cmd) != nil || len(cmd) == 0 {
		c.reply(id, false, nil, ErrInvalidParameter)
		return true
	}
	name, ok := cmd[0].(string)
	if !ok {
		c.reply(id, false, nil, ErrInvalidParameter)
		return true
	}
	return c.command(id, name, cmd[1:])
}

// handleText runs an input.conf-style command, with no reply (mpv's text_execute_command).
func (c *client) handleText(text string) bool {
	args, err := splitCommand(text)
	if err != nil || len(args) == 0 {
		c.s.logf("ipc: %s: bad text command %q: %v", c.name, text, err)
		return true
	}
	name, rest := args[0], make([]any, len(args)-1)
	for i, a := range args[1:] {
		rest[i] = a
	}
	return c.ask(name, rest, func(_ any, err error) {
		if err != nil {
			c.s.logf("ipc: %s: %s: %v", c.name, text, err)
		}
	})
}

// shaped checks the argument count and each argument's type, as mpv's json_execute_command does.
func shaped(args []any, kinds ...string) bool {
	if len(args) != len(kinds) {
		return false
	}
	for i, k := range kinds {
		switch k {
		case "string":
			if _, ok := args[i].(string); !ok {
				return false
			}
		case "int":
			if _, ok := args[i].(int64); !ok {
				return false
			}
		}
	}
	return true
}

// command runs a JSON command: the ones about the connection itself here, the rest by the player
// (ask). It returns false when the client is to be dropped.
func (c *client) command(id json.RawMessage, name string, args []any) bool {
	shape := func(kinds ...string) bool { return shaped(args, kinds...) }
	switch name {
	case "client_name":
		c.reply(id, true, c.name, nil)
	case "get_time_us":
		c.reply(id, true, time.Since(c.s.start).Microseconds(), nil)
	case "get_version":
		// libmpv's MPV_CLIENT_API_VERSION of the protocol followed here (2.1: mpv 0.35's).
		c.reply(id, true, int64(2<<16|1), nil)
	case "get_property", "get_property_string":
		if !shape("string") {
			c.reply(id, false, nil, ErrInvalidParameter)
			break
		}
		return c.ask("get_property", args, func(data any, err error) {
			if err != nil {
				c.reply(id, false, nil, err)
				return
			}
			if name == "get_property_string" {
				data, _ = formatString(data)
			}
			c.reply(id, true, data, nil)
		})
	case "set_property", "set_property_string":
		if !shape("string", "any") || name == "set_property_string" && !shape("string", "string") {
			c.reply(id, false, nil, ErrInvalidParameter)
			break
		}
		return c.ask("set_property", args, func(_ any, err error) { c.reply(id, false, nil, err) })
	case "observe_property", "observe_property_string":
		if !shape("int", "string") {
			c.reply(id, false, nil, ErrInvalidParameter)
			break
		}
		c.mu.Lock()
		c.observed[args[0].(int64)] = &observation{name: args[1].(string), str: name == "observe_property_string"}
		c.mu.Unlock()
		c.reply(id, false, nil, nil)
	case "unobserve_property":
		if !shape("int") {
			c.reply(id, false, nil, ErrInvalidParameter)
			break
		}
		c.mu.Lock()
		delete(c.observed, args[0].(int64))
		c.mu.Unlock()
		c.reply(id, false, nil, nil)
	case "enable_event", "disable_event":
		ev, _ := args[0].(string)
		if !shape("string") || ev != "all" && !knownEvent(ev) {
			c.reply(id, false, nil, ErrInvalidParameter)
			break
		}
		c.mu.Lock()
		if ev == "all" {
			clear(c.disabled)
		}
		c.disabled[ev] = name == "disable_event"
		c.mu.Unlock()
		c.reply(id, false, nil, nil)
	default:
		return c.ask(name, args, func(data any, err error) { c.reply(id, err == nil, data, err) })
	}
	return true
}

// Events are the events the player sends (mpv's names, libmpv/client.h mpv_event_id).
var Events = []string{"start-file", "end-file", "file-loaded", "seek", "playback-restart", "shutdown", "idle",
	"property-change", "video-reconfig", "audio-reconfig"}

func knownEvent(name string) bool {
	for _, e := range Events {
		if e == name {
			return true
		}
	}
	return false
}

// decodeArgs decodes a JSON array, numbers written as integers becoming int64 (mpv's JSON parser
// makes them MPV_FORMAT_INT64, which observe_property's id must be) and others float64.
func decodeArgs(raw json.RawMessage, out *[]any) error {
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return err
	}
	arr, ok := v.([]any)
	if !ok {
		return errors.New("not an array")
	}
	*out = numbers(arr).([]any)
	return nil
}

func numbers(v any) any {
	switch x := v.(type) {
	case json.Number:
		if !strings.ContainsAny(string(x), ".eE") {
			if i, err := x.Int64(); err == nil {
				return i
			}
		}
		f, _ := x.Float64()
		return f
	case []any:
		for i := range x {
			x[i] = numbers(x[i])
		}
	case map[string]any:
		for k := range x {
			x[k] = numbers(x[k])
		}
	}
	return v
}

// marshal writes v as one line of JSON (no HTML escaping: paths stay readable).
func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}

// marshalReply writes a reply in mpv's field order: data, request_id, error.
func marshalReply(id json.RawMessage, hasData bool, data any, err error) ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	if hasData {
		d, err := marshal(data)
		if err != nil {
			return nil, err
		}
		b.WriteString(`"data":`)
		b.Write(d)
		b.WriteByte(',')
	}
	if len(id) > 0 {
		var compact bytes.Buffer
		if err := json.Compact(&compact, id); err != nil {
			return nil, err
		}
		b.WriteString(`"request_id":`)
		b.Write(compact.Bytes())
		b.WriteByte(',')
	}
	e, _ := marshal(errorString(err))
	b.WriteString(`"error":`)
	b.Write(e)
	b.WriteByte('}')
	return b.Bytes(), nil
}

// splitCommand splits an input.conf-style command line into words: blanks separate, double quotes
// group (with \" and \\ escapes), a # outside quotes starts a comment (mpv's input.rst, "input.conf
// syntax").
func splitCommand(s string) ([]string, error) {
	var words []string
	var cur strings.Builder
	in, quoted := false, false
	for i := 0; i < len(s); i++ {
		ch := s[i]
		switch {
		case quoted && ch == '\\' && i+1 < len(s):
			i++
			cur.WriteByte(s[i])
		case quoted && ch == '"':
			quoted = false
		case quoted:
			cur.WriteByte(ch)
		case ch == '"':
			quoted, in = true, true
		case ch == '#':
			i = len(s)
		case ch == ' ' || ch == '\t':
			if in {
				words = append(words, cur.String())
				cur.Reset()
				in = false
			}
		default:
			cur.WriteByte(ch)
			in = true
		}
	}
	if quoted {
		return nil, errors.New("an unclosed quote")
	}
	if in {
		words = append(words, cur.String())
	}
	return words, nil
}
