#!/bin/bash
# Shutdown side by side on this machine (docs/performance.md, "Start-up and shutdown"):
# interleaved rounds of a build BEFORE, this build with -teardown, and this build (default), warm
# cache, -headless -untimed -stats -hwdec no. Usage: scripts/bench-shutdown.sh ROUNDS BEFORE AFTER CLIP...
R=${1:-8} before=$2 after=$3; shift 3; out=${OUT:-/tmp}/bench-shutdown.jsonl; : >$out
export XDG_CACHE_HOME=$(mktemp -d)
for clip in "$@"; do
 for b in before teardown after; do timeout -s KILL 120 $after -headless -untimed -hwdec no -frames 1 $clip >/dev/null; done
 for ((r=1;r<=R;r++)); do
  for b in before teardown after; do
   bin=$after; a=""; [ $b = before ] && bin=$before; [ $b = teardown ] && a=-teardown
   t0=$(date +%s.%N); js=$(timeout -s KILL 120 $bin -headless -untimed -stats -hwdec no $a $clip); t1=$(date +%s.%N)
   echo "{\"b\":\"$b\",\"clip\":\"$(basename $clip)\",\"wall\":$(awk "BEGIN{print $t1-$t0}"),\"s\":$js}" >>$out
  done
 done
done
