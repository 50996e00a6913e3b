#!/usr/bin/env bash
# test.sh: every check and test. Runs under xvfb-run so tests that open a window find a display;
# Vulkan tests use lavapipe with the validation layer on.
set -euo pipefail
cd "$(dirname "$0")/.."
GO=${GO:-$(command -v go || echo /usr/local/go/bin/go)}
export PATH="$(dirname "$GO"):$PATH"
# Test builds carry the hardware-failure hook that tests inject (internal/avx/fault.go, and the
# tests that use it); production builds do not.
export GOFLAGS="${GOFLAGS:+$GOFLAGS }-tags=ycbcrkit_faults"
# FFmpeg 7.1, static, from scripts/build-ffmpeg.sh (make deps builds it): pkg-config path and the
# reference ffmpeg program.
eval "$(scripts/build-ffmpeg.sh --env)"
[ -x "$YCBCRKIT_FFMPEG" ] || { echo "error: FFmpeg 7.1 is not built: run make deps (scripts/build-ffmpeg.sh)" >&2; exit 1; }

echo "== gofmt"
bad=$(gofmt -l $(git ls-files '*.go') 2>/dev/null || true)
if [ -n "$bad" ]; then echo "gofmt needed:"; echo "$bad"; exit 1; fi
echo "== go vet"
"$GO" vet ./...
echo "== go test"
run=(xvfb-run -a -s "-screen 0 1280x720x24")
command -v xvfb-run >/dev/null || { echo "error: xvfb-run missing (make deps installs it)" >&2; exit 1; }
# The sound tests measure timing against a real sound server: they run afterwards, alone, so that
# the other packages' software rendering does not compete with the server for the two cores.
sound='^(TestSound|TestOutputPlaysWhatItIsGiven$)'
# One package at a time (-p 1): the window tests of player and cmd/ycbcrplay read the X server's
# screen back (xwd), and another package's windows on the same Xvfb screen would cover theirs. On two
# cores lavapipe keeps both busy within one package anyway.
"${run[@]}" "$GO" test -p 1 -count=1 -timeout 15m -skip "$sound" ./... 2>&1 | tee /tmp/ycbcrkit-test.log
echo "== go test (sound timing, alone)"
"${run[@]}" "$GO" test -count=1 -timeout 6m -p 1 -run "$sound" ./cmd/ycbcrplay ./audio 2>&1 | tee -a /tmp/ycbcrkit-test.log
# The race detector (checkptr on) over the packages with goroutines: the player's decode goroutine
# and loop, decoding, videotex's engine-facing locks, planes' parallel staging, the stream's ring.
# Left out there, as the soaks are: TestZonePlateOnScreen and TestPlayOpeningWindow read the X
# server's screen (xwd), which the other packages' windows disturb when they run in parallel as here;
# the plain run above has them.
echo "== go test -race (concurrent packages)"
"${run[@]}" "$GO" test -race -count=1 -timeout 10m -skip "$sound|^TestSoak|^TestZonePlateOnScreen$|^TestPlayOpeningWindow$" ./player ./decode ./videotex ./planes ./stream ./cmd/ycbcrplay 2>&1 | tee -a /tmp/ycbcrkit-test.log
echo "== fuzz (8 targets × 7 s)"
scripts/fuzz.sh
passed=$(grep -c '^ok ' /tmp/ycbcrkit-test.log || true)
failed=$(grep -c '^FAIL' /tmp/ycbcrkit-test.log || true)
echo "packages: $passed passed, $failed failed"
