# Step 5: container images, built locally (no registry is needed).
#
# Each image is registered with image_register NAME TAG STAGE_FUNCTION (see stack-images.sh).
# Building one: the stage function fills .build/NAME/ with the complete build context; the
# context, the base image id and the build arguments are hashed; the build is skipped when an
# image labelled tuninglab.context-hash=<hash> exists. Builds use the legacy builder (the
# client may have no buildx), so Dockerfiles use plain COPY (no --chmod).

IMAGE_NAMES=()
declare -A IMAGE_TAG=() IMAGE_STAGE=()
# Build arguments a stage function wants (NAME=value), reset before each stage.
STAGE_BUILD_ARGS=()

image_register() {
  IMAGE_NAMES+=("$1")
  IMAGE_TAG[$1]="$2"
  IMAGE_STAGE[$1]="$3"
}

# stage_require FILE WHAT-TO-DO: a stage function's input must exist (in --check mode: note it).
stage_require() {
  [[ -e "$1" ]] && return 0
  if checking; then
    STAGE_MISSING="${1#"$ROOT"/}"
    return 0
  fi
  die "${1#"$ROOT"/} is missing (needed to build an image)" "$2"
}

image_label() { docker image inspect -f "{{index .Config.Labels \"$2\"}}" "$1" 2>/dev/null || true; }
image_id() { docker image inspect -f '{{.Id}}' "$1" 2>/dev/null || true; }

# Sets TL_BASE_IMAGE and TL_BASE_ID: $TUNINGLAB_BASE_IMAGE if set, else our own debootstrap base.
base_image_ensure() {
  local t0
  if [[ -n "${TUNINGLAB_BASE_IMAGE:-}" ]]; then
    TL_BASE_IMAGE="$TUNINGLAB_BASE_IMAGE"
    TL_BASE_ID="$(image_id "$TL_BASE_IMAGE")"
    [[ -n "$TL_BASE_ID" ]] || die "TUNINGLAB_BASE_IMAGE=$TL_BASE_IMAGE is not an image on this engine" \
      "pull or build it first (e.g. docker pull debian:trixie-slim), or unset TUNINGLAB_BASE_IMAGE"
    say "image $TL_BASE_IMAGE (base, from TUNINGLAB_BASE_IMAGE) ... present"
    return
  fi
  TL_BASE_IMAGE="$BASE_IMAGE_DEFAULT"
  TL_BASE_ID="$(image_id "$TL_BASE_IMAGE")"
  if [[ -n "$TL_BASE_ID" ]]; then
    say "image $TL_BASE_IMAGE (base) ... up to date"
    return
  fi
  if checking; then outdated "image $TL_BASE_IMAGE (base)" "not built yet"; return; fi
  [[ "$(id -u)" == 0 ]] || die "building the base image $TL_BASE_IMAGE needs root (debootstrap)" \
    "run scripts/setup.sh as root once, or set TUNINGLAB_BASE_IMAGE to a Debian trixie image you have"
  have debootstrap || apt_install debootstrap
  t0="$(now)"
  say "image $TL_BASE_IMAGE (base) ... building with debootstrap $BASE_SUITE (log: ${TL_LOGS#"$ROOT"/}/base.log)"
  run_logged "$TL_LOGS/base.log" "building the base image with debootstrap" \
    bash "$ROOT/images/base/build.sh" "$TL_BASE_IMAGE" "$TL_BUILD/base" "$BASE_SUITE" "$BASE_MIRROR"
  TL_BASE_ID="$(image_id "$TL_BASE_IMAGE")"
  [[ -n "$TL_BASE_ID" ]] || die "the base image $TL_BASE_IMAGE was not created" "see $TL_LOGS/base.log"
  say "image $TL_BASE_IMAGE (base) ... built in $(elapsed_since "$t0") s"
}

# image_build NAME: stage, hash, and build when no image has that hash.
image_build() {
  local name="$1" tag="${IMAGE_TAG[$1]}" ctx="$TL_BUILD/$1" hash current found reason t0
  local -a args=()
  STAGE_BUILD_ARGS=()
  rm -rf "$ctx"
  mkdir -p "$ctx"
  STAGE_MISSING=""
  "${IMAGE_STAGE[$name]}" "$ctx"
  if [[ -n "$STAGE_MISSING" ]]; then
    outdated "image $tag" "missing input: $STAGE_MISSING"
    return
  fi
  args=(--build-arg "BASE_IMAGE=$TL_BASE_IMAGE")
  local a
  for a in "${STAGE_BUILD_ARGS[@]}"; do args+=(--build-arg "$a"); done
  hash="$( { hash_tree "$ctx"; echo "$TL_BASE_ID"; printf '%s\n' "${args[@]}"; } | sha256sum | cut -c1-32)"

  current="$(image_label "$tag" tuninglab.context-hash)"
  if [[ "$current" == "$hash" ]]; then
    say "image $tag ... up to date"
    return
  fi
  found="$(docker images -q --filter "label=tuninglab.context-hash=$hash" | head -n 1)"
  if [[ -n "$found" ]]; then
    if checking; then outdated "image $tag" "an image with this context exists but is not tagged"; return; fi
    docker tag "$found" "$tag"
    say "image $tag ... up to date (re-tagged existing image $found)"
    return
  fi
  if [[ -z "$current" ]]; then reason="not built yet"; else reason="context changed"; fi
  if checking; then outdated "image $tag" "$reason"; return; fi

  t0="$(now)"
  say "image $tag ... building ($reason; log: ${TL_LOGS#"$ROOT"/}/image-$name.log)"
  run_logged "$TL_LOGS/image-$name.log" "docker build of $tag" \
    env DOCKER_BUILDKIT=0 docker build "${args[@]}" \
      --label "tuninglab.context-hash=$hash" --label "tuninglab.image=$name" \
      -t "$tag" "$ctx"
  say "image $tag ... built in $(elapsed_since "$t0") s ($(docker image inspect -f '{{.Size}}' "$tag" | awk '{ printf "%.0f MB", $1 / 1e6 }'))"
}

step_images() {
  local name
  if ! engine_answers; then
    if checking; then outdated "images" "no Docker engine answers"; return; fi
    die "no Docker engine answers: cannot build images ($(engine_error))" \
      "run bash scripts/setup.sh (its engine step starts one as root), or start dockerd"
  fi
  base_image_ensure
  if checking && [[ -z "${TL_BASE_ID:-}" ]]; then
    say "images ... not checked further (no base image)"
    return
  fi
  for name in "${IMAGE_NAMES[@]}"; do
    image_build "$name"
  done
  checking || image_prune_superseded
}

# Remove our images that a rebuild left untagged; docker keeps any a container still uses.
image_prune_superseded() {
  local freed
  freed="$(docker image prune --force --filter label=tuninglab.image 2>/dev/null \
    | awk '/Total reclaimed space/ { print $4 }')"
  if [[ -n "$freed" && "$freed" != 0B ]]; then say "images ... removed superseded images ($freed)"; fi
}
