#!/bin/bash
# Ground textures for `dataset --views composite` (nineteenth session): FlightGear's photo-derived
# terrain textures from Debian's flightgear-data-base package (GPL-2+, 1.3 GB download; only the
# Textures/Terrain folder is unpacked). Writes cache/textures/flightgear/: every terrain PNG over
# 50 kB except the masks, relief maps, overlays and colour tables (236 files in 1:2020.3.16+dfsg-1).
# Run from the repository root; needs apt-get (root) and about 2 GB of free disk for a moment.
set -e
out=cache/textures/flightgear
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
apt-get update > /dev/null
(cd "$tmp" && apt-get download flightgear-data-base > /dev/null 2>&1)
dpkg-deb --fsys-tarfile "$tmp"/flightgear-data-base_*.deb | tar -x -C "$tmp" --wildcards './usr/share/games/flightgear/Textures/Terrain/*'
mkdir -p "$out"
src="$tmp/usr/share/games/flightgear/Textures/Terrain"
n=0
for f in "$src"/*.png; do
  b=$(basename "$f")
  case "$b" in *mask*|*relief*|*overlay*|*colors*|void.png|unknown.png) continue;; esac
  if [ "$(stat -c %s "$f")" -gt 50000 ]; then cp "$f" "$out/$b"; n=$((n + 1)); fi
done
echo "flightgear-textures: $n textures in $out ($(dpkg-deb -f "$tmp"/flightgear-data-base_*.deb Version))"
