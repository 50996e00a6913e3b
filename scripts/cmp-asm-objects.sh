#!/usr/bin/env bash
# Compares the assembly objects (those without gcc's .comment section) of two prefixes that
# scripts/build-ffmpeg.sh made, archive by archive: the same sections and sizes, the same bytes
# outside .text, and the same .text instructions with their relocations once alignment filler
# (nop forms) and the names of local labels are left out. Made to show that scripts/nasm-once.sh
# assembles what nasm alone does.
# Usage: scripts/cmp-asm-objects.sh PREFIX_A PREFIX_B   (exit 1 when any pair differs)
set -euo pipefail
if [ $# -ne 2 ]; then echo "error: usage: $0 PREFIX_A PREFIX_B" >&2; exit 2; fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sections() { objdump -h "$1" | awk '/^ +[0-9]+ /{print $2, $3}'; }
text() { # instructions and relocations: no addresses' names, no nops, no label lines
	objdump -dr --no-show-raw-insn "$1" | sed -n '/^Disassembly/,$p' |
		grep -v -E '^ *[0-9a-f]+:\s+(nop|xchg +%ax,%ax|data16|cs nopw)|^[0-9a-f]+ <|^ *[0-9a-f]+:\s*$' |
		sed -E 's/ <[^>]*>//g; s/\.\.@[0-9]+/..@N/g'
}
data() { # every section but .text, byte for byte (cmp -l: offset, byte of A, byte of B, in octal)
	local s
	for s in $(objdump -h "$1" | awk '/^ +[0-9]+ /{print $2}' | grep -vx '\.text'); do
		{ cmp -l <(objcopy -O binary --only-section="$s" "$1" /dev/stdout) \
			<(objcopy -O binary --only-section="$s" "$2" /dev/stdout) 2>&1 || true; } |
			# alignment filler: B's one-byte nops (0x90) where A has a multi-byte nop's bytes
			awk -v s="$s" '$3 != "220" || $2 !~ /^(17|37|0|100|104|200|204|146|56|220)$/ {print s, $0; exit 1}' || return 1
	done
}
n=0 bad=0
for ar in "$1"/lib/*.a; do
	lib=$(basename "$ar")
	[ -f "$2/lib/$lib" ] || continue
	for side in A B; do
		p=$1; [ $side = B ] && p=$2
		mkdir -p "$tmp/$side/$lib"
		(cd "$tmp/$side/$lib" && ar x "$p/lib/$lib") # of members of one name, the last
		# members by name and occurrence (an archive may hold a C and an assembly object of one name)
		ar t "$p/lib/$lib" | sort | uniq -c | while read -r c m; do
			mv "$tmp/$side/$lib/$m" "$tmp/$side/$lib/$m.$c"
			for ((k = 1; k < c; k++)); do
				(cd "$tmp/$side/$lib" && ar xN "$k" "$p/lib/$lib" "$m" && mv "$m" "$m.$k")
			done
		done
		for o in "$tmp/$side/$lib"/*; do
			if objdump -h "$o" | grep -q '\.comment'; then rm "$o"; fi
		done
	done
	for a in "$tmp/A/$lib"/*; do
		[ -e "$a" ] || continue
		b=$tmp/B/$lib/$(basename "$a")
		n=$((n + 1))
		if [ ! -f "$b" ] || [ "$(sections "$a")" != "$(sections "$b")" ] || ! data "$a" "$b" >/dev/null ||
			! cmp -s <(text "$a") <(text "$b"); then
			echo "differs: $lib $(basename "$a")"
			bad=$((bad + 1))
		fi
	done
done
echo "$n assembly objects compared, $bad differ"
[ "$bad" = 0 ]
