package ipc

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// fakePlayer answers requests on its own goroutine as a player does between frames: a few
// properties, a "seek" command that sends the seek event, and a tick count that shows it is not
// held up by its clients.
type fakePlayer struct {
	s     *Server
	mu    sync.Mutex
	props map[string]any
	ticks int
	stop  chan struct{}
	done  chan struct{}
}

func newFake(t *testing.T) *fakePlayer {
	t.Helper()
	path := filepath.Join(t.TempDir(), "sock")
	s, err := Listen(path, func(line string) { t.Log(line) })
	if err != nil {
		t.Fatal(err)
	}
	p := &fakePlayer{s: s, props: map[string]any{"pause": false, "volume": 100.0, "path": "a.mkv"},
		stop: make(chan struct{}), done: make(chan struct{})}
	go p.run()
	t.Cleanup(func() {
		close(p.stop)
		<-p.done
		s.Close()
	})
	return p
}

func (p *fakePlayer) get(name string) (any, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if name == "chapter" {
		return nil, ErrPropertyUnavailable
	}
	v, ok := p.props[name]
	if !ok {
		return nil, ErrPropertyNotFound
	}
	return v, nil
}

func (p *fakePlayer) run() {
	defer close(p.done)
	for {
		select {
		case <-p.stop:
			return
		case <-time.After(time.Millisecond):
		}
		p.mu.Lock()
		p.ticks++
		p.mu.Unlock()
		// At most 16 requests a "frame", as the player takes them.
		for i := 0; i < 16; i++ {
			select {
			case r := <-p.s.Requests():
				p.serve(r)
				continue
			default:
			}
			break
		}
		p.s.Update(p.get)
	}
}

func (p *fakePlayer) serve(r *Request) {
	switch r.Name {
	case "get_property":
		r.Reply(p.get(r.Args[0].(string)))
	case "set_property":
		name := r.Args[0].(string)
		p.mu.Lock()
		defer p.mu.Unlock()
		switch name {
		case "pause":
			v, err := Flag(r.Args[1])
			if err == nil {
				p.props[name] = v
			}
			r.Reply(nil, err)
		case "volume":
			v, err := Number(r.Args[1])
			if err == nil {
				p.props[name] = v
			}
			r.Reply(nil, err)
		default:
			r.Reply(nil, ErrPropertyNotFound)
		}
	case "seek":
		p.s.Event("seek", nil)
		p.s.Event("playback-restart", nil)
		r.Reply(nil, nil)
	case "cycle":
		p.mu.Lock()
		p.props["pause"] = !p.props["pause"].(bool)
		p.mu.Unlock()
		r.Reply(nil, nil)
	default:
		r.Reply(nil, ErrInvalidParameter)
	}
}

func (p *fakePlayer) tickCount() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.ticks
}

type testConn struct {
	t    *testing.T
	conn net.Conn
	r    *bufio.Reader
}

func dial(t *testing.T, s *Server) *testConn {
	t.Helper()
	conn, err := net.Dial("unix", s.Path())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return &testConn{t, conn, bufio.NewReader(conn)}
}

func (c *testConn) send(line string) {
	c.t.Helper()
	if _, err := c.conn.Write([]byte(line + "\n")); err != nil {
		c.t.Fatal(err)
	}
}

// next reads the next message.
func (c *testConn) next() map[string]any {
	c.t.Helper()
	c.conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	line, err := c.r.ReadString('\n')
	if err != nil {
		c.t.Fatalf("reading: %v", err)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(line), &m); err != nil {
		c.t.Fatalf("%q: %v", line, err)
	}
	return m
}

func (c *testConn) expect(line string, want map[string]any) {
	c.t.Helper()
	c.send(line)
	if got := c.next(); !reflect.DeepEqual(got, want) {
		c.t.Errorf("%s:\n got %v\nwant %v", line, got, want)
	}
}

