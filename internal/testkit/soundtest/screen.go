package soundtest

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Screen is a connection to the X server of $DISPLAY that reads pixels of its root window back
// (the X11 core protocol's GetImage, spoken here directly so that a sample costs one round trip):
// what the server shows, with the time each reading came back on this process's monotonic clock,
// the clock Recording's sample times use too. It speaks just enough of the protocol for that: the
// connection set-up (with the MIT-MAGIC-COOKIE-1 of $XAUTHORITY when the server wants one),
// QueryTree, GetWindowAttributes, GetGeometry and GetImage, little-endian.
type Screen struct {
	c    net.Conn
	r    *bufio.Reader
	root uint32
	seq  uint16
}

// OpenScreen connects to $DISPLAY's server (a local one: ":N").
func OpenScreen() (*Screen, error) {
	d := os.Getenv("DISPLAY")
	num, _, _ := strings.Cut(strings.TrimPrefix(d, ":"), ".")
	if !strings.HasPrefix(d, ":") || num == "" {
		return nil, fmt.Errorf("soundtest: DISPLAY %q is not a local display", d)
	}
	c, err := net.Dial("unix", "/tmp/.X11-unix/X"+num)
	if err != nil {
		return nil, fmt.Errorf("soundtest: connect to the X server: %w", err)
	}
	s := &Screen{c: c, r: bufio.NewReader(c)}
	if err := s.setup(num); err != nil {
		c.Close()
		return nil, err
	}
	return s, nil
}

// Close ends the connection.
func (s *Screen) Close() error { return s.c.Close() }

func pad4(n int) int { return (n + 3) &^ 3 }

// cookie finds the MIT-MAGIC-COOKIE-1 for display num in $XAUTHORITY (or ~/.Xauthority): the
// Xauthority file is a list of (family, address, number, name, data), each a 16-bit big-endian
// length and bytes.
func cookie(num string) (name string, data []byte) {
	path := os.Getenv("XAUTHORITY")
	if path == "" {
		home, _ := os.UserHomeDir()
		path = filepath.Join(home, ".Xauthority")
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return "", nil
	}
	field := func() []byte {
		if len(b) < 2 {
			b = nil
			return nil
		}
		n := int(binary.BigEndian.Uint16(b))
		if len(b) < 2+n {
			b = nil
			return nil
		}
		f := b[2 : 2+n]
		b = b[2+n:]
		return f
	}
	for len(b) >= 2 {
		b = b[2:] // family
		field()   // address
		n, nm, d := string(field()), string(field()), field()
		if (n == num || n == "") && nm == "MIT-MAGIC-COOKIE-1" {
			return nm, d
		}
	}
	return "", nil
}

func (s *Screen) setup(num string) error {
	name, data := cookie(num)
	req := make([]byte, 12+pad4(len(name))+pad4(len(data)))
	req[0] = 'l'
	binary.LittleEndian.PutUint16(req[2:], 11)
	binary.LittleEndian.PutUint16(req[6:], uint16(len(name)))
	binary.LittleEndian.PutUint16(req[8:], uint16(len(data)))
	copy(req[12:], name)
	copy(req[12+pad4(len(name)):], data)
	if _, err := s.c.Write(req); err != nil {
		return fmt.Errorf("soundtest: X set-up: %w", err)
	}
	head := make([]byte, 8)
	if _, err := io.ReadFull(s.r, head); err != nil {
		return fmt.Errorf("soundtest: X set-up: %w", err)
	}
	body := make([]byte, 4*int(binary.LittleEndian.Uint16(head[6:])))
	if _, err := io.ReadFull(s.r, body); err != nil {
		return fmt.Errorf("soundtest: X set-up: %w", err)
	}
	if head[0] != 1 {
		return fmt.Errorf("soundtest: the X server refused the connection: %s", strings.TrimRight(string(body), "\x00"))
	}
	// After the fixed 32 bytes: the vendor string (padded), the pixmap formats (8 bytes each), then
	// the first screen, whose first field is its root window.
	vendor, formats := int(binary.LittleEndian.Uint16(body[16:])), int(body[21])
	off := 32 + pad4(vendor) + 8*formats
	if len(body) < off+4 {
		return errors.New("soundtest: X set-up: short reply")
	}
	s.root = binary.LittleEndian.Uint32(body[off:])
	return nil
}

// call sends a request (opcode, the byte after it, the rest) and reads its reply: the 32 bytes and
// what follows.
func (s *Screen) call(op, data byte, rest []byte) ([]byte, error) {
	req := make([]byte, 4+len(rest))
	req[0], req[1] = op, data
	binary.LittleEndian.PutUint16(req[2:], uint16(len(req)/4))
	copy(req[4:], rest)
	s.seq++
	if _, err := s.c.Write(req); err != nil {
		return nil, err
	}
	for {
		head := make([]byte, 32)
		if _, err := io.ReadFull(s.r, head); err != nil {
			return nil, err
		}
		switch head[0] {
		case 0:
			return nil, fmt.Errorf("soundtest: X error %d on request %d", head[1], op)
		case 1:
			more := make([]byte, 4*int(binary.LittleEndian.Uint32(head[4:])))
			if _, err := io.ReadFull(s.r, more); err != nil {
				return nil, err
			}
			return append(head, more...), nil
		}
		// an event: not asked for, skipped
	}
}

