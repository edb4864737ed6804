#!/bin/sh
# The running balancer, from inside its container:
#   tl-balancer stat             HAProxy's statistics (CSV: one row per node, the backend, the frontend)
#   tl-balancer policy NAME      switch the policy: rewrite the configuration, check it, reload
#   tl-balancer state NODE STATE a node in or out of the rotation: ready, or maint (no new
#                                requests; in-flight ones finish). A policy switch reloads the
#                                configuration, which puts every node back to ready.
#   tl-balancer config           the configuration in force
set -eu
CFG=/etc/haproxy/haproxy.cfg
SOCK=/run/haproxy/admin.sock
case "${1:-}" in
  stat)
    echo "show stat" | socat stdio "unix-connect:$SOCK" ;;
  policy)
    [ -n "${2:-}" ] || { echo "tl-balancer policy: name a policy" >&2; exit 2; }
    sed -i "s/^    balance .*/    balance $2/" "$CFG"
    haproxy -c -q -f "$CFG"
    kill -USR2 1 ;;
  state)
    case "${3:-}" in ready|maint) ;; *) echo "tl-balancer state: NODE ready|maint" >&2; exit 2 ;; esac
    out=$(echo "set server nodes/$2 state $3" | socat stdio "unix-connect:$SOCK")
    [ -z "$(echo "$out" | tr -d '[:space:]')" ] || { echo "$out" >&2; exit 1; } ;;
  config)
    cat "$CFG" ;;
  *)
    echo "usage: tl-balancer stat | policy NAME | state NODE ready|maint | config" >&2; exit 2 ;;
esac
