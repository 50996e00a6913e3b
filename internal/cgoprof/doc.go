// Package cgoprof lets Go's CPU profile see into C code: the cgo leaf that gives runtime's profiler
// (runtime.SetCgoTraceback) the interrupted C program counter and the return addresses on its stack.
// Without it every sample taken in FFmpeg or the Vulkan driver reads only as the Go function that
// called into C; with it `go tool pprof` shows which C function (FFmpeg's, in the binary) or which
// library (the driver's, by offset) the time went to. Used by -cpuprofile (internal/app/cli);
// scripts/device/cprof.py names the C functions. ReadMaps is the one reader of /proc/self/maps, for
// this table and the wall's wait sampler.
package cgoprof
