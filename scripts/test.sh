#!/usr/bin/env bash
# The test command (README): set up, then every test in one pytest run:
#   tests/unit         recipe format, statistics, store, engine logic (no Docker)
#   tests/adversarial  broken recipes, change files, arguments, results: clean errors, no container
#   tests/site         mkdocs build --strict, Vale, originality, Playwright + chromium
#   tests/integration  the real stack: pinning, 30 s of the mix, change read-back, clean exit
#   notebooks/         every recipe's notebook, executed by nbval in the quick profile
# Quick-profile results go to a temporary folder: a test run never adds files to results/.
# Extra arguments go to pytest (e.g. bash scripts/test.sh tests/unit -x).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

bash scripts/setup.sh

if ! command -v chromium >/dev/null 2>&1; then
  echo "test: installing Debian's chromium for the browser test"
  if [ "$(id -u)" -ne 0 ]; then
    echo "test: chromium is missing and this is not root: apt-get install chromium" >&2
    exit 2
  fi
  apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi

results="$(mktemp -d)"
trap 'rm -rf "$results"' EXIT
export TUNINGLAB_PROFILE=quick TUNINGLAB_RESULTS_DIR="$results" NO_MKDOCS_2_WARNING=1
export PATH="${TUNINGLAB_CACHE:-$HOME/.cache/tuninglab}/bin:$PATH"

if [ "$#" -eq 0 ]; then
  set -- tests/unit tests/adversarial tests/site tests/integration notebooks
fi
started=$(date +%s)
.venv/bin/python -m pytest --nbval-lax --nbval-current-env -p no:cacheprovider \
  --durations=15 -rs "$@"
echo "test: finished in $(( $(date +%s) - started )) s"
