#!/usr/bin/env bash
# Builds the project's Debian base image without any registry:
#   debootstrap --variant=minbase SUITE <dir> MIRROR, then docker import of that tree.
# It stands in for the official debian:SUITE image, which cannot be pulled offline.
# Needs root (debootstrap) and a Docker engine.
#
# usage: images/base/build.sh TAG WORKDIR [SUITE] [MIRROR]
#   e.g. images/base/build.sh tuninglab/base:trixie .build/base trixie http://deb.debian.org/debian
set -euo pipefail

tag="${1:?usage: build.sh TAG WORKDIR [SUITE] [MIRROR]}"
work="${2:?usage: build.sh TAG WORKDIR [SUITE] [MIRROR]}"
suite="${3:-trixie}"
mirror="${4:-http://deb.debian.org/debian}"
rootfs="$work/rootfs"

cleanup() { rm -rf "$rootfs"; }
trap cleanup EXIT

rm -rf "$rootfs"
mkdir -p "$work"
debootstrap --variant=minbase "$suite" "$rootfs" "$mirror"

# What the image does not need: package caches and lists (apt-get update runs in each build).
rm -rf "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/cache/apt/*.bin \
  "$rootfs"/var/lib/apt/lists/* "$rootfs"/tmp/*
# As in Debian's official images: apt keeps no downloaded packages after an install.
cat >"$rootfs/etc/apt/apt.conf.d/docker-clean" <<'EOF'
DPkg::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
APT::Update::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
Dir::Cache::pkgcache "";
Dir::Cache::srcpkgcache "";
EOF

tar --numeric-owner -C "$rootfs" -c . \
  | docker import \
      --change "LABEL tuninglab.image=base tuninglab.base=debootstrap-minbase-$suite" \
      --change 'ENV LANG=C.UTF-8' \
      --change 'CMD ["/bin/bash"]' \
      - "$tag"
echo "built $tag from debootstrap $suite ($mirror)"
