#!/usr/bin/env bash
# Test hosts for the Swarm placement (issue 37): N Docker engines on this machine, each in a
# network namespace of its own (its own address, hostname, sockets, data root and iptables),
# joined into one Docker Swarm, so that a stack can put each role on a "host" of its own and
# its containers talk over a real overlay network (VXLAN between the namespaces).
#
#   bash scripts/swarm-hosts.sh start [N]   make N hosts (default 3), form the swarm, copy images
#   bash scripts/swarm-hosts.sh stop        remove every host, its data and the bridge
#   bash scripts/swarm-hosts.sh env         print the line that points the lab at the swarm
#
# Host i is "tl-h<i>" (its swarm node's hostname) at 10.198.0.1<i> on the bridge tlsw0; the
# first is the swarm's manager. Each swarm node carries the label tuninglab.engine, the Docker
# API address of its engine: that is how the lab reaches a host's engine to start, read and
# remove its containers (on real machines: ssh://user@host or tcp://host:2376 with TLS).
#
# Why namespaces and not containers: a swarm member needs an address of its own (ports 2377,
# 7946 and 4789 once per member), and Docker-in-Docker needs an image this machine cannot pull.
# Why the mount dance: `ip netns exec` mounts a fresh /sys, which hides the cgroup hierarchies
# dockerd needs; the engine is started with nsenter (network only) in a mount namespace of its
# own in which /sys is the namespace's and the cgroups are bound back in.
# They share this machine's kernel and CPUs: the hosts are separate engines and networks, not
# separate hardware (what they prove is the placement, not the capacity). Root only.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
# shellcheck source=lib/versions.sh
source scripts/lib/versions.sh

BRIDGE=tlsw0
SUBNET_PREFIX=10.198.0
IMAGES=("$IMAGE_DB" "$IMAGE_WILDFLY" "$IMAGE_K6" tuninglab/haproxy:trixie)
MAX_HOSTS=5
FORWARD_RULE=(DOCKER-USER -i "$BRIDGE" -o "$BRIDGE" -j ACCEPT)

say() { printf 'swarm-hosts: %s\n' "$*"; }
die() { printf 'swarm-hosts: %s\n' "$*" >&2; exit 1; }
host_name() { echo "tl-h$1"; }
socket_of() { echo "unix:///run/$(host_name "$1")/docker.sock"; }
engine() { docker -H "$(socket_of "$1")" "${@:2}"; }
answers() { engine "$1" info >/dev/null 2>&1; }
hosts_made() { ip netns list 2>/dev/null | grep -oE '^tl-h[0-9]+' | sed 's/tl-h//' | sort -n; }

make_host() {
  local i=$1 name; name=$(host_name "$i")
  ip netns list | grep -qw "$name" || ip netns add "$name"
  if ! ip link show "$name-o" >/dev/null 2>&1; then
    ip link add "$name-o" type veth peer name eth0 netns "$name"
    ip link set "$name-o" master "$BRIDGE" up
    ip -n "$name" addr add "$SUBNET_PREFIX.1$i/24" dev eth0
    ip -n "$name" link set eth0 up
    ip -n "$name" link set lo up
    ip -n "$name" route add default via "$SUBNET_PREFIX.1"
  fi
  answers "$i" && return 0
  mkdir -p "/run/$name" "/var/lib/$name"
  # each engine's own networks come from its own pool, so no two engines hand out one subnet
  nsenter --net="/run/netns/$name" unshare --uts --mount --propagation slave sh -c "
    hostname $name
    mkdir -p /run/$name/cgroup && mount --rbind /sys/fs/cgroup /run/$name/cgroup
    umount -l /sys && mount -t sysfs sysfs /sys && mount --rbind /run/$name/cgroup /sys/fs/cgroup
    exec setsid dockerd --host $(socket_of "$i") --data-root /var/lib/$name \
      --exec-root /run/$name/exec --pidfile /run/$name/docker.pid \
      --default-address-pool base=10.2$i.0.0/16,size=24
  " >"/tmp/$name-dockerd.log" 2>&1 </dev/null &
}

