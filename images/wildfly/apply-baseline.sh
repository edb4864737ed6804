#!/bin/sh
# Applies the baseline jboss-cli script to each named server configuration, offline
# (embed-server: no ports opened), in one CLI run. Used at image build.
# usage: apply-baseline.sh CLI-FILE CONFIG...   e.g. apply-baseline.sh wildfly.cli standalone.xml
set -eu
cli="$1"
shift
script="$(mktemp)"
for config in "$@"; do
  echo "embed-server --std-out=discard --server-config=$config"
  cat "$cli"
  echo
  echo "stop-embedded-server"
done >"$script"
"$JBOSS_HOME/bin/jboss-cli.sh" --file="$script"
rm -f "$script"
