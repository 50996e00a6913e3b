package gpu

import (
	"flag"
	"fmt"
	"io"
)

// DeviceFlags registers the device flags every program of the toolkit takes, with the same help:
// -device N (Options.Index; -1 picks as Open does) and -list-devices.
func DeviceFlags(fs *flag.FlagSet, index *int, list *bool) {
	fs.IntVar(index, "device", -1, "physical device `N` as -list-devices numbers them; -1 picks the first discrete GPU, else integrated, else any with Y′CbCr")
	fs.BoolVar(list, "list-devices", false, "list the Vulkan devices and exit")
}

// PrintDevices writes one line per physical device the loader sees, as -list-devices does.
func PrintDevices(w io.Writer) error {
	infos, err := ListDevices()
	if err != nil {
		return err
	}
	for _, d := range infos {
		fmt.Fprintln(w, d)
	}
	return nil
}