func u32(v uint32) []byte { return binary.LittleEndian.AppendUint32(nil, v) }

// Window is a top-level window's place on the screen.
type Window struct{ X, Y, W, H int }

// Windows lists the mapped children of the root window, largest first.
func (s *Screen) Windows() ([]Window, error) {
	rep, err := s.call(15, 0, u32(s.root)) // QueryTree
	if err != nil {
		return nil, err
	}
	n := int(binary.LittleEndian.Uint16(rep[16:]))
	var out []Window
	for i := 0; i < n; i++ {
		id := binary.LittleEndian.Uint32(rep[32+4*i:])
		attr, err := s.call(3, 0, u32(id)) // GetWindowAttributes
		if err != nil {
			continue // gone meanwhile
		}
		if attr[26] != 2 { // map-state: Viewable
			continue
		}
		g, err := s.call(14, 0, u32(id)) // GetGeometry
		if err != nil {
			continue
		}
		w := Window{int(int16(binary.LittleEndian.Uint16(g[12:]))), int(int16(binary.LittleEndian.Uint16(g[14:]))),
			int(binary.LittleEndian.Uint16(g[16:])), int(binary.LittleEndian.Uint16(g[18:]))}
		j := len(out)
		for j > 0 && out[j-1].W*out[j-1].H < w.W*w.H {
			j--
		}
		out = append(out[:j], append([]Window{w}, out[j:]...)...)
	}
	return out, nil
}

// Pixel reads the root window's pixel at (x, y): its brightest 8-bit component (a 24- or 32-bit
// TrueColor screen, as Xvfb's), and when the server read it: the midpoint between sending the
// request and its reply's coming back (the server reads between the two; the reply's own time
// would date every reading late by the way back, up to milliseconds on a loaded machine).
func (s *Screen) Pixel(x, y int) (uint8, time.Time, error) {
	sent := time.Now()
	rest := make([]byte, 16)
	binary.LittleEndian.PutUint32(rest, s.root)
	binary.LittleEndian.PutUint16(rest[4:], uint16(x))
	binary.LittleEndian.PutUint16(rest[6:], uint16(y))
	binary.LittleEndian.PutUint16(rest[8:], 1)
	binary.LittleEndian.PutUint16(rest[10:], 1)
	binary.LittleEndian.PutUint32(rest[12:], 0xffffffff)
	rep, err := s.call(73, 2, rest) // GetImage, ZPixmap
	now := sent.Add(time.Since(sent) / 2)
	if err != nil {
		return 0, now, err
	}
	if len(rep) < 35 {
		return 0, now, errors.New("soundtest: GetImage: short reply")
	}
	return max(rep[32], rep[33], rep[34]), now, nil
}

// Flashes watches the centre of the largest window on the screen (a reading about every
// millisecond) until stop is closed and returns
// the times it turned bright (above 128 after being below): each the midpoint between the last dark
// reading and the first bright one (Pixel's times), and the largest gap between two readings while
// a window was there (the times' uncertainty). The window is looked for again every 50 ms: a player's window
// may open at one size and take the picture's at its first frame.
func (s *Screen) Flashes(stop <-chan struct{}) (on []time.Time, gap time.Duration, err error) {
	var last, looked time.Time
	var x, y int
	found, dark := false, false
	for {
		select {
		case <-stop:
			return on, gap, nil
		default:
		}
		if time.Since(looked) > 50*time.Millisecond {
			ws, err := s.Windows()
			if err != nil {
				return on, gap, err
			}
			looked = time.Now()
			if found = len(ws) > 0 && ws[0].W >= 16 && ws[0].H >= 16; found {
				x, y = ws[0].X+ws[0].W/2, ws[0].Y+ws[0].H/2
			} else {
				last, dark = time.Time{}, false
				time.Sleep(2 * time.Millisecond)
				continue
			}
		}
		if !found {
			continue
		}
		v, at, err := s.Pixel(x, y)
		if err != nil {
			return on, gap, err
		}
		if !last.IsZero() {
			gap = max(gap, at.Sub(last))
		}
		if v > 128 && dark {
			on = append(on, last.Add(at.Sub(last)/2))
		}
		dark = v <= 128
		last = at
		// A reading a millisecond: the times stay within about that, and the loop leaves the
		// cores to the player it watches.
		time.Sleep(time.Millisecond)
	}
}
