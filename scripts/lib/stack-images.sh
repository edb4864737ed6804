# The images of the stack: one stage function each, registered in build order.
# A stage function fills the build-context directory $1 (.build/NAME/) with everything its
# Dockerfile COPYs, and may append NAME=value to STAGE_BUILD_ARGS. It declares its inputs
# with stage_require first. To add an image: write images/NAME/Dockerfile, a stage_NAME
# function below, and one image_register line.

# Copy images/NAME/ (Dockerfile and the files beside it) into the context.
stage_image_dir() {
  cp -a "$ROOT/images/$1/." "$2/"
}

stage_db() {
  local ctx="$1"
  stage_image_dir db "$ctx"
  cp -p "$ROOT/snippets/baseline/postgresql.conf" "$ctx/postgresql.conf"
}

stage_wildfly() {
  local ctx="$1"
  local zip="$TL_CACHE/wildfly-dist-$WILDFLY_VERSION.zip" jar="$TL_CACHE/postgresql-$PGJDBC_VERSION.jar"
  stage_require "$zip" "run scripts/setup.sh (its downloads step fetches it)"
  stage_require "$jar" "run scripts/setup.sh (its downloads step fetches it)"
  [[ -z "$STAGE_MISSING" ]] || return 0
  stage_image_dir wildfly "$ctx"
  link_or_copy "$zip" "$ctx/wildfly-dist.zip"
  link_or_copy "$jar" "$ctx/modules/org/postgresql/main/postgresql.jar"
  cp -p "$ROOT/snippets/baseline/wildfly.cli" "$ctx/wildfly.cli"
  STAGE_BUILD_ARGS+=("WILDFLY_VERSION=$WILDFLY_VERSION" "PGJDBC_VERSION=$PGJDBC_VERSION")
}

stage_k6() {
  local ctx="$1"
  stage_require "$TL_CACHE/bin/k6" "run scripts/setup.sh (its downloads step builds it)"
  [[ -z "$STAGE_MISSING" ]] || return 0
  stage_image_dir k6 "$ctx"
  link_or_copy "$TL_CACHE/bin/k6" "$ctx/k6"
  mkdir -p "$ctx/workloads"
  if [[ -d "$ROOT/workloads" ]]; then cp -a "$ROOT/workloads/." "$ctx/workloads/"; fi
  STAGE_BUILD_ARGS+=("K6_VERSION=$K6_VERSION")
}

stage_balancer() {
  stage_image_dir balancer "$1"
}

stage_front_httpd() {
  stage_image_dir front-httpd "$1"
}

# An image one layer on top of the common server image (images/NAME/Dockerfile). The wildfly
# image's id goes into the build arguments (and so into the context hash): a rebuilt wildfly
# image rebuilds this one.
stage_on_wildfly() {
  local name="$1" ctx="$2" id
  id="$(docker image inspect -f '{{.Id}}' "$IMAGE_WILDFLY" 2>/dev/null || true)"
  if [[ -z "$id" ]]; then
    if checking; then STAGE_MISSING="$IMAGE_WILDFLY"; return 0; fi
    die "$IMAGE_WILDFLY is missing (the $name image is built on it)" "run bash scripts/setup.sh"
  fi
  stage_image_dir "$name" "$ctx"
  STAGE_BUILD_ARGS+=("WILDFLY_IMAGE=$IMAGE_WILDFLY" "WILDFLY_IMAGE_ID=$id")
}

# The common server image with the next long-term JDK beside 21 (change kind "jdk").
stage_wildfly_next_jdk() {
  stage_on_wildfly wildfly-next-jdk "$1"
}

# The common server image with libaio, for Artemis's native journal (change kind "node-image").
stage_wildfly_libaio() {
  stage_on_wildfly wildfly-libaio "$1"
}

# The common server image with async-profiler's agent on disk (change kind "jvm-agent"). Its
# release is named in the image's folder (async-profiler.env); the jar from Maven Central holds
# the agent of every platform, of which the context takes the linux-x64 one.
stage_wildfly_async_profiler() {
  local ctx="$1" version jar
  version="$(sed -n 's/^ASYNC_PROFILER_VERSION=//p' "$ROOT/images/wildfly-async-profiler/async-profiler.env")"
  jar="async-profiler-$version.jar"
  maven_fetch "tools.profiler:async-profiler:$version:jar" "$jar"
  stage_require "$TL_CACHE/$jar" "run scripts/setup.sh (it fetches it from Maven Central)"
  stage_on_wildfly wildfly-async-profiler "$ctx"
  [[ -z "$STAGE_MISSING" ]] || return 0
  python3 -c 'import sys, zipfile; sys.stdout.buffer.write(zipfile.ZipFile(sys.argv[1]).read(sys.argv[2]))' \
    "$TL_CACHE/$jar" linux-x64/libasyncProfiler.so >"$ctx/libasyncProfiler.so" || true
  [[ -s "$ctx/libasyncProfiler.so" ]] || die "$jar holds no linux-x64/libasyncProfiler.so" \
    "name a release of tools.profiler:async-profiler that ships it in async-profiler.env"
  STAGE_BUILD_ARGS+=("ASYNC_PROFILER_VERSION=$version")
}

# The load generator of an app driven by a client JVM (driver "java-client"): the server image
# for its JDK and WildFly's client library, with k6 copied from the k6 image.
stage_java_client() {
  local ctx="$1" id
  stage_on_wildfly java-client "$ctx"
  [[ -z "$STAGE_MISSING" ]] || return 0
  id="$(docker image inspect -f '{{.Id}}' "$IMAGE_K6" 2>/dev/null || true)"
  if [[ -z "$id" ]]; then
    if checking; then STAGE_MISSING="$IMAGE_K6"; return 0; fi
    die "$IMAGE_K6 is missing (the java-client image copies its k6)" "run bash scripts/setup.sh"
  fi
  STAGE_BUILD_ARGS+=("K6_IMAGE=$IMAGE_K6" "K6_IMAGE_ID=$id")
}

image_register db "$IMAGE_DB" stage_db
image_register wildfly "$IMAGE_WILDFLY" stage_wildfly
image_register k6 "$IMAGE_K6" stage_k6
# The cluster's balancer (tuninglab/cluster.py). Its name lives here, not in versions.sh: that
# file is one of every result's stack inputs (staleness.py), and a stack without a balancer
# does not change when the balancer does.
image_register balancer tuninglab/haproxy:trixie stage_balancer
# The web server in front of a node (tuninglab/front.py, change kind front-protocol); its name
# lives here and in tuninglab/images.py for the same reason.
image_register front-httpd tuninglab/httpd:trixie stage_front_httpd
# Its name lives here too, and in tuninglab/images.py (JDK_IMAGES): only the recipes that use it
# change when it does.
image_register wildfly-next-jdk tuninglab/wildfly-next-jdk:39.0.1 stage_wildfly_next_jdk
# The same for the images of change kind "node-image" (tuninglab/images.py, NODE_IMAGES).
image_register wildfly-libaio tuninglab/wildfly-libaio:39.0.1 stage_wildfly_libaio
# The same for the agents of change kind "jvm-agent" (tuninglab/images.py, JVM_AGENTS).
image_register wildfly-async-profiler tuninglab/wildfly-async-profiler:39.0.1 stage_wildfly_async_profiler
# The same for the client JVM's load generator (tuninglab/images.py, CLIENT_JVM): only the
# recipes whose app it drives change when it does.
image_register java-client tuninglab/java-client:39.0.1 stage_java_client
