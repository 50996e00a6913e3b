package subtitle

import "strconv"

// Track is one subtitle track: the fields of mpv's track-list entries of type "sub", with their
// names in JSON.
type Track struct {
	ID       int    `json:"id"`                          // 1-based, in the order found (embedded first): mpv's sid
	Title    string `json:"title,omitempty"`             // the stream's title tag
	Lang     string `json:"lang,omitempty"`              // the stream's language tag
	Codec    string `json:"codec"`                       // FFmpeg's codec name: subrip, ass, webvtt, mov_text, hdmv_pgs_subtitle, dvd_subtitle...
	Image    bool   `json:"image"`                       // a bitmap format (PGS, DVB, DVD), not drawn by libass
	Default  bool   `json:"default"`                     // the container's default disposition
	Forced   bool   `json:"forced"`                      // the container's forced disposition
	External bool   `json:"external"`                    // from a file of its own (-sub-file, or beside the input)
	Path     string `json:"external-filename,omitempty"` // the file an external track comes from
}

// Label is the track as a line of a list: "2: English (subrip, external)".
func (t Track) Label() string {
	s := t.Codec
	if t.External {
		s += ", external"
	}
	if t.Default {
		s += ", default"
	}
	if t.Forced {
		s += ", forced"
	}
	name := t.Title
	if t.Lang != "" {
		if name != "" {
			name += " "
		}
		name += "[" + t.Lang + "]"
	}
	if name == "" && t.External {
		name = t.Path
	}
	if name != "" {
		name += " "
	}
	return strconv.Itoa(t.ID) + ": " + name + "(" + s + ")"
}

// AutoSelect is the track mpv shows when no -sid is given (0: none): an external file first (mpv
// prefers them), then the first track marked forced or default.
func AutoSelect(tracks []Track) int {
	for _, t := range tracks {
		if t.External {
			return t.ID
		}
	}
	for _, t := range tracks {
		if t.Forced || t.Default {
			return t.ID
		}
	}
	return 0
}

// Next is the id after cur in the cycle 0 (none), 1, ..., len(tracks), 0... (mpv's j); step −1 goes
// back (J).
func Next(cur, n, step int) int {
	return ((cur+step)%(n+1) + n + 1) % (n + 1)
}
