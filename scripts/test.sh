#!/usr/bin/env bash
# The whole test suite from a fresh machine: system packages, the package with test extras, pytest.
# Extra arguments go to pytest (-x, a folder, -n 1 for one process).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-system.sh
python3 -m pip install -q -e '.[test]'
# axe-core for the aid's accessibility test, at the version package-lock.json pins
npm ci --prefix tests/aid/axe --no-audit --no-fund --loglevel=error
# The suite starts hundreds of Python processes (builds, the CLI): each compiles the package
# again when bytecode may not be written.
unset PYTHONDONTWRITEBYTECODE
# In parallel (pytest-xdist): two workers per core, as the engine and browser tests spend much
# of their time waiting (2 cores, same commit: 4 workers 10 min 18 s, 3 workers 10 min 41 s);
# each module goes whole to one worker (its fixtures made once), modules marked with one
# xdist_group together, the longest first (tests/conftest.py). TEST_WORKERS=n to change it.
# (-p no:benchmark: a pytest-benchmark installed on the machine only warns that xdist disables it)
python3 -m pytest -q -p no:benchmark -n "${TEST_WORKERS:-4}" --dist loadgroup --no-loadscope-reorder "$@"
