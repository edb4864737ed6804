#!/usr/bin/env bash
# Full runs, for the published site (not part of CI): the publishing queue (tuninglab/publishing.py).
# Each recipe's notebook is executed in place in the full profile (it runs the recipe and stores
# results/<id>/<time>-<host>.json), and its result and notebook are committed at once, one commit
# per result; then the site is built.
#   bash scripts/publish.sh                  the stale recipes: no published result, or the
#                                            recipe, the stack's inputs or the library changed
#                                            since it (`tuninglab stale` says which and why)
#   bash scripts/publish.sh --all            every recipe
#   bash scripts/publish.sh aa-noise ...     only these recipes
#   bash scripts/publish.sh --resume         the rest of an interrupted queue
#   bash scripts/publish.sh --dry-run ...    the queue and its estimated time; nothing runs
# The queue refuses a tree with uncommitted changes (commit first), waits for a quiet host
# before each recipe, and keeps its state in .build/publish-queue.json.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bash scripts/setup.sh
export NO_MKDOCS_2_WARNING=1
exec .venv/bin/python -m tuninglab.publishing "$@"
