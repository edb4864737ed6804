#!/bin/sh
# jboss-cli for recipes: `docker exec <container> tl-cli --connect --command=...`.
# The server's JAVA_OPTS (a recipe's heap, GC logging ...) must not leak into the CLI's own
# JVM, so it gets small, fast-starting options of its own.
JAVA_OPTS="-Xms32m -Xmx128m -XX:TieredStopAtLevel=1 -XX:+UseSerialGC"
export JAVA_OPTS
exec /opt/wildfly/bin/jboss-cli.sh "$@"
