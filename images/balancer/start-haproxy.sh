#!/bin/sh
# Entry point of tuninglab/haproxy: writes /etc/haproxy/haproxy.cfg from the environment, checks
# it, then runs HAProxy in the foreground as a master process (PID 1), which reloads its
# configuration on SIGUSR2 (tl-balancer policy ...).
#
# Environment:
#   TL_BACKENDS        the nodes, "name:port" separated by commas (required; names resolve on
#                      the stack's private network)
#   TL_POLICY          roundrobin (default), leastconn, random or first
#   TL_SERVER_MAXCONN  requests a node may have in flight (0: no limit); the "first" policy
#                      fills a node up to it before it uses the next
set -eu
: "${TL_BACKENDS:?TL_BACKENDS names no node: a balancer needs at least one}"
TL_POLICY="${TL_POLICY:-roundrobin}"
TL_SERVER_MAXCONN="${TL_SERVER_MAXCONN:-0}"
CFG=/etc/haproxy/haproxy.cfg

{
  cat <<CFG
global
    stats socket /run/haproxy/admin.sock mode 600 level admin
    stats timeout 10s
    maxconn 4096

defaults
    mode http
    option http-keep-alive
    timeout connect 5s
    timeout client 120s
    timeout server 120s
    timeout queue 60s

frontend app
    bind :8080
    default_backend nodes

backend nodes
    balance ${TL_POLICY}
    option httpchk GET /orderentry/api/ping
CFG
  echo "$TL_BACKENDS" | tr ',' '\n' | while IFS=: read -r name port; do
    [ -n "$name" ] || continue
    extra=""
    [ "$TL_SERVER_MAXCONN" -gt 0 ] && extra=" maxconn $TL_SERVER_MAXCONN"
    echo "    server $name $name:${port:-8080} check inter 2s$extra"
  done
} > "$CFG"

haproxy -c -q -f "$CFG"
echo "tl-balancer: starting HAProxy $(cat /etc/tuninglab/haproxy-version), policy $TL_POLICY, nodes $TL_BACKENDS"
exec haproxy -W -db -f "$CFG"
