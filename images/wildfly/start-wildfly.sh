#!/bin/sh
# Entry point of tuninglab/wildfly: WildFly in the foreground, bound to all addresses.
#
# Environment:
#   SERVER_CONFIG  standalone.xml (default), standalone-ha.xml or standalone-full.xml;
#                  the baseline (snippets/baseline/wildfly.cli) is applied to all three.
#   JAVA_OPTS      the JVM options, used as they are when set (WildFly's standalone.conf
#                  then adds none of its own defaults). Unset: TL_DEFAULT_JAVA_OPTS below.
#   TL_BIND_PRIVATE  address for the "private" interface (JGroups in standalone-ha.xml);
#                  default: this container's address on its first network.
# Extra arguments are passed to standalone.sh (e.g. -Dsome.property=value).
set -eu

# Baseline JVM: a fixed 512 MB heap (no resizing during a measurement) and an explicit
# collector (with one CPU the JVM would otherwise choose SerialGC by itself), plus the
# options WildFly's own default JAVA_OPTS carries.
TL_DEFAULT_JAVA_OPTS="-Xms512m -Xmx512m -XX:+UseG1GC -Djava.net.preferIPv4Stack=true \
-Djboss.modules.system.pkgs=org.jboss.byteman -Djava.awt.headless=true"

if [ -z "${JAVA_OPTS:-}" ]; then
  JAVA_OPTS="$TL_DEFAULT_JAVA_OPTS"
fi
export JAVA_OPTS

if [ -z "${TL_BIND_PRIVATE:-}" ]; then
  TL_BIND_PRIVATE="$(getent hosts "$(hostname)" | awk '{ print $1; exit }')"
fi

exec /opt/wildfly/bin/standalone.sh \
  -b 0.0.0.0 -bmanagement 0.0.0.0 -bprivate "${TL_BIND_PRIVATE:-127.0.0.1}" \
  -c "${SERVER_CONFIG:-standalone.xml}" "$@"
