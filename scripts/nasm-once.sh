#!/usr/bin/env bash
# nasm-once.sh: nasm for build-ffmpeg.sh (as `nasm` first on PATH while dav1d and FFmpeg build),
# preprocessing each file once. NASM 2.16 runs its macro preprocessor again in every pass, and with
# its default -Ox, x86inc's macros take 5 to 7 passes: dav1d's 46 assembly files cost 220 s of CPU.
# Here the file is preprocessed once (-E) and the expanded text assembled without the preprocessor
# (-a) at the same -Ox: 25 s for dav1d's. The objects have the same sections, sizes, instructions,
# data and relocations; what differs is the filler in alignment gaps (smartalign's `align` picks
# multi-byte nops from the current position, which preprocessing alone does not know, so it writes
# `times N nop`: one-byte nops) and the numbers of macro-local labels: scripts/cmp-asm-objects.sh compares two prefixes' assembly objects (all 155
# of FFmpeg's and dav1d's, this recipe against the one before it: none differ).
# Only the command-line forms the two builds use are taken apart (-f, -I, -P, -D, -M*, -o and one
# source file); any other command line (nasm -v, configure's probes with -Werror...) goes to nasm
# as it is. A change here that changes the objects bumps RECIPE in build-ffmpeg.sh (the prefix's
# hash does not read this file).
real=${NASM_REAL:?NASM_REAL: the real nasm}
orig=("$@") out= src= pre=() asm=() deps=() named=
while [ $# -gt 0 ]; do
	case $1 in
	-o) out=$2; shift 2 ;;
	-f) asm+=("$1" "$2"); shift 2 ;;
	-I | -P | -D) pre+=("$1" "$2"); shift 2 ;;
	-I?* | -P?* | -D?*) pre+=("$1"); shift ;;
	-MD | -MF) deps+=("$1" "$2"); shift 2 ;;
	-MQ | -MT) deps+=("$1" "$2"); named=1; shift 2 ;;
	-*) exec "$real" "${orig[@]}" ;;
	*) if [ -n "$src" ]; then exec "$real" "${orig[@]}"; fi; src=$1; shift ;;
	esac
done
if [ -z "$out" ] || [ -z "$src" ]; then exec "$real" "${orig[@]}"; fi
# -MD (FFmpeg's dependency files) names the -o file as the target: name the object, not the text.
if [ ${#deps[@]} -gt 0 ] && [ -z "$named" ]; then deps+=(-MT "$out"); fi
"$real" "${asm[@]}" "${pre[@]}" "${deps[@]}" -E "$src" -o "$out.i" || { rm -f "$out.i"; exit 1; }
"$real" "${asm[@]}" -a "$out.i" -o "$out"
rc=$?
rm -f "$out.i"
exit $rc
