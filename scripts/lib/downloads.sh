# Step 3: cached downloads in $TL_CACHE (Maven Central artifacts, Go-built tools).
# Each is fetched once; a file in the cache is only ever complete (fetched aside, then moved).

# maven_fetch GROUP:ARTIFACT:VERSION:TYPE FILE: copy one artifact from Maven Central.
maven_fetch() {
  local coords="$1" file="$2" tmp
  if [[ -s "$TL_CACHE/$file" ]]; then
    say "download $file ... up to date"
    return
  fi
  if checking; then outdated "download $file" "not in $TL_CACHE"; return; fi
  have mvn || die "Maven (mvn) is needed to fetch $coords" "install it: apt-get install maven"
  say "download $file ... fetching $coords from Maven Central"
  mkdir -p "$TL_CACHE"
  tmp="$(mktemp -d "$TL_CACHE/.fetch.XXXXXX")"
  ( cd "$tmp" && run_logged "$TL_LOGS/mvn-fetch.log" "fetching $coords with Maven" \
      mvn -B -q "$MAVEN_DEPENDENCY_PLUGIN:copy" -Dartifact="$coords" -DoutputDirectory="$tmp" )
  [[ -s "$tmp/$file" ]] || die "Maven did not produce $file" "see $TL_LOGS/mvn-fetch.log"
  mv -f "$tmp/$file" "$TL_CACHE/$file"
  rm -rf "$tmp"
}

# The Go module version a binary was built from ("v1.8.1"), empty when unknown.
go_binary_version() {
  have go || return 0
  go version -m "$1" 2>/dev/null | awk -v m="$2" '$1 == "mod" && $2 == m { print $3; exit }'
}

# go_tool NAME PACKAGE MODULE VERSION [ENV...]: `go install PACKAGE@VERSION` into $TL_CACHE/bin.
go_tool() {
  local name="$1" pkg="$2" module="$3" version="$4" bin got
  shift 4
  bin="$TL_CACHE/bin/$name"
  if [[ -x "$bin" ]]; then
    got="$(go_binary_version "$bin" "$module")"
    if [[ "$got" == "$version" ]]; then
      say "tool $name $version ... up to date"
      return
    elif [[ -z "$got" ]] && ! have go; then
      say "tool $name ... present (version not checked: no go on PATH)"
      return
    fi
  fi
  if checking; then outdated "tool $name $version" "${got:-missing}"; return; fi
  have go || die "Go is needed to build $name $version" \
    "install Go >= 1.25 (k6 needs it) and put it on PATH, then rerun"
  say "tool $name $version ... building with go install (minutes; log: ${TL_LOGS#"$ROOT"/}/go-$name.log)"
  mkdir -p "$TL_CACHE/bin"
  run_logged "$TL_LOGS/go-$name.log" "go install $pkg@$version" \
    env GOBIN="$TL_CACHE/bin" "$@" go install "$pkg@$version"
  got="$(go_binary_version "$bin" "$module")"
  [[ "$got" == "$version" ]] || die "go install left $bin at version '${got}', wanted $version" \
    "see $TL_LOGS/go-$name.log"
}

step_downloads() {
  maven_fetch "org.wildfly:wildfly-dist:$WILDFLY_VERSION:zip" "wildfly-dist-$WILDFLY_VERSION.zip"
  maven_fetch "org.postgresql:postgresql:$PGJDBC_VERSION:jar" "postgresql-$PGJDBC_VERSION.jar"
  # k6 goes into a container: a static binary runs on any base image.
  go_tool k6 go.k6.io/k6 go.k6.io/k6 "$K6_VERSION" CGO_ENABLED=0
  go_tool vale github.com/vale-cli/vale/v3/cmd/vale github.com/vale-cli/vale/v3 "$VALE_VERSION"
}
