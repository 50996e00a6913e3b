package main

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// The config file: one option per line as mpv.conf writes them (mpv's manual, "Configuration
// Files"): "name=value" or "name" alone for a flag that takes none, the names of the command line
// without the leading dash, "#" starting a comment, values optionally in double or single quotes,
// and [NAME] sections that hold a profile, applied with -profile NAME ([default] is the top level
// again). A line profile=NAME applies that profile where it stands. The command line wins: the
// file's options are put before it, and with flags the last value given is the one that counts.

// configFile is the default config file: $XDG_CONFIG_HOME/ycbcrkit/ycbcrplay.conf, else
// ~/.config/ycbcrkit/ycbcrplay.conf (the XDG Base Directory Specification's default). "" when
// neither can be told.
func configFile() string {
	dir := os.Getenv("XDG_CONFIG_HOME")
	if dir == "" || !filepath.IsAbs(dir) { // the specification: a relative path is invalid, ignore it
		home, err := os.UserHomeDir()
		if err != nil || home == "" {
			return ""
		}
		dir = filepath.Join(home, ".config")
	}
	return filepath.Join(dir, "ycbcrkit", "ycbcrplay.conf")
}

// confLine is one option of the file.
type confLine struct {
	line        int
	name, value string
	hasValue    bool
}

// confFile is a parsed config file: the top level and the profiles, in file order.
type confFile struct {
	path     string
	top      []confLine
	profiles map[string][]confLine
}

// parseConf reads a config file's text; errors name the file and line.
func parseConf(path, text string) (*confFile, error) {
	c := &confFile{path: path, profiles: map[string][]confLine{}}
	section := "" // "": the top level
	sc := bufio.NewScanner(strings.NewReader(text))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' {
			continue
		}
		where := func(format string, args ...any) error {
			return fmt.Errorf("%s:%d: %s", path, n, fmt.Sprintf(format, args...))
		}
		if line[0] == '[' {
			end := strings.IndexByte(line, ']')
			if end < 0 {
				return nil, where("a section header needs its ]: %q", line)
			}
			if rest := strings.TrimSpace(line[end+1:]); rest != "" && rest[0] != '#' {
				return nil, where("text after the section header: %q", rest)
			}
			section = strings.TrimSpace(line[1:end])
			if section == "" {
				return nil, where("an empty section name")
			}
			if section == "default" {
				section = ""
			} else if _, ok := c.profiles[section]; !ok {
				c.profiles[section] = nil
			}
			continue
		}
		name, value, hasValue := strings.Cut(line, "=")
		name = strings.TrimSpace(name)
		if !hasValue {
			// "name" alone, or "name # comment".
			name, _, _ = strings.Cut(name, "#")
			name = strings.TrimSpace(name)
		}
		if name == "" || strings.HasPrefix(name, "-") || strings.ContainsAny(name, " \t\"'") {
			return nil, where("bad option name %q (names as on the command line, without the dash)", name)
		}
		if hasValue {
			v, err := confValue(value)
			if err != nil {
				return nil, where("%s: %v", name, err)
			}
			value = v
		}
		cl := confLine{line: n, name: name, value: value, hasValue: hasValue}
		if section == "" {
			c.top = append(c.top, cl)
		} else {
			c.profiles[section] = append(c.profiles[section], cl)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return c, nil
}

// confValue reads a value: quoted ("a # b", 'x') up to its closing quote, else up to a comment,
// trimmed.
func confValue(s string) (string, error) {
	s = strings.TrimSpace(s)
	if s != "" && (s[0] == '"' || s[0] == '\'') {
		end := strings.IndexByte(s[1:], s[0])
		if end < 0 {
			return "", fmt.Errorf("no closing %c", s[0])
		}
		if rest := strings.TrimSpace(s[end+2:]); rest != "" && rest[0] != '#' {
			return "", fmt.Errorf("text after the quoted value: %q", rest)
		}
		return s[1 : end+1], nil
	}
	v, _, _ := strings.Cut(s, "#")
	return strings.TrimSpace(v), nil
}

// confChoice is what the command line says about config files: -config FILE, -no-config and
// -profile NAME (a comma-separated list, as mpv's --profile takes).
type confChoice struct {
	file     string // -config; "" the default file
	none     bool   // -no-config
	profiles []string
}

// scanConfChoice finds -config, -no-config and -profile on the command line, reading it as the
// flag package will (a flag's value is the next word unless given with =; -- ends the flags),
// with takesValue telling the flags that need a value. The last of each counts.
func scanConfChoice(args []string, takesValue func(name string) bool) (confChoice, error) {
	var c confChoice
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			break
		}
		if len(a) < 2 || a[0] != '-' {
			continue // FILE: flags may follow it
		}
		name := strings.TrimPrefix(strings.TrimPrefix(a, "-"), "-")
		name, value, hasValue := strings.Cut(name, "=")
		if !hasValue && takesValue(name) && i+1 < len(args) {
			i++
			value = args[i]
		}
		switch name {
		case "config":
			if value == "" {
				return c, errors.New("-config needs a FILE")
			}
			c.file = value
		case "no-config":
			c.none = !hasValue || value == "true" || value == "1"
		case "profile":
			c.profiles = nil
			for _, p := range strings.Split(value, ",") {
				if p = strings.TrimSpace(p); p != "" {
					c.profiles = append(c.profiles, p)
				}
			}
		}
	}
	return c, nil
}

