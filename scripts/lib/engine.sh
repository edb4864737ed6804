# Step 2: a Docker engine that answers. Use the one there is; as root on Debian, install and
# start one (dockerd --userland-proxy=false: the userland proxy burns CPU under load).

ENGINE_WAIT_SECONDS="${TUNINGLAB_ENGINE_WAIT:-60}"
DOCKERD_PIDFILE=/var/run/docker.pid

engine_answers() { timeout 20 docker info >/dev/null 2>&1; }

# Why `docker info` fails, first line only, for error messages.
engine_error() { timeout 20 docker info 2>&1 >/dev/null | grep -v '^$' | head -n 1; }

dockerd_pidfile_alive() {
  [[ -f "$DOCKERD_PIDFILE" ]] && kill -0 "$(cat "$DOCKERD_PIDFILE" 2>/dev/null)" 2>/dev/null
}

engine_start_local() {
  local log="$TL_CACHE/dockerd.log" waited=0 pid=""
  if ! have dockerd; then
    apt_install docker.io
  fi
  have docker || apt_install docker.io
  if dockerd_pidfile_alive; then
    say "docker engine ... a dockerd process exists but does not answer yet; waiting"
  else
    say "docker engine ... starting dockerd --userland-proxy=false (log: $log)"
    mkdir -p "$TL_CACHE"
    # Own session: a Ctrl-C on setup must not stop the engine it leaves running. Fd 9 is
    # setup's lock (setup.sh): an engine that inherited it would hold it for its whole life,
    # and every later setup would wait for it forever.
    setsid nohup dockerd --userland-proxy=false >"$log" 2>&1 </dev/null 9>&- &
    pid=$!
  fi
  until engine_answers; do
    if [[ -n "$pid" ]] && ((waited >= 3)) && ! kill -0 "$pid" 2>/dev/null && ! dockerd_pidfile_alive; then
      tail -n 20 "$log" >&2 2>/dev/null || true
      die "dockerd exited right after it started" "dockerd log: $log (last lines above)"
    fi
    if ((waited >= ENGINE_WAIT_SECONDS)); then
      tail -n 20 "$log" >&2 2>/dev/null || true
      die "the Docker engine did not answer within ${ENGINE_WAIT_SECONDS} s" \
        "dockerd log: $log" "last error: $(engine_error)"
    fi
    sleep 1
    waited=$((waited + 1))
  done
  say "docker engine ... started in ${waited} s"
}

step_engine() {
  have docker || [[ "$(id -u)" == 0 ]] || die "the docker client is not installed" \
    "install Docker (Debian: sudo apt-get install docker.io), then rerun"
  if have docker && engine_answers; then
    say "docker engine ... answers ($(docker version -f '{{.Server.Version}}' 2>/dev/null || echo '?'))"
    return
  fi
  if checking; then outdated "docker engine" "no engine answers"; return; fi
  if [[ -n "${DOCKER_HOST:-}" && "${DOCKER_HOST}" != "unix:///var/run/docker.sock" ]]; then
    die "no Docker engine answers at DOCKER_HOST=$DOCKER_HOST ($(engine_error))" \
      "start that engine, or unset DOCKER_HOST to use (or let setup start) the local one"
  fi
  if [[ "$(id -u)" != 0 ]]; then
    if engine_error | grep -qi 'permission denied'; then
      die "the Docker engine refuses this user ($(engine_error))" \
        "add yourself to the docker group: sudo usermod -aG docker $(id -un), log in again, rerun"
    fi
    die "no Docker engine answers ($(engine_error))" \
      "start one as root: sudo dockerd --userland-proxy=false &  (or run scripts/setup.sh as root," \
      "which installs docker.io and starts it), or set DOCKER_HOST to a reachable engine"
  fi
  engine_start_local
}
