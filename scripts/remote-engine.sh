#!/usr/bin/env bash
# A second Docker engine on this machine, with its own socket, data root and containerd, to
# prove that a stack runs unchanged on an engine the library reaches only through DOCKER_HOST
# (issue 10: "beyond one machine"). On real hardware the engine would be another host
# (DOCKER_HOST=ssh://user@host or tcp://host:2376 with TLS); nothing else changes.
#
#   bash scripts/remote-engine.sh start   start it and copy the stack's images into it
#   bash scripts/remote-engine.sh stop    stop it and delete its data root
#   bash scripts/remote-engine.sh env     print the DOCKER_HOST line to use it
#
# Its networks come from their own address pool (10.199.0.0/16), so they cannot collide with
# the first engine's; it creates no default bridge and leaves the host's iptables to the first
# engine, which drops forwarded traffic it does not know (FORWARD policy DROP, and bridged
# packets pass through iptables): one rule in DOCKER-USER, the chain the first engine leaves to
# its users, lets the second engine's containers talk to each other (without it each cluster
# node formed a view of one, 2026-11-25). Root only (it runs dockerd).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
# shellcheck source=lib/versions.sh
source scripts/lib/versions.sh

NAME=tl-remote
SOCK="/run/$NAME/docker.sock"
DATA="/var/lib/$NAME"
EXEC="/run/$NAME/exec"
LOG="/tmp/$NAME-dockerd.log"
HOST="unix://$SOCK"
IMAGES=("$IMAGE_DB" "$IMAGE_WILDFLY" "$IMAGE_K6" tuninglab/haproxy:trixie)
POOL=10.199.0.0/16
FORWARD_RULE=(DOCKER-USER -s "$POOL" -d "$POOL" -j ACCEPT)

say() { printf 'remote-engine: %s\n' "$*"; }
die() { printf 'remote-engine: %s\n' "$*" >&2; exit 1; }
answers() { docker -H "$HOST" info >/dev/null 2>&1; }

start() {
  [[ "$(id -u)" == 0 ]] || die "starting a dockerd needs root"
  if answers; then
    say "already running on $HOST"
  else
    mkdir -p "/run/$NAME" "$DATA" "$EXEC"
    say "starting dockerd on $HOST (data root $DATA, log $LOG)"
    setsid nohup dockerd --host "$HOST" --data-root "$DATA" --exec-root "$EXEC" \
      --pidfile "/run/$NAME/docker.pid" --bridge none --iptables=false --ip6tables=false \
      --default-address-pool "base=$POOL,size=24" >"$LOG" 2>&1 </dev/null &
    for _ in $(seq 1 60); do answers && break; sleep 0.5; done
    answers || die "the second engine did not answer within 30 s; see $LOG"
  fi
  if iptables -S DOCKER-USER >/dev/null 2>&1 && ! iptables -C "${FORWARD_RULE[@]}" 2>/dev/null; then
    iptables -I "${FORWARD_RULE[@]}"
  fi
  local t0 missing=()
  for image in "${IMAGES[@]}"; do
    docker -H "$HOST" image inspect "$image" >/dev/null 2>&1 || missing+=("$image")
  done
  if ((${#missing[@]})); then
    t0=$(date +%s)
    say "copying ${missing[*]} from the first engine"
    docker save "${missing[@]}" | docker -H "$HOST" load >/dev/null
    say "images copied in $(( $(date +%s) - t0 )) s"
  fi
  say "ready: export DOCKER_HOST=$HOST"
}

stop() {
  if [[ -f "/run/$NAME/docker.pid" ]]; then
    local pid
    pid="$(cat "/run/$NAME/docker.pid")"
    docker -H "$HOST" ps -aq 2>/dev/null | xargs -r docker -H "$HOST" rm -f >/dev/null || true
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 1 60); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
  fi
  while iptables -C "${FORWARD_RULE[@]}" 2>/dev/null; do iptables -D "${FORWARD_RULE[@]}"; done
  rm -rf "$DATA" "/run/$NAME"
  say "stopped; data root removed"
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  env) echo "export DOCKER_HOST=$HOST" ;;
  *) die "usage: bash scripts/remote-engine.sh start | stop | env" ;;
esac