start() {
  [[ "$(id -u)" == 0 ]] || die "starting dockerd needs root"
  local count=${1:-3} t0 i
  [[ "$count" =~ ^[0-9]+$ ]] && ((count >= 2 && count <= MAX_HOSTS)) \
    || die "the number of hosts must be 2 to $MAX_HOSTS, not '$count'"
  docker info >/dev/null 2>&1 || die "the first engine does not answer: run bash scripts/setup.sh"
  t0=$(date +%s)
  if ! ip link show "$BRIDGE" >/dev/null 2>&1; then
    ip link add "$BRIDGE" type bridge
    ip addr add "$SUBNET_PREFIX.1/24" dev "$BRIDGE"
    ip link set "$BRIDGE" up
  fi
  # the first engine drops forwarded packets it does not know, bridged ones included
  iptables -C "${FORWARD_RULE[@]}" 2>/dev/null || iptables -I "${FORWARD_RULE[@]}"
  for i in $(seq 1 "$count"); do make_host "$i"; done
  for i in $(seq 1 "$count"); do
    for _ in $(seq 1 60); do answers "$i" && break; sleep 0.5; done
    answers "$i" || die "$(host_name "$i")'s engine did not answer within 30 s; see /tmp/$(host_name "$i")-dockerd.log"
  done
  if [[ "$(engine 1 info --format '{{.Swarm.LocalNodeState}}')" != active ]]; then
    engine 1 swarm init --advertise-addr "$SUBNET_PREFIX.11" >/dev/null
  fi
  local token; token=$(engine 1 swarm join-token -q worker)
  for i in $(seq 2 "$count"); do
    [[ "$(engine "$i" info --format '{{.Swarm.LocalNodeState}}')" == active ]] \
      || engine "$i" swarm join --advertise-addr "$SUBNET_PREFIX.1$i" --token "$token" \
           "$SUBNET_PREFIX.11:2377" >/dev/null
  done
  for i in $(seq 1 "$count"); do
    engine 1 node update --label-add "tuninglab.engine=$(socket_of "$i")" "$(host_name "$i")" >/dev/null
  done
  say "swarm of $count hosts formed in $(( $(date +%s) - t0 )) s"
  copy_images "$count"
  say "ready in $(( $(date +%s) - t0 )) s: $(env_line)"
}

# Each host's engine needs the images of the roles it may run; the lab copies a seeded
# database image it builds later itself (placement: images.ensure_on).
copy_images() {
  local count=$1 i t0 missing
  for i in $(seq 1 "$count"); do
    missing=()
    for image in "${IMAGES[@]}"; do
      engine "$i" image inspect "$image" >/dev/null 2>&1 || missing+=("$image")
    done
    ((${#missing[@]})) || continue
    t0=$(date +%s)
    docker save "${missing[@]}" | engine "$i" load -q >/dev/null
    say "$(host_name "$i"): ${#missing[@]} image(s) copied in $(( $(date +%s) - t0 )) s"
  done
}

stop() {
  local i name pid
  for i in $(hosts_made | sort -rn); do
    name=$(host_name "$i")
    if answers "$i"; then
      engine "$i" ps -aq | xargs -r docker -H "$(socket_of "$i")" rm -f >/dev/null || true
      engine "$i" swarm leave --force >/dev/null 2>&1 || true
    fi
    if [[ -f "/run/$name/docker.pid" ]]; then
      pid=$(cat "/run/$name/docker.pid")
      kill "$pid" 2>/dev/null || true
      for _ in $(seq 1 60); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
    fi
    ip netns del "$name" 2>/dev/null || true
    rm -rf "/var/lib/$name" "/run/$name"
  done
  ip link del "$BRIDGE" 2>/dev/null || true
  while iptables -C "${FORWARD_RULE[@]}" 2>/dev/null; do iptables -D "${FORWARD_RULE[@]}"; done
  say "stopped; hosts, data roots and bridge removed"
}

env_line() { echo "export TUNINGLAB_SWARM=$(socket_of 1)"; }

case "${1:-}" in
  start) start "${2:-3}" ;;
  stop) stop ;;
  env) env_line ;;
  *) die "usage: bash scripts/swarm-hosts.sh start [N] | stop | env" ;;
esac
