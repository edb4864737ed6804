#!/usr/bin/env bash
# The main job (README): set up, run one recipe for real (the A/A noise floor, quick profile),
# show its stored result, and build the site into site/.
#   bash scripts/demo.sh [recipe-id] [quick|full]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
recipe="${1:-aa-noise}"
profile="${2:-quick}"

bash scripts/setup.sh
export NO_MKDOCS_2_WARNING=1
echo "demo: running recipe $recipe ($profile profile)"
status=0
.venv/bin/tuninglab run "$recipe" --profile "$profile" || status=$?
echo "demo: building the site"
.venv/bin/mkdocs build --strict --quiet --site-dir site
echo "demo: site built in site/ (open site/index.html, or: .venv/bin/mkdocs serve)"
exit "$status"
