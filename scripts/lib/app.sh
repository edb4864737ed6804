# Step 4: the benchmark application's WAR (apps/orderentry, Maven).

APP_DIR="$ROOT/apps/orderentry"
APP_WAR="$APP_DIR/target/orderentry.war"
APP_STAMP="$APP_DIR/target/.tuninglab-build-hash"

app_source_hash() {
  {
    hash_files "$APP_DIR/pom.xml"
    [[ -d "$APP_DIR/src" ]] && hash_tree "$APP_DIR/src"
  } | sha256sum | cut -d' ' -f1
}

step_app() {
  local want
  [[ -f "$APP_DIR/pom.xml" ]] || die "apps/orderentry/pom.xml is missing" "restore the application from git"
  want="$(app_source_hash)"
  if [[ -f "$APP_WAR" && "$(cat "$APP_STAMP" 2>/dev/null)" == "$want" ]]; then
    say "app apps/orderentry/target/orderentry.war ... up to date"
    return
  fi
  if checking; then outdated "app orderentry.war" "sources changed or WAR missing"; return; fi
  have mvn || die "Maven (mvn) is needed to build apps/orderentry" "install it: apt-get install maven"
  say "app apps/orderentry ... building with mvn package (log: ${TL_LOGS#"$ROOT"/}/app.log)"
  rm -f "$APP_STAMP"
  ( cd "$APP_DIR" && run_logged "$TL_LOGS/app.log" "mvn package in apps/orderentry" \
      mvn -q -B package -DskipTests )
  [[ -f "$APP_WAR" ]] || die "mvn package did not produce apps/orderentry/target/orderentry.war" \
    "check <finalName>orderentry</finalName> in apps/orderentry/pom.xml; log: $TL_LOGS/app.log"
  echo "$want" >"$APP_STAMP"
  say "app apps/orderentry ... built"
}
