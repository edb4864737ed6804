#!/usr/bin/env bash
# Full runs, for the published site (not part of CI): execute each recipe's notebook in place in
# the full profile. Each execution runs the recipe, stores results/<id>/<time>-<host>.json and
# leaves the notebook with that run's outputs; then the site is built. Commit both.
#   bash scripts/publish.sh                  the stale recipes: no published result, or the
#                                            recipe, the stack's inputs or the library changed
#                                            since it (`tuninglab stale` says which and why)
#   bash scripts/publish.sh --all            every notebook
#   bash scripts/publish.sh aa-noise ...     only these recipes
# A full run refuses a tree with uncommitted changes: commit first.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bash scripts/setup.sh
export TUNINGLAB_PROFILE=full NO_MKDOCS_2_WARNING=1

if [ "${1:-}" = "--all" ]; then
  mapfile -t notebooks < <(find notebooks -name '*.ipynb' -not -path '*/.ipynb_checkpoints/*' | sort)
elif [ "$#" -eq 0 ]; then
  mapfile -t stale < <(.venv/bin/tuninglab stale)
  notebooks=()
  for id in "${stale[@]}"; do
    found=$(find notebooks -name "$id.ipynb")
    [ -n "$found" ] && notebooks+=("$found")
  done
  if ((${#notebooks[@]} == 0)); then
    echo "publish: every published result is up to date"
  fi
else
  notebooks=()
  for id in "$@"; do
    found=$(find notebooks -name "$id.ipynb")
    [ -n "$found" ] || { echo "publish: no notebook for recipe '$id' under notebooks/" >&2; exit 2; }
    notebooks+=("$found")
  done
fi

failed=()
for nb in "${notebooks[@]}"; do
  echo "publish: $nb (full profile)"
  started=$(date +%s)
  # Executed into a temporary copy: a failed run must not replace the published outputs.
  tmp="$(mktemp -d)"
  if .venv/bin/jupyter-nbconvert --to notebook --execute --output-dir "$tmp" \
      --ExecutePreprocessor.timeout=3600 "$nb"; then
    cp "$tmp/$(basename "$nb")" "$nb"
    echo "publish: $nb done in $(( $(date +%s) - started )) s"
  else
    failed+=("$nb")
    echo "publish: $nb FAILED after $(( $(date +%s) - started )) s (outputs left as they were)" >&2
  fi
  rm -rf "$tmp"
done
.venv/bin/mkdocs build --strict --quiet --site-dir site
echo "publish: site built in site/"
if ((${#failed[@]})); then
  echo "publish: failed: ${failed[*]}" >&2
  exit 1
fi
