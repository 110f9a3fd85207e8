#!/usr/bin/env bash
# The quick loop: the loader, the rules engine, geometry and one build of each format, in
# parallel, without the tests marked engine (Java VASSAL), browser (Chromium) or slow (every
# sample built in full), which the whole run (scripts/test.sh) adds. Under 2 minutes on 2 cores.
# Extra arguments go to pytest (a folder, -x, -k ...).
set -euo pipefail
cd "$(dirname "$0")/.."
exec python3 -m pytest -q -p no:cacheprovider -p no:benchmark -n 2 -m "not engine and not browser and not slow" "$@"