// TestRequests: mpv's replies (ipc.rst, and json_execute_command in mpv's input/ipc.c): request_id
// copied back as it came, "error":"success" with "data" for reads and without for writes, mpv's
// error strings for unknown and unavailable properties, bad values and malformed requests (which
// leave the connection working), the _string variants, and text commands run without a reply.
func TestRequests(t *testing.T) {
	p := newFake(t)
	c := dial(t, p.s)
	c.expect(`{"command":["get_property","volume"],"request_id":7}`, map[string]any{"data": 100.0, "request_id": 7.0, "error": "success"})
	c.expect(`{"command":["get_property","pause"]}`, map[string]any{"data": false, "error": "success"})
	c.expect(`{"command":["set_property","pause",true],"request_id":"x"}`, map[string]any{"request_id": "x", "error": "success"})
	c.expect(`{"command":["get_property_string","pause"]}`, map[string]any{"data": "yes", "error": "success"})
	c.expect(`{"command":["set_property_string","volume","52"]}`, map[string]any{"error": "success"})
	c.expect(`{"command":["get_property_string","volume"]}`, map[string]any{"data": "52.000000", "error": "success"})
	c.expect(`{"command":["get_property","nothing"],"request_id":1}`, map[string]any{"request_id": 1.0, "error": "property not found"})
	c.expect(`{"command":["get_property","chapter"],"request_id":2}`, map[string]any{"request_id": 2.0, "error": "property unavailable"})
	c.expect(`{"command":["set_property","volume","loud"],"request_id":3}`, map[string]any{"request_id": 3.0, "error": "unsupported format for accessing property"})
	for _, bad := range []string{
		`{"command":["get_property"`, // malformed JSON
		`["get_property","volume"]`,  // not an object: read as a text command, no reply; the next line shows that
		`{"command":[]}`,
		`{"command":"get_property volume"}`,
		`{"command":[5]}`,
		`{"command":["get_property",5]}`,
		`{"command":["observe_property","x","volume"]}`,
		`{"command":["observe_property",1.5,"volume"]}`,
		`{"command":["frobnicate"]}`,
	} {
		if bad[0] == '[' {
			c.send(bad)
			continue
		}
		c.expect(bad, map[string]any{"error": "invalid parameter"})
	}
	c.expect(`{"command":["client_name"]}`, map[string]any{"data": "ipc-1", "error": "success"})
	c.send("# a comment")
	c.send("")
	c.send(`cycle pause  # a text command: no reply`)
	c.expect(`{"command":["get_property","pause"]}`, map[string]any{"data": false, "error": "success"})
	long := `{"command":["get_property","` + strings.Repeat("x", maxLine) + `"]}`
	c.expect(long, map[string]any{"error": "invalid parameter"})
	c.expect(`{"command":["get_property","path"]}`, map[string]any{"data": "a.mkv", "error": "success"})
}

// TestObserve: observe_property sends the current value at once with the observer's id, then an
// event on each change and none while the value stays; _string observers get mpv's strings; an
// unavailable property's event has no data; unobserve stops them.
func TestObserve(t *testing.T) {
	p := newFake(t)
	c := dial(t, p.s)
	c.expect(`{"command":["observe_property",1,"volume"],"request_id":1}`, map[string]any{"request_id": 1.0, "error": "success"})
	want := func(w map[string]any) {
		t.Helper()
		if got := c.next(); !reflect.DeepEqual(got, w) {
			t.Errorf("got %v, want %v", got, w)
		}
	}
	want(map[string]any{"event": "property-change", "id": 1.0, "name": "volume", "data": 100.0})
	c.send(`{"command":["observe_property_string",2,"pause"]}`)
	want(map[string]any{"error": "success"})
	want(map[string]any{"event": "property-change", "id": 2.0, "name": "pause", "data": "no"})
	c.send(`{"command":["set_property","volume",40]}`)
	want(map[string]any{"error": "success"})
	want(map[string]any{"event": "property-change", "id": 1.0, "name": "volume", "data": 40.0})
	c.send(`{"command":["observe_property",3,"chapter"]}`)
	want(map[string]any{"error": "success"})
	want(map[string]any{"event": "property-change", "id": 3.0, "name": "chapter"})
	c.send(`{"command":["unobserve_property",1]}`)
	want(map[string]any{"error": "success"})
	c.send(`{"command":["set_property","volume",30]}`)
	want(map[string]any{"error": "success"})
	c.send(`{"command":["get_property","volume"]}`) // no event for volume came before this reply
	want(map[string]any{"data": 30.0, "error": "success"})
}

// TestEventsInOrder: events reach every client in the order the player sent them, after the
// reply to the request that caused them was queued (a seek's reply may come after its events, as
// in mpv); disable_event stops one kind for one client.
func TestEventsInOrder(t *testing.T) {
	p := newFake(t)
	a, b := dial(t, p.s), dial(t, p.s)
	b.expect(`{"command":["disable_event","seek"]}`, map[string]any{"error": "success"})
	a.send(`{"command":["seek",5],"request_id":9}`)
	var got []string
	for len(got) < 3 {
		m := a.next()
		if e, ok := m["event"]; ok {
			got = append(got, e.(string))
		} else {
			got = append(got, fmt.Sprint("reply ", m["request_id"], " ", m["error"]))
		}
	}
	if want := []string{"seek", "playback-restart", "reply 9 success"}; !reflect.DeepEqual(got, want) {
		t.Errorf("client a: %v, want %v", got, want)
	}
	if m := b.next(); m["event"] != "playback-restart" {
		t.Errorf("client b (seek disabled): %v, want playback-restart", m)
	}
}

