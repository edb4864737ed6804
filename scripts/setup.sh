#!/usr/bin/env bash
# Tuning Lab set-up: everything the recipes, tests and site need, built or fetched once.
#
#   bash scripts/setup.sh            do every step that is out of date
#   bash scripts/setup.sh --check    report what is out of date, change nothing (exit 1 if any)
#   bash scripts/setup.sh STEP...    only these steps: venv engine downloads app images
#
# Steps (each skips itself when nothing it depends on changed):
#   venv       .venv from requirements.txt (+ the project, when pyproject.toml exists)
#   engine     a Docker engine that answers; as root, installs docker.io and starts dockerd
#   downloads  into ${TUNINGLAB_CACHE:-~/.cache/tuninglab}: WildFly, PostgreSQL JDBC, k6, Vale
#   app        apps/*/target/*.war of the Maven apps, and server-modules/*/target/*.jar (Maven)
#   images     tuninglab/base:trixie (or $TUNINGLAB_BASE_IMAGE), tuninglab/db:17,
#              tuninglab/wildfly:39.0.1, tuninglab/k6:1.8.1, tuninglab/haproxy:trixie
#
# Environment: TUNINGLAB_CACHE, TUNINGLAB_BASE_IMAGE, TUNINGLAB_PYTHON, DOCKER_HOST.
# shellcheck source-path=SCRIPTDIR/lib
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
LIB="$ROOT/scripts/lib"
TL_CACHE="${TUNINGLAB_CACHE:-${HOME:?HOME is not set: set TUNINGLAB_CACHE}/.cache/tuninglab}"
TL_BUILD="$ROOT/.build"
TL_LOGS="$TL_BUILD/logs"
TL_CHECK=0
TL_OUTDATED=0
ALL_STEPS=(venv engine downloads app images)

source "$LIB/versions.sh"
source "$LIB/common.sh"
source "$LIB/venv.sh"
source "$LIB/engine.sh"
source "$LIB/downloads.sh"
source "$LIB/app.sh"
source "$LIB/images.sh"
source "$LIB/stack-images.sh"

# The header comment above is the usage text.
usage() { awk 'NR > 1 && /^# shellcheck/ { exit } NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "${BASH_SOURCE[0]}"; }

main() {
  local steps=() step t0
  while (($#)); do
    case "$1" in
      --check | status) TL_CHECK=1 ;;
      -h | --help) usage; return 0 ;;
      venv | engine | downloads | app | images) steps+=("$1") ;;
      *) usage >&2; die "unknown argument: $1" "see the usage above" ;;
    esac
    shift
  done
  ((${#steps[@]})) || steps=("${ALL_STEPS[@]}")

  t0="$(now)"
  mkdir -p "$TL_LOGS" "$TL_CACHE"
  # One set-up at a time per cache (two would build the same images twice).
  if have flock; then
    exec 9>"$TL_CACHE/.setup.lock"
    if ! flock -n 9; then
      say "another scripts/setup.sh is running; waiting for it"
      flock 9
    fi
  fi

  for step in "${steps[@]}"; do
    "step_$step"
  done

  if checking; then
    if ((TL_OUTDATED)); then
      say "$TL_OUTDATED item(s) out of date: run bash scripts/setup.sh ($(elapsed_since "$t0") s)"
      return 1
    fi
    say "everything up to date ($(elapsed_since "$t0") s)"
  else
    say "done in $(elapsed_since "$t0") s"
  fi
}

main "$@"
