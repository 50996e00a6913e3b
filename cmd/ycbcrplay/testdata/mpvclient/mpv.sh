#!/bin/sh
# mpv.sh: what the npm "mpv" client spawns in place of mpv (its path option): ycbcrplay (this test
# binary as main, YCBCRPLAY_BIN) with the client's --input-ipc-server and the test's arguments
# (YCBCRPLAY_ARGS); the client's mpv-only defaults (--idle, --msg-level, --audio-fallback-to-null)
# are dropped, --no-config is kept.
ipc=
noconfig=
for a in "$@"; do
  case "$a" in
    --input-ipc-server=*) ipc="$a" ;;
    --no-config) noconfig="$a" ;;
  esac
done
# shellcheck disable=SC2086 # YCBCRPLAY_ARGS is a word list
exec env YCBCRPLAY_AS_MAIN=1 "$YCBCRPLAY_BIN" $noconfig "$ipc" $YCBCRPLAY_ARGS
