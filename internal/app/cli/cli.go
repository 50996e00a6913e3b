package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/pprof"
	"strconv"
	"strings"

	"github.com/ycbcrkit/ycbcrkit/gpu"
	"github.com/ycbcrkit/ycbcrkit/internal/cgoprof"
)

// Fail writes one "error: ..." line on w and returns status, the program's exit status. The
// message's newlines become spaces: a flag value or a file name may hold one, and the error stays
// one line.
func Fail(w io.Writer, status int, format string, a ...any) int {
	fmt.Fprintf(w, "error: %s\n", strings.ReplaceAll(fmt.Sprintf(format, a...), "\n", " "))
	return status
}

// DeviceFlags registers the device flags every program takes, with the same help: -device N
// (gpu.Options.Index; -1 picks as gpu.Open does) and -list-devices.
func DeviceFlags(fs *flag.FlagSet, index *int, list *bool) {
	fs.IntVar(index, "device", -1, "physical device `N` as -list-devices numbers them; -1 picks the first discrete GPU, else integrated, else any with Y′CbCr")
	fs.BoolVar(list, "list-devices", false, "list the Vulkan devices and exit")
}

// ListDevices is -list-devices: one line per physical device the loader sees on stdout, exit
// status 0; or, where the devices cannot be listed, the error line and status.
func ListDevices(stdout, stderr io.Writer, status int) int {
	infos, err := gpu.ListDevices()
	if err != nil {
		return Fail(stderr, status, "%v", err)
	}
	for _, d := range infos {
		fmt.Fprintln(stdout, d)
	}
	return 0
}

// Parse parses args into fs, for a program whose -h prints its help text followed by its flags
// (fs's usage strings). done is true when the program has nothing more to do, with its exit
// status: after -h (the help on stdout, 0), or a bad flag (one error line that points to -h, 2).
// fs itself writes nothing.
func Parse(fs *flag.FlagSet, args []string, help string, stdout, stderr io.Writer) (status int, done bool) {
	fs.SetOutput(io.Discard)
	err := fs.Parse(args)
	switch {
	case err == nil:
		return 0, false
	case errors.Is(err, flag.ErrHelp):
		fmt.Fprint(stdout, help)
		fs.SetOutput(stdout)
		fs.PrintDefaults()
		return 0, true
	}
	return Fail(stderr, 2, "%v (%s -h lists the flags)", err, fs.Name()), true
}

// ParseMixed parses args into fs with the flags before or after the other arguments, as players
// take them (ycbcrplay FILE -frames 10), and returns the other arguments in order. Its error is
// fs.Parse's, flag.ErrHelp for -h; fs itself writes nothing.
func ParseMixed(fs *flag.FlagSet, args []string) ([]string, error) {
	fs.SetOutput(io.Discard)
	var rest []string
	for {
		if err := fs.Parse(args); err != nil {
			return rest, err
		}
		if fs.NArg() == 0 {
			return rest, nil
		}
		rest = append(rest, fs.Arg(0))
		args = fs.Args()[1:]
	}
}

// Command is how a report names its run: the program's name and args as a shell would take them
// back.
func Command(name string, args []string) string {
	parts := []string{name}
	for _, a := range args {
		if a == "" || strings.ContainsAny(a, " \t'\"$\\*?") {
			a = strconv.Quote(a)
		}
		parts = append(parts, a)
	}
	return strings.Join(parts, " ")
}

// Profile adds -cpuprofile FILE to fs and returns its start: after parsing, start() begins
// writing a CPU profile (runtime/pprof, read with `go tool pprof`) when the flag was given and
// returns the function that ends it (call it before the program exits).
func Profile(fs *flag.FlagSet) (start func() (stop func(), err error)) {
	path := fs.String("cpuprofile", "", "write a CPU profile of the run to `FILE` (go tool pprof reads it)")
	return func() (func(), error) {
		if *path == "" {
			return func() {}, nil
		}
		f, err := os.Create(*path)
		if err != nil {
			return nil, fmt.Errorf("-cpuprofile: %w", err)
		}
		cgoprof.Start() // C code's time by C function, not only by its Go caller
		if err := pprof.StartCPUProfile(f); err != nil {
			f.Close()
			return nil, fmt.Errorf("-cpuprofile: %w", err)
		}
		return func() { pprof.StopCPUProfile(); f.Close() }, nil
	}
}
