#!/usr/bin/env bash
# Install the Debian packages listed in .ci/apt-packages.txt (skipped when all are present).
set -euo pipefail
cd "$(dirname "$0")/.."
mapfile -t pkgs < <(grep -vE '^\s*(#|$)' .ci/apt-packages.txt)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  SUDO=""; [[ $(id -u) -ne 0 ]] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
# Debian's nodejs comes without npm, NodeSource's ships it and conflicts with Debian's npm
if ! command -v npm >/dev/null; then
  SUDO=""; [[ $(id -u) -ne 0 ]] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends npm
fi
