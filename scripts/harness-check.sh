#!/usr/bin/env bash
# harness-check.sh: checks make test's own machinery, without a GPU or an X server (2 CPU-s;
# a stage of scripts/test.sh). Fake test binaries and a fake Xvfb go through scripts/test-lib.sh's
# run and scripts/test-summary.py, as make test's runs do: a run that passes passes; a run whose X
# server does not start writes no results and fails the summary (as the sound stage's would: its
# exit status is ignored); a skip on scripts/expected-skips.tsv passes, one not on it fails.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
GO=${GO:-$(command -v go || echo /usr/local/go/bin/go)}
T2J=$("$GO" tool -n test2json 2>/dev/null) && [ -x "$T2J" ] || T2J="$GO tool test2json"
# The system's python3 (install-deps.sh's) where there is one: a version manager's shim first in
# PATH (pyenv) costs 0.5 CPU-s a start against 0.05 (`time python3 -c pass`), 7 starts here.
PY=${PY:-$(command -v /usr/bin/python3 || command -v python3)}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
T0=$(date +%s)
stamp() { :; }
source scripts/test-lib.sh
mkdir -p "$tmp/xgood" "$tmp/xbad" "$tmp/pkgs/decode" "$tmp/pkgs/audio"
printf '#!/bin/sh\necho 99 >&3\nexec sleep 60\n' >"$tmp/xgood/Xvfb" # starts: display :99
printf '#!/bin/sh\nexit 1\n' >"$tmp/xbad/Xvfb"                      # dies at once
chmod +x "$tmp/xgood/Xvfb" "$tmp/xbad/Xvfb"

# check NAME WANT XVFB-DIR PKG OUTPUT: one run of a fake PKG.test printing OUTPUT (go test -v
# text), then the summary, whose exit status must be WANT.
fails=0
check() {
	local name=$1 want=$2 xdir=$3 pkg=$4 out=$5 got=0
	LOG=$tmp/$name BIN=$tmp/$name/bin
	mkdir -p "$LOG/json" "$LOG/cpu" "$BIN/plain"
	printf '#!/bin/sh\nprintf "%%b" "%s"\n' "$out" >"$BIN/plain/$pkg.test"
	chmod +x "$BIN/plain/$pkg.test"
	(cd "$tmp/pkgs" && PATH=$xdir:$PATH run plain "$pkg" >/dev/null 2>&1) || true
	"$PY" "$root/scripts/test-summary.py" "$LOG/json"/*.json >"$LOG/summary" 2>&1 || got=$?
	if [ "$got" != "$want" ]; then
		echo "harness-check: $name: the summary exits $got, want $want:"
		sed 's/^/    /' "$LOG/summary"
		fails=$((fails + 1))
	fi
}
pass='=== RUN   TestFine\n--- PASS: TestFine (0.00s)\nPASS\n'
check passes 0 "$tmp/xgood" audio "$pass"
check no-x-server 1 "$tmp/xbad" audio "$pass"
check skip-listed 0 "$tmp/xgood" decode '=== RUN   TestHWDecClips\n    hwclips_test.go:86: no clips\n--- SKIP: TestHWDecClips (0.00s)\nPASS\n'
check skip-unlisted 1 "$tmp/xgood" decode '=== RUN   TestNew\n    new_test.go:1: why\n--- SKIP: TestNew (0.00s)\nPASS\n'
check no-tests 1 "$tmp/xgood" audio 'testing: warning: no tests to run\nPASS\n'
# XPKGS set: only the packages it lists get an X server (a package not listed runs without one).
XPKGS="decode" check no-x-needed 0 "$tmp/xbad" audio "$pass"
XPKGS="audio" check x-listed 1 "$tmp/xbad" audio "$pass"
[ $fails = 0 ] || exit 1
echo "harness-check: 7 cases as expected (a run with no results, an unlisted skip and no tests fail the summary)"
