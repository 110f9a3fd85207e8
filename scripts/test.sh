#!/usr/bin/env bash
# The whole test suite from a fresh machine: system packages, the package with test extras, pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-system.sh
python3 -m pip install -q -e '.[test]'
python3 -m pytest -q "$@"
