# Step 4: what Maven builds: the apps whose app.toml says artifact = "maven" (their webapp
# under target/; the lab's own orderentry among them), and the server modules a recipe may
# install on its nodes (server-modules/*, one jar each); and what Go builds: the lab's own
# tools (tools/*, one static binary each, copied into containers at run time).

# maven_source_hash DIR: the hash of a Maven project's inputs (pom.xml and src/).
maven_source_hash() {
  {
    hash_files "$1/pom.xml"
    [[ -d "$1/src" ]] && hash_tree "$1/src"
  } | sha256sum | cut -d' ' -f1
}

# build_settled DIR ARTIFACT HASH: true when nothing is to be built: DIR/target/ARTIFACT was
# built from sources of HASH (its stamp says so), or this is --check, which counts it outdated.
build_settled() {
  local dir="$1" artifact="$2" want="$3" rel="${1#"$ROOT"/}"
  if [[ -f "$dir/target/$artifact" \
        && "$(cat "$dir/target/.tuninglab-build-hash" 2>/dev/null)" == "$want" ]]; then
    say "build $rel/target/$artifact ... up to date"
    return 0
  fi
  if checking; then outdated "build $rel/target/$artifact" "sources changed or artifact missing"; return 0; fi
  return 1
}

# maven_build DIR ARTIFACT: mvn package in DIR unless ARTIFACT (under DIR/target) is up to date.
maven_build() {
  local dir="$1" artifact="$2" rel want stamp log
  rel="${dir#"$ROOT"/}"
  stamp="$dir/target/.tuninglab-build-hash"
  log="$TL_LOGS/$(basename "$dir").log"
  [[ -f "$dir/pom.xml" ]] || die "$rel/pom.xml is missing" "restore it from git"
  want="$(maven_source_hash "$dir")"
  build_settled "$dir" "$artifact" "$want" && return
  have mvn || die "Maven (mvn) is needed to build $rel" "install it: apt-get install maven"
  say "build $rel ... mvn package (log: ${log#"$ROOT"/})"
  rm -f "$stamp"
  ( cd "$dir" && run_logged "$log" "mvn package in $rel" mvn -q -B package -DskipTests )
  [[ -f "$dir/target/$artifact" ]] || die "mvn package did not produce $rel/target/$artifact" \
    "check <finalName> in $rel/pom.xml; log: $log"
  echo "$want" >"$stamp"
  say "build $rel ... built"
}

# maven_app_archive APP_TOML: the archive a Maven app's webapp names under target/ (its file
# name), empty for an app of another artifact.
maven_app_archive() {
  grep -qE '^artifact *= *"maven"' "$1" || return 0
  sed -nE 's#^webapp *= *"target/([^"/]+)".*#\1#p' "$1" | head -n 1
}

step_app() {
  local module app archive
  for app in "$ROOT"/apps/*/app.toml; do
    archive="$(maven_app_archive "$app")"
    [[ -n "$archive" ]] || continue
    maven_build "$(dirname "$app")" "$archive"
  done
  for module in "$ROOT"/server-modules/*/; do
    [[ -f "$module/pom.xml" ]] || continue
    maven_build "${module%/}" "$(basename "$module").jar"
  done
  for tool in "$ROOT"/tools/*/; do
    [[ -f "$tool/go.mod" ]] && go_tool_build "${tool%/}"
  done
}

# go_tool_build DIR: go build of the lab's own Go tool in DIR (tools/<name>: one static binary,
# standard library only) into DIR/target/<name>, unless it is up to date.
go_tool_build() {
  local dir="$1" name rel want stamp log
  name="$(basename "$dir")"
  rel="${dir#"$ROOT"/}"
  stamp="$dir/target/.tuninglab-build-hash"
  log="$TL_LOGS/$name.log"
  want="$(hash_files "$dir"/go.mod "$dir"/*.go | sha256sum | cut -d' ' -f1)"
  build_settled "$dir" "$name" "$want" && return
  have go || die "Go is needed to build $rel" "install Go (go.dev/dl), as for k6"
  say "build $rel ... go build (log: ${log#"$ROOT"/})"
  mkdir -p "$dir/target"
  ( cd "$dir" && run_logged "$log" "go build in $rel" \
      env CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" -o "target/$name" . )
  echo "$want" >"$stamp"
  say "build $rel ... built"
}
