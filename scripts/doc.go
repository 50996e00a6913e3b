// Package scripts holds the tests of the shell scripts beside it (scripts/build-ffmpeg.sh's
// --check-updates, against a fake apt); it has no code of its own.
package scripts
