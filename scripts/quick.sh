#!/usr/bin/env bash
# The quick loop: the loader, the rules engine, geometry and one build of each format, in
# parallel, without the tests marked engine (Java VASSAL), browser (Chromium) or slow (every
# sample built in full), which the whole run (scripts/test.sh) adds. Under 2 minutes on 2 cores.
# Extra arguments go to pytest (a folder, -x, -k ...).
set -euo pipefail
cd "$(dirname "$0")/.."
# Each module goes whole to one worker, as in scripts/test.sh (--dist loadgroup, tests/conftest.py):
# a module's fixtures are made once, and a test that reads what the module's other tests did
# (tests/tables/test_rules.py's last test) sees all of them.
exec python3 -m pytest -q -p no:cacheprovider -p no:benchmark -n 2 --dist loadgroup \
  -m "not engine and not browser and not slow" "$@"
