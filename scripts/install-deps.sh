#!/usr/bin/env bash
# install-deps.sh: install what ycbcrkit needs to build and test on Debian 12 (bookworm).
# Idempotent: packages already present are left alone, and apt is not touched when nothing is missing.
# Runs apt as root, or through sudo otherwise.
set -euo pipefail

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
    echo "error: install-deps: need root or sudo to install packages" >&2; exit 1
  fi
fi
export DEBIAN_FRONTEND=noninteractive

# Packages from bookworm itself. FFmpeg's libraries are not among them: scripts/build-ffmpeg.sh
# builds FFmpeg 7.1 from Debian 13's source (nasm, meson, ninja for it and dav1d; zlib for PNG;
# cmake and g++ for libsrt, which is C++).
# Debian 12's ffmpeg program (5.1) stays for making test vectors and zscale references (zimg).
# libplacebo: its BT.2390 EETF and metadata inference are the outside reference of the tone stage's
# tests (ycbcr/tone_reference_test.go). python3: make test's summary (scripts/test-summary.py).
# libass9: text subtitles (the player loads it at run time and plays without it); fonts-dejavu-core:
# the fonts the subtitle tests style their lines with (found through fontconfig). python3-gi,
# gir1.2-gst-rtsp-server-1.0, gstreamer1.0-plugins-good: GStreamer's RTSP server on the loopback,
# the outside server of ycbcrwall's live RTSP test (cmd/ycbcrwall/live_test.go). liblcms2-2:
# LittleCMS, which the player loads at run time for -icc-profile (ffmpeg pulls it in today; named
# here because the player and its ICC tests need it of their own).
PKGS=(
  pkg-config gcc g++ make cmake
  libvulkan1 libvulkan-dev vulkan-validationlayers vulkan-tools
  glslc spirv-tools
  ffmpeg
  nasm meson ninja-build xz-utils zlib1g-dev
  libx11-dev libxcursor-dev libxrandr-dev libxinerama-dev libxi-dev libxxf86vm-dev libgl-dev
  xvfb xauth x11-apps
  pulseaudio pulseaudio-utils
  python3
  libplacebo-dev
  libass9 fonts-dejavu-core
  python3-gi gir1.2-gst-rtsp-server-1.0 gstreamer1.0-plugins-good
  liblcms2-2
)

# npm_deps installs the JSON IPC test's mpv client (npm's "mpv", a pinned version) into
# ~/.cache/ycbcrkit/npm, once (cmd/ycbcrplay's TestMPVClient finds it there, or in $YCBCRKIT_NPM).
# Node and npm come from Debian (nodejs, npm) unless a node with npm is there already.
NPM_MPV=mpv@2.0.3
npm_deps() {
  local dir="${YCBCRKIT_NPM:-$HOME/.cache/ycbcrkit/npm}"
  if ! command -v npm >/dev/null 2>&1 || ! command -v node >/dev/null 2>&1; then
    echo "install-deps: installing nodejs npm"
    $SUDO apt-get install -y -qq --no-install-recommends nodejs npm >/dev/null 2>&1 || { echo "error: install-deps: apt-get install nodejs npm failed" >&2; exit 1; }
  fi
  if [ -f "$dir/node_modules/mpv/package.json" ] && grep -q '"version": "2.0.3"' "$dir/node_modules/mpv/package.json"; then
    return
  fi
  echo "install-deps: npm $NPM_MPV into $dir"
  mkdir -p "$dir"
  npm install --silent --no-audit --no-fund --prefix "$dir" "$NPM_MPV" >/dev/null || { echo "error: install-deps: npm install $NPM_MPV failed" >&2; exit 1; }
}
# lavapipe with Y'CbCr conversion support: bookworm's 22.3 has none, backports' 25.x has it.
BACKPORTS_MIN_MESA=25

missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
mesa_ver=$(dpkg-query -W -f='${Version}' mesa-vulkan-drivers 2>/dev/null || true)
need_mesa=1
if [ -n "$mesa_ver" ] && [ "${mesa_ver%%.*}" -ge "$BACKPORTS_MIN_MESA" ] 2>/dev/null; then need_mesa=0; fi

if [ ${#missing[@]} -eq 0 ] && [ $need_mesa -eq 0 ]; then
  npm_deps
  echo "install-deps: everything is installed"
  exit 0
fi

src=/etc/apt/sources.list.d/bookworm-backports.sources
if [ $need_mesa -eq 1 ] && [ ! -f "$src" ] && ! grep -rqs 'bookworm-backports' /etc/apt/sources.list /etc/apt/sources.list.d/; then
  echo "install-deps: adding bookworm-backports"
  $SUDO tee "$src" >/dev/null <<'SRC'
Types: deb
URIs: http://deb.debian.org/debian
Suites: bookworm-backports
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
fi

extra=""; [ $need_mesa -eq 1 ] && extra="mesa-vulkan-drivers (bookworm-backports)"
echo "install-deps: installing ${missing[*]:-} $extra"
log=$(mktemp)
$SUDO apt-get update -qq >"$log" 2>&1 || { cat "$log" >&2; exit 1; }
if [ ${#missing[@]} -gt 0 ]; then
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >"$log" 2>&1 || { tail -20 "$log" >&2; exit 1; }
fi
if [ $need_mesa -eq 1 ]; then
  $SUDO apt-get install -y -qq --no-install-recommends -t bookworm-backports mesa-vulkan-drivers >"$log" 2>&1 || { tail -20 "$log" >&2; exit 1; }
fi
npm_deps
echo "install-deps: done"