// flagProbe tells what a config line's option is, as the command line's parser sees it.
type flagProbe interface {
	// known: the flag exists; boolean: it takes no value (a flag such as -fs).
	kind(name string) (known, boolean bool)
	// check: "-name=value" alone is a valid command line (nil), or why not.
	check(arg string) error
}

// withConfig puts the config file's options (the top level, then each -profile's in order) before
// the command line's args. An option the command line has no flag for, a bad value, a missing
// -config FILE or -profile is one error naming the file and line. mpv's yes/no are read for flags
// that take no value (fs=yes, fs=no).
func withConfig(args []string, probe flagProbe) ([]string, error) {
	choice, err := scanConfChoice(args, func(name string) bool {
		known, boolean := probe.kind(name)
		return known && !boolean
	})
	if err != nil {
		return nil, err
	}
	if choice.none {
		if len(choice.profiles) > 0 {
			return nil, fmt.Errorf("-profile %s: -no-config reads no config file, which holds the profiles", strings.Join(choice.profiles, ","))
		}
		return args, nil
	}
	path, explicit := choice.file, choice.file != ""
	if !explicit {
		path = configFile()
	}
	var c *confFile
	if path != "" {
		text, err := os.ReadFile(path)
		switch {
		case err == nil:
			if c, err = parseConf(path, string(text)); err != nil {
				return nil, err
			}
		case explicit || !errors.Is(err, os.ErrNotExist):
			return nil, fmt.Errorf("-config: %w", err)
		}
	}
	if c == nil {
		c = &confFile{path: path, profiles: map[string][]confLine{}}
	}
	var out []string
	applied := map[string]bool{}
	var apply func(lines []confLine, depth int) error
	apply = func(lines []confLine, depth int) error {
		for _, l := range lines {
			where := fmt.Sprintf("%s:%d", c.path, l.line)
			switch l.name {
			case "config", "no-config":
				return fmt.Errorf("%s: %s belongs on the command line, not in a config file", where, l.name)
			case "profile-desc": // mpv's description of a profile: shown nowhere here
				continue
			case "profile":
				for _, name := range strings.Split(l.value, ",") {
					name = strings.TrimSpace(name)
					p, ok := c.profiles[name]
					if !ok {
						return fmt.Errorf("%s: profile=%s: no [%s] section in the file", where, name, name)
					}
					if depth > 20 || applied[name] && depth > 0 {
						return fmt.Errorf("%s: profile=%s: profiles that include each other", where, name)
					}
					applied[name] = true
					if err := apply(p, depth+1); err != nil {
						return err
					}
				}
				continue
			}
			known, boolean := probe.kind(l.name)
			if !known {
				return fmt.Errorf("%s: unknown option %q (ycbcrplay -h lists them)", where, l.name)
			}
			arg := "-" + l.name
			switch {
			case boolean && l.hasValue:
				v := map[string]string{"yes": "true", "no": "false"}[l.value]
				if v == "" {
					v = l.value
				}
				arg += "=" + v
			case l.hasValue:
				arg += "=" + l.value
			case !boolean:
				return fmt.Errorf("%s: %s needs a value (%s=VALUE)", where, l.name, l.name)
			}
			if err := probe.check(arg); err != nil {
				return fmt.Errorf("%s: %v", where, err)
			}
			out = append(out, arg)
		}
		return nil
	}
	if err := apply(c.top, 0); err != nil {
		return nil, err
	}
	for _, name := range choice.profiles {
		p, ok := c.profiles[name]
		if !ok {
			if path == "" {
				return nil, fmt.Errorf("-profile %s: no config file", name)
			}
			return nil, fmt.Errorf("-profile %s: no [%s] section in %s", name, name, path)
		}
		applied[name] = true
		if err := apply(p, 1); err != nil {
			return nil, err
		}
	}
	return append(out, args...), nil
}

// parseProbe asks parseArgs itself, so that the config file takes exactly what the command line
// takes, with the same checks and messages.
type parseProbe struct{}

func (parseProbe) kind(name string) (known, boolean bool) {
	if name == "h" || name == "help" || name == "" {
		return false, false
	}
	_, err := parseArgs([]string{"-" + name})
	var ue usageError
	if errors.As(err, &ue) {
		msg := ue.Error()
		switch {
		case strings.Contains(msg, "flag provided but not defined"):
			return false, false
		case strings.Contains(msg, "flag needs an argument"):
			return true, false
		}
	}
	return true, true
}

func (parseProbe) check(arg string) error {
	_, err := parseArgs([]string{arg})
	return err
}
