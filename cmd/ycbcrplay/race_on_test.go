//go:build race

package main

// raceDetector: the race detector slows the tests' own checking code several times over and keeps
// shadow memory for every allocation (a process's RSS grows with the work done), so the race run
// leaves out what only measures memory (TestRobustCorpus's second pass).
const raceDetector = true
