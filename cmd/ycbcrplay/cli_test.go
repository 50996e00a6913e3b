package main

import (
	"testing"

	"github.com/ycbcrkit/ycbcrkit/internal/testkit/clitest"
)

// TestCommandLine: the toolkit's shared conventions (-h, unknown flags, -validate, -device, -list-devices).
func TestCommandLine(t *testing.T) { clitest.Check(t, run) }
