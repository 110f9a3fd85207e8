#!/usr/bin/env bash
# The whole test suite from a fresh machine: system packages, the package with test extras, pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-system.sh
python3 -m pip install -q -e '.[test]'
# axe-core for the aid's accessibility test, at the version package-lock.json pins
npm ci --prefix tests/aid/axe --no-audit --no-fund --loglevel=error
python3 -m pytest -q "$@"
