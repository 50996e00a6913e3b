//go:build !race

package stream_test

const raceDetector = false