// TestVanishedClient: a client that disconnects, mid-request or with observers, leaves no
// goroutine behind, and the server goes on serving others.
func TestVanishedClient(t *testing.T) {
	p := newFake(t)
	settle := func(want int) int {
		var n int
		for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
			if n = runtime.NumGoroutine(); n <= want && p.s.Clients() == 0 {
				break
			}
		}
		return n
	}
	base := runtime.NumGoroutine()
	for i := 0; i < 20; i++ {
		conn, err := net.Dial("unix", p.s.Path())
		if err != nil {
			t.Fatal(err)
		}
		conn.Write([]byte(`{"command":["observe_property",1,"volume"]}` + "\n" + `{"command":["get_property","volume"]}` + "\n"))
		conn.Close()
	}
	if n := settle(base); n > base || p.s.Clients() != 0 {
		t.Errorf("%d goroutines after 20 clients came and went (%d before), %d clients", n, base, p.s.Clients())
	}
	c := dial(t, p.s)
	c.expect(`{"command":["get_property","path"]}`, map[string]any{"data": "a.mkv", "error": "success"})
}

// TestFloodingClient: a client that writes requests as fast as it can and never reads the replies
// does not hold the player up (its ticks go on), is dropped once its replies pile up, and another
// client is served meanwhile.
func TestFloodingClient(t *testing.T) {
	p := newFake(t)
	conn, err := net.Dial("unix", p.s.Path())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	flood := make(chan error, 1)
	go func() {
		line := []byte(strings.Repeat(`{"command":["get_property","volume"]}`+"\n", 256))
		for {
			conn.SetWriteDeadline(time.Now().Add(10 * time.Second))
			if _, err := conn.Write(line); err != nil {
				flood <- err
				return
			}
		}
	}()
	ticks := p.tickCount()
	other := dial(t, p.s)
	for i := 0; i < 20; i++ {
		other.expect(`{"command":["get_property","path"]}`, map[string]any{"data": "a.mkv", "error": "success"})
	}
	select {
	case err := <-flood:
		t.Logf("the flooding client was cut off: %v", err)
	case <-time.After(20 * time.Second):
		t.Error("the flooding client was never disconnected")
	}
	if p.tickCount()-ticks < 20 {
		t.Errorf("the player ran %d ticks meanwhile", p.tickCount()-ticks)
	}
	other.expect(`{"command":["get_property","path"]}`, map[string]any{"data": "a.mkv", "error": "success"})
}

// TestCloseRemovesSocket: Close ends the clients' connections and removes the socket; Listen
// replaces a stale socket and refuses to remove a file that is not one.
func TestCloseRemovesSocket(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "sock")
	s, err := Listen(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	c := dial(t, s)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	c.conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	if _, err := c.r.ReadString('\n'); err == nil {
		t.Error("the connection is still open after Close")
	}
	if _, err := os.Lstat(path); !os.IsNotExist(err) {
		t.Errorf("the socket is still there: %v", err)
	}
	// A stale socket (a listener that was never closed, as after a crash) is replaced.
	l, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	l.(*net.UnixListener).SetUnlinkOnClose(false)
	l.Close()
	if s, err = Listen(path, nil); err != nil {
		t.Fatalf("over a stale socket: %v", err)
	}
	s.Close()
	file := filepath.Join(dir, "file")
	os.WriteFile(file, []byte("x"), 0o644)
	if _, err := Listen(file, nil); err == nil || !strings.Contains(err.Error(), "not a socket") {
		t.Errorf("over a plain file: %v", err)
	}
}

func TestSplitCommand(t *testing.T) {
	for in, want := range map[string][]string{
		`seek 5 absolute`:              {"seek", "5", "absolute"},
		`  set  pause yes # comment`:   {"set", "pause", "yes"},
		`loadfile "a b.mkv" append`:    {"loadfile", "a b.mkv", "append"},
		`show-text "say \"hi\" \\ ok"`: {"show-text", `say "hi" \ ok`},
		`x ""`:                         {"x", ""},
	} {
		if got, err := splitCommand(in); err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("%q: %q, %v; want %q", in, got, err, want)
		}
	}
	if _, err := splitCommand(`a "b`); err == nil {
		t.Error("an unclosed quote: no error")
	}
}
