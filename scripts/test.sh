#!/usr/bin/env bash
# The test command (README): set up, then every test (two pytest runs: the tests, then the
# notebooks):
#   tests/unit         recipe format, statistics, store, engine logic (no Docker)
#   tests/adversarial  broken recipes, change files, arguments, results: clean errors, no container
#   tests/site         mkdocs build --strict, Vale, originality, Playwright + chromium
#   tests/integration  the real stack: pinning, 30 s of the mix, change read-back, clean exit
#   tests/swarm        three more Docker engines joined into a swarm: a stack spread over them
#                      (about three minutes; alone: bash scripts/test-swarm.sh)
#   notebooks/         every recipe's notebook, executed by nbval in the quick profile, two at a time
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

# actionlint checks the workflow files under .github/ (tests/site/test_workflows.py). It is a
# tool of the tests, not of the stack, so it is built here (once, about a minute of Go) and its
# version is not in scripts/lib/versions.sh, whose every change stales the published results.
ACTIONLINT_VERSION=v1.7.12
tools="${TUNINGLAB_CACHE:-$HOME/.cache/tuninglab}/bin"
if ! go version -m "$tools/actionlint" 2>/dev/null | grep -q "mod.*github.com/rhysd/actionlint.*$ACTIONLINT_VERSION"; then
  echo "test: building actionlint $ACTIONLINT_VERSION for the workflow check"
  mkdir -p "$tools"
  GOBIN="$tools" go install "github.com/rhysd/actionlint/cmd/actionlint@$ACTIONLINT_VERSION" \
    || echo "test: actionlint could not be built; the workflow test will say so" >&2
fi

# The notebooks' quick results are thrown away, unless TUNINGLAB_TEST_RESULTS names a folder
# to keep them in (their trials' times show where a slow notebook spent its time).
results="${TUNINGLAB_TEST_RESULTS:-$(mktemp -d)}"
keep="${TUNINGLAB_TEST_RESULTS:+yes}"
mkdir -p "$results"
# Stacks parked for reuse by the notebooks never outlive the test command.
trap '[ -n "$keep" ] || rm -rf "$results"; .venv/bin/tuninglab clean >/dev/null 2>&1 || true' EXIT
export TUNINGLAB_PROFILE=quick TUNINGLAB_RESULTS_DIR="$results" NO_MKDOCS_2_WARNING=1
export PATH="${TUNINGLAB_CACHE:-$HOME/.cache/tuninglab}/bin:$PATH"
pytest=(.venv/bin/python -m pytest --nbval-lax --nbval-current-env -p no:cacheprovider
        --durations=15 -rs)

started=$(date +%s)
if [ "$#" -gt 0 ]; then
  "${pytest[@]}" "$@"
else
  # The tests first (the integration tests check that nothing is left behind), then the
  # notebooks, which hand their stack on to the next notebook of the same kind
  # (tuninglab/stackpool.py): CI starts each kind of stack once.
  status=0
  "${pytest[@]}" tests/unit tests/adversarial tests/site tests/integration tests/swarm \
    || status=$?
  notebooks_started=$(date +%s)
  # Two notebooks at a time (pytest-xdist; --dist loadfile keeps a notebook's cells in order on
  # one worker): one quick run keeps the two cores about half busy (51 % over the articles'
  # notebooks, 7 December 2026), as most of a run waits on a boot, a reload or a window at a
  # quarter core. Those 20 notebooks took 497 s one at a time and 320 s two at a time (CPU 77 %
  # busy; median notebook 23.5 s alone, 32.1 s beside another). Parked stacks serve either
  # worker (stackpool.py's claims are atomic). TUNINGLAB_NOTEBOOK_WORKERS=1 runs them one at a
  # time, which is how the per-notebook budget is measured.
  workers="${TUNINGLAB_NOTEBOOK_WORKERS:-2}"
  parallel=()
  if ((workers > 1)); then parallel=(-n "$workers" --dist loadfile); fi
  # Every notebook's slowest cell (its run) is listed: the CI budget is per notebook.
  TUNINGLAB_REUSE_STACKS=1 "${pytest[@]}" "${parallel[@]}" --durations=60 notebooks \
    || status=$?
  echo "test: notebooks took $(( $(date +%s) - notebooks_started )) s"
  echo "test: finished in $(( $(date +%s) - started )) s"
  exit "$status"
fi
echo "test: finished in $(( $(date +%s) - started )) s"
