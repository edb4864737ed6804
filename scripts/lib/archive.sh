# The archive step of scripts/setup.sh: the CI profile's class-data archive of WildFly
# (tuninglab/cds.py), a Docker volume per WildFly image id. Sourced, not executed.

step_archive() {
  if ! engine_answers; then
    if checking; then outdated "class archive" "no Docker engine answers"; return; fi
    die "no Docker engine answers: cannot make the class archive ($(engine_error))" \
      "run bash scripts/setup.sh (its engine step starts one as root), or start dockerd"
  fi
  if checking; then
    "$ROOT/.venv/bin/python" -m tuninglab.cds --check || outdated "class archive" "not made for this WildFly image"
    return
  fi
  "$ROOT/.venv/bin/python" -m tuninglab.cds >"$TL_LOGS/archive.log" 2>&1 \
    || die "the class archive could not be made: see $TL_LOGS/archive.log" \
      "the CI profile's nodes boot without it; run bash scripts/setup.sh archive again"
  grep '^setup: class archive' "$TL_LOGS/archive.log" | tail -1
}
