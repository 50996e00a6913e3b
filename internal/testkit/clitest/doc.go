// Package clitest checks the command-line conventions every program of the toolkit shares: -h prints
// the usage to stdout and exits 0; an unknown flag exits 2 with one "error:" line on stderr and
// nothing on stdout; -validate, -device and -list-devices are accepted (with -list-devices the
// program lists the devices and exits 0, so no file is read and no picture made). Buffer is the
// output a test reads while a command still writes it.
package clitest
