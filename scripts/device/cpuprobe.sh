#!/bin/bash
# cpuprobe.sh AT OUT CMD...: runs CMD; AT seconds in, writes to OUT each thread name's CPU seconds
# (utime+stime by comm), and at the end the cgroup's CPU limit and how often and long it throttled
# the container meanwhile (cpu.max, cpu.stat), beside nproc. Exits with CMD's status.
at=$1 out=$2
shift 2
cg=/sys/fs/cgroup
[ -e $cg/cpu.stat ] || cg=/sys/fs/cgroup/cpu # cgroup v1: cpu.cfs_quota_us, throttled_time (ns)
thr() { grep -E '^(nr_periods|nr_throttled|throttled_usec|throttled_time)' $cg/cpu.stat 2>/dev/null | tr '\n' ' '; }
before=$(thr)
"$@" &
p=$!
sleep "$at"
q=$p # the program itself, below env and timeout
while c=$(pgrep -n -P $q); do q=$c; done
if kill -0 $q 2>/dev/null; then
	for t in /proc/$q/task/*; do
		# utime, stime: fields 14 and 15 (clock ticks), the 12th and 13th after comm's ")".
		read -r -a f <<<"$(sed 's/.*) //' "$t/stat" 2>/dev/null)" || continue
		echo "$(tr ' ' _ <"$t/comm") $((f[11] + f[12]))"
	done | awk -v hz="$(getconf CLK_TCK)" '{s[$1]+=$2; c[$1]++} END {for (k in s) printf "%-20s %3d threads %8.2f cpu-s\n", k, c[k], s[k]/hz}' | sort -k4 -rn >"$out"
fi
wait $p
rc=$?
{
	echo "nproc $(nproc); cpu.max $(cat $cg/cpu.max $cg/cpu.cfs_quota_us $cg/cpu.cfs_period_us 2>/dev/null | tr '\n' ' ')"
	echo "before: $before"
	echo "after: $(thr)"
	echo "loadavg $(cat /proc/loadavg); cpu pressure: $(head -1 /proc/pressure/cpu 2>/dev/null)"
} >>"$out"
cat "$out"
exit $rc
