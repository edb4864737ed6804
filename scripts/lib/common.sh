# Shared helpers of scripts/setup.sh: messages, failures, hashing, apt.
# Sourced, not executed. Expects ROOT (the repository) and TL_CACHE (the download cache).

# One line per step, prefixed so it stands out in CI logs.
say() { printf 'setup: %s\n' "$*"; }

# Fail with a message that names what failed and what to do.
die() {
  printf 'setup: ERROR: %s\n' "$1" >&2
  shift
  local hint
  for hint in "$@"; do printf 'setup:   %s\n' "$hint" >&2; done
  exit 1
}

# True in --check mode: report what is out of date, change nothing.
checking() { [[ "${TL_CHECK:-0}" == 1 ]]; }

# Record that a step is out of date in --check mode.
outdated() {
  say "$1 ... OUT OF DATE ($2)"
  TL_OUTDATED=$((${TL_OUTDATED:-0} + 1))
}

have() { command -v "$1" >/dev/null 2>&1; }

# Seconds since the epoch, with decimals, for elapsed-time messages.
now() { date +%s.%N; }
elapsed_since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }

# sha256 of the given files' contents and names (missing files hash as "absent").
hash_files() {
  local f
  for f in "$@"; do
    if [[ -f "$f" ]]; then
      printf '%s %s\n' "$(sha256sum <"$f" | cut -d' ' -f1)" "${f#"$ROOT"/}"
    else
      printf 'absent %s\n' "${f#"$ROOT"/}"
    fi
  done | sha256sum | cut -d' ' -f1
}

# sha256 of a directory tree: every path, type, mode and file content (symlinks by target).
hash_tree() {
  local dir="$1"
  (
    cd "$dir" || exit 1
    find . \( -type f -o -type l -o -type d \) -printf '%y %m %p %l\n' | LC_ALL=C sort
    find . -type f -print0 | LC_ALL=C sort -z | xargs -0 -r sha256sum
  ) | sha256sum | cut -d' ' -f1
}

# Hard-link a file into place (fast, no copy of big archives); copy across file systems.
link_or_copy() {
  ln -f "$1" "$2" 2>/dev/null || cp -p "$1" "$2"
}

# apt-get install, running apt-get update once per setup run. Root only.
TL_APT_UPDATED=0
apt_install() {
  [[ "$(id -u)" == 0 ]] || die "installing $* needs root (apt-get)" \
    "run: sudo apt-get install -y $*   then rerun scripts/setup.sh"
  have apt-get || die "installing $* needs apt-get (Debian/Ubuntu)" "install $* by hand, then rerun"
  if [[ "$TL_APT_UPDATED" == 0 ]]; then
    say "apt-get update"
    DEBIAN_FRONTEND=noninteractive apt-get update -q >"$TL_LOGS/apt.log" 2>&1 \
      || die "apt-get update failed" "see $TL_LOGS/apt.log"
    TL_APT_UPDATED=1
  fi
  say "apt-get install $*"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "$@" \
    >>"$TL_LOGS/apt.log" 2>&1 || die "apt-get install $* failed" "see $TL_LOGS/apt.log"
}

# Run a long command with its output in a log file; on failure show the log's tail.
run_logged() {
  local log="$1" what="$2"
  shift 2
  if ! "$@" >"$log" 2>&1; then
    printf 'setup: ---- last lines of %s ----\n' "$log" >&2
    tail -n 40 "$log" >&2
    die "$what failed" "full log: $log"
  fi
}
