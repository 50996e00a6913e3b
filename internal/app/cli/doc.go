// Package cli is what the toolkit's programs (cmd/) share about their command lines, the conventions
// internal/testkit/clitest checks: an error is one "error: ..." line on stderr and a non-zero exit status
// (the program says which); -h prints the help to stdout and exits 0; -device N picks the Vulkan
// device and -list-devices lists them and exits; a report names its run by the command line.
// Each program keeps its own help text, flags and exit statuses.
package cli
