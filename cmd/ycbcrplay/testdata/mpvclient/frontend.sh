#!/bin/sh
# frontend.sh: what a front-end's client library spawns in place of mpv (its path option):
# ycbcrplay (this test binary as main, YCBCRPLAY_BIN) with exactly the arguments the library
# passes, and no display (headless).
exec env YCBCRPLAY_AS_MAIN=1 DISPLAY= WAYLAND_DISPLAY= "$YCBCRPLAY_BIN" "$@"
