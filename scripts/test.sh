#!/usr/bin/env bash
# test.sh: every check and test (make test). Vulkan tests use lavapipe with the validation layer on.
#
# The test binaries are built once (go test -c, on every core), then run from a pool of JOBS workers
# (default: the number of cores), longest first. Each package runs on an X server of its own (Xvfb,
# started per run), so the window tests that read the screen back (xwd) see only their own windows
# although packages run side by side. The sound tests, which time playback against a real sound
# server, run afterwards alone, so that nothing competes with the server for the cores. The fuzz
# targets' corpora (seeds and testdata/fuzz) run as their own regression step; fuzzing proper is
# `make fuzz` (scripts/fuzz.sh). At the end (scripts/test-summary.py): each run's time, every
# skipped test with its reason, the failures, and "N passed, N failed" over the top-level tests.
#
# Usage: scripts/test.sh     (JOBS=N workers; logs and the go test -json events in $TESTLOG,
#                             default /tmp/ycbcrkit-test; PKGS="./a ./b" runs those packages only)
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
command -v Xvfb >/dev/null || { echo "error: Xvfb missing (make deps installs it)" >&2; exit 1; }
JOBS=${JOBS:-$(nproc)}
PKGS=${PKGS:-./...}
LOG=${TESTLOG:-/tmp/ycbcrkit-test}
BIN=$LOG/bin
rm -rf "$LOG" && mkdir -p "$BIN/plain" "$BIN/race" "$LOG/json"
T0=$(date +%s)
stamp() { local s=$(($(date +%s) - T0)); printf '[%d:%02d] ' $((s / 60)) $((s % 60)); }

echo "== gofmt"
bad=$(gofmt -l $(git ls-files '*.go') 2>/dev/null || true)
if [ -n "$bad" ]; then echo "gofmt needed:"; echo "$bad"; exit 1; fi
echo "$(stamp)== go vet"
"$GO" vet $PKGS

# The race detector (checkptr on) over the packages with goroutines: the player's decode goroutine
# and loop, decoding, videotex's engine-facing locks, planes' parallel staging, the stream's ring.
race_pkgs=(player decode videotex planes stream cmd/ycbcrplay)
# Left out of the race runs, as the soaks are: the screen-reading window tests (the plain runs have
# them) and the sound tests (below).
race_skip='^TestSoak|^TestZonePlateOnScreen$|^TestPlayOpeningWindow$'
sound='^(TestSound|TestOutputPlaysWhatItIsGiven$)'
sound_pkgs=(cmd/ycbcrplay audio)

echo "$(stamp)== build the test binaries"
mapfile -t pkgs < <("$GO" list -f '{{if or .TestGoFiles .XTestGoFiles}}{{.ImportPath}}{{end}}' $PKGS | sed "s|^$("$GO" list -m)/||")
among() { printf '%s\n' "$@" | grep -xF -f <(printf '%s\n' "${pkgs[@]}") || true; }
mapfile -t race_pkgs < <(among "${race_pkgs[@]}")
mapfile -t sound_pkgs < <(among "${sound_pkgs[@]}")
# One go test -c for all: go compiles and links the packages on every core. Binaries are named after
# the package's last element (go refuses to build two of the same name into one folder).
"$GO" test -c -o "$BIN/plain/" "${pkgs[@]/#/./}"
[ ${#race_pkgs[@]} = 0 ] || "$GO" test -c -race -o "$BIN/race/" "${race_pkgs[@]/#/./}"

# run KIND PKG [test binary flags...]: one package's binary (BIN/plain or BIN/race by KIND's first
# word), from its folder (tests read files relative to it), on an X server of its own; go test -json
# events to $LOG/json/KIND-PKG.json and one line when it ends.
run() {
	local kind=$1 pkg=$2
	shift 2
	local bin=$BIN/${kind%%-*}/$(basename "$pkg").test name=$kind-$(echo "$pkg" | tr / _)
	[ -x "$bin" ] || return 0
	local t0 rc=0 xf xpid
	t0=$(date +%s)
	xf=$(mktemp)
	Xvfb -displayfd 3 -screen 0 1280x720x24 -nolisten tcp 3>"$xf" 2>/dev/null &
	xpid=$!
	until [ "$(wc -l <"$xf")" -ge 1 ]; do
		kill -0 $xpid 2>/dev/null || { echo "error: Xvfb did not start for $pkg" >&2; return 1; }
		sleep 0.05
	done
	(cd "$pkg" && DISPLAY=:$(cat "$xf") "$GO" tool test2json -t -p "$pkg" "$bin" -test.v=test2json \
		-test.count=1 -test.timeout 15m "$@" >"$LOG/json/$name.json" 2>&1) || rc=$?
	kill $xpid 2>/dev/null || true
	wait $xpid 2>/dev/null || true
	rm -f "$xf"
	local word=ok
	[ $rc = 0 ] || word=FAIL
	echo "$(stamp)$word $kind $pkg $(($(date +%s) - t0))s"
}
# job "KIND PKG": a line of the pool
job() {
	set -- $1
	case $1 in
	race) run race "$2" -test.skip "$SOUND|$RACE_SKIP|^Fuzz" ;;
	plain) run plain "$2" -test.skip "$SOUND|^Fuzz" ;;
	esac
}
export -f run job stamp
export GO BIN LOG T0 SOUND=$sound RACE_SKIP=$race_skip

# Longest first: the pool's end is set by the last long job to start. Seconds each job took in one
# run of this script on the project's 2-core machine, shared with other work (CPU pressure 99 %), so
# their order matters, not their size (go test -json Elapsed, as scripts/test-summary.py prints
# them; 2026-11-27). Jobs not listed come last.
estimates="
402 race player
358 race cmd/ycbcrplay
285 plain player
244 plain cmd/ycbcrplay
163 race decode
153 plain ycbcr
127 race planes
111 plain decode
50 plain stream
36 plain ycbcr/check
23 plain videotex
20 plain cmd/ycbcrcube
19 race videotex
19 plain planes
9 plain shaders
8 plain formats
7 race stream
6 plain ycbcr/oracle
5 plain gpu
"
{
	for p in "${pkgs[@]}"; do echo "plain $p"; done
	for p in "${race_pkgs[@]}"; do echo "race $p"; done
} | while read -r k p; do
	e=$(awk -v j="$k $p" '$2 " " $3 == j { print $1 }' <<<"$estimates")
	echo "${e:-0} $k $p"
done | sort -rn | cut -d' ' -f2- >"$LOG/jobs"
echo "$(stamp)== go test: ${#pkgs[@]} packages and ${#race_pkgs[@]} under -race, $JOBS at a time"
tr '\n' '\0' <"$LOG/jobs" | xargs -0 -P "$JOBS" -n 1 bash -c 'job "$0"'

echo "$(stamp)== fuzz corpora (seeds and testdata/fuzz; fuzzing proper: make fuzz)"
for p in $(grep -rl --include='*_test.go' '^func Fuzz' . | xargs -n1 dirname | sort -u | sed 's|^\./||'); do
	run plain-fuzz "$p" -test.run '^Fuzz' # nothing where p's binary was not built (PKGS)
done

echo "$(stamp)== sound timing, alone"
for p in "${sound_pkgs[@]}"; do run plain-sound "$p" -test.run "$sound"; done

echo "$(stamp)== summary"
python3 scripts/test-summary.py "$LOG/json"/*.json
