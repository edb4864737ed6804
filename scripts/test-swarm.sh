#!/usr/bin/env bash
# The Swarm placement's integration test (issue 37) alone (the test command runs it too): it
# starts three more Docker engines (network namespaces of this machine, one swarm) and removes
# them, about three minutes. Root only, as set-up's engine step.
#   bash scripts/test-swarm.sh [pytest arguments]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
[[ "$(id -u)" == 0 ]] || { echo "test-swarm: starting dockerd needs root" >&2; exit 2; }
bash scripts/setup.sh
started=$(date +%s)
status=0
.venv/bin/python -m pytest -p no:cacheprovider -rs --durations=10 tests/swarm "$@" || status=$?
echo "test-swarm: finished in $(( $(date +%s) - started )) s"
exit "$status"
