# Step 1: the Python virtual environment .venv, from requirements.txt (+ the project itself).

VENV_DIR="$ROOT/.venv"
VENV_STAMP="$VENV_DIR/.tuninglab-stamp"

venv_python() {
  local py
  for py in "${TUNINGLAB_PYTHON:-}" python3 python; do
    [[ -n "$py" ]] && have "$py" && { echo "$py"; return; }
  done
  die "no python3 on PATH" "install Python 3.11+ (apt-get install python3 python3-venv) or set TUNINGLAB_PYTHON"
}

# What the venv's content depends on: the pinned requirements, the package metadata, Python.
venv_wanted_stamp() {
  local py="$1"
  printf '%s %s\n' \
    "$(hash_files "$ROOT/requirements.txt" "$ROOT/pyproject.toml")" \
    "$("$py" -c 'import sys; print(sys.version.split()[0])')"
}

step_venv() {
  local py want reqs
  [[ -f "$ROOT/requirements.txt" ]] || die "requirements.txt is missing" "restore it from git"
  py="$(venv_python)"
  want="$(venv_wanted_stamp "$py")"
  if [[ -x "$VENV_DIR/bin/python" ]] && "$VENV_DIR/bin/python" -c '' 2>/dev/null \
     && [[ "$(cat "$VENV_STAMP" 2>/dev/null)" == "$want" ]]; then
    say "python venv .venv ... up to date"
    return
  fi
  if checking; then outdated "python venv .venv" "requirements.txt or pyproject.toml changed"; return; fi

  if ! { [[ -x "$VENV_DIR/bin/python" ]] && "$VENV_DIR/bin/python" -c ''; } 2>/dev/null; then
    say "python venv .venv ... creating with $("$py" --version 2>&1)"
    rm -rf "$VENV_DIR"
    "$py" -m venv "$VENV_DIR" || die "python -m venv .venv failed" \
      "on Debian: apt-get install python3-venv, then rerun"
  fi

  reqs="$ROOT/requirements.txt"
  if [[ ! -f "$ROOT/pyproject.toml" ]]; then
    # The project package is not there yet: install everything else.
    reqs="$TL_BUILD/requirements-no-project.txt"
    grep -Ev '^[[:space:]]*-e[[:space:]]+\.[[:space:]]*$' "$ROOT/requirements.txt" >"$reqs"
    say "python venv .venv ... pyproject.toml missing: skipping '-e .'"
  fi
  say "python venv .venv ... installing requirements (log: ${TL_LOGS#"$ROOT"/}/pip.log)"
  rm -f "$VENV_STAMP"
  ( cd "$ROOT" && run_logged "$TL_LOGS/pip.log" "pip install -r requirements.txt" \
      "$VENV_DIR/bin/python" -m pip install --disable-pip-version-check -q -r "$reqs" )
  echo "$want" >"$VENV_STAMP"
  say "python venv .venv ... done"
}
