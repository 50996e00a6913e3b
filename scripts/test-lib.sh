# test-lib.sh: the pieces of scripts/test.sh that run one package's tests, sourced by it and by
# scripts/harness-check.sh, which checks them without a GPU. Needs LOG, BIN, T0, T2J and stamp.

# cpu: CPU= the CPU seconds (user + system) of this shell's children that have ended, from bash's
# times (its second line; run in this shell, not a subshell, which would count its own). On a shared
# machine wall time depends on the others; CPU time much less.
cpu() {
	local f=$LOG/times.$BASHPID
	times >"$f"
	CPU=$(awk 'NR == 2 { split($1, u, /[ms]/); split($2, s, /[ms]/); printf "%.0f", u[1] * 60 + u[2] + s[1] * 60 + s[2] }' "$f")
	rm -f "$f"
}

# run KIND PKG [test binary flags...]: one package's binary (BIN/plain or BIN/race by KIND's first
# word), from its folder (tests read files relative to it), on an X server of its own; go test -json
# events to $LOG/json/KIND-PKG.json, its wall and CPU seconds (the X server's included) to
# $LOG/cpu/KIND-PKG, and one line when it ends. A subshell, so that cpu counts this run alone.
# XPKGS, when set, lists (space-separated) the packages whose binaries open windows: the others run
# with no X server and DISPLAY unset (an Xvfb costs 0.8 s of wall and 0.4 CPU-s to start).
run() (
	local kind=$1 pkg=$2
	shift 2
	local bin=$BIN/${kind%%-*}/$(basename "$pkg").test name=$kind-$(echo "$pkg" | tr / _)
	[ -x "$bin" ] || return 0
	# The summary fails a run listed here that leaves no test verdict (an X server that did not
	# start, a -test.run pattern matching nothing): a stage that ran nothing is no pass.
	echo "$name" >>"$LOG/started"
	local t0 rc=0 xf xpid=
	t0=$(date +%s)
	unset DISPLAY
	if [ -z "${XPKGS+set}" ] || [[ " $XPKGS " == *" $pkg "* ]]; then
		xf=$(mktemp)
		Xvfb -displayfd 3 -screen 0 1280x720x24 -nolisten tcp 3>"$xf" 2>/dev/null &
		xpid=$!
		until [ "$(wc -l <"$xf")" -ge 1 ]; do
			kill -0 $xpid 2>/dev/null || { echo "error: Xvfb did not start for $pkg" >&2; return 1; }
			sleep 0.05
		done
		export DISPLAY=:$(cat "$xf")
		rm -f "$xf"
	fi
	# Under -race a process that exits 0 first sleeps atexit_sleep_ms, 1 s by default
	# (https://go.dev/doc/articles/race_detector#Options): every test binary and every player a test
	# starts as a process of its own would wait that second, the core idle (race cmd/ycbcrplay, seven
	# tests that start players: 24.6 -> 14.4 s). The detector still checks every access up to the exit.
	[ "${kind%%-*}" != race ] || export GORACE="atexit_sleep_ms=0${GORACE:+ $GORACE}"
	# -test.parallel 4: the tests that call t.Parallel() mostly wait on the clock (live feeds sent in
	# real time, -timeout's waits, probes of stalled pipes; a fifth of their wall time is CPU), four
	# at a time, past GOMAXPROCS's two (cmd/ycbcrwall's three feeds: 32.9 -> 9.9 s beside a busy
	# core).
	(cd "$pkg" && $T2J -t -p "$pkg" "$bin" -test.v=test2json \
		-test.count=1 -test.timeout 15m -test.parallel 4 "$@" >"$LOG/json/$name.json" 2>&1) || rc=$?
	if [ -n "$xpid" ]; then
		kill $xpid 2>/dev/null || true
		wait $xpid 2>/dev/null || true
	fi
	local word=ok wall=$(($(date +%s) - t0))
	cpu
	[ $rc = 0 ] || word=FAIL
	echo "$wall $CPU" >"$LOG/cpu/$name"
	echo "$(stamp)$word $kind $pkg ${wall}s, $CPU CPU-s"
)
