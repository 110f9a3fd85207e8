#!/usr/bin/env bash
# Install builder and build every sample game into output/.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-system.sh
python3 -m pip install -q -e .
builder build --all
