//go:build race

package stream_test

// raceDetector: the race detector keeps shadow memory and access history for every allocation, so
// the process's RSS grows with the work done whatever the code under test does.
const raceDetector = true
