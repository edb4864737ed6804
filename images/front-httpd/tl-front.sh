#!/bin/sh
# The running front, from inside its container:
#   tl-front protocol              the route in force in the configuration: http or ajp (to
#                                  the node), or closed (every request answered 503: an arm
#                                  whose load goes to the node directly)
#   tl-front protocol NAME         switch it (http, ajp or closed): rewrite the route, check
#                                  the configuration, restart gracefully (requests in flight
#                                  end on the old processes)
#   tl-front status                mod_status's machine-readable page (requests served,
#                                  the configuration's generation)
#   tl-front url NAME              the route by NAME to the node (TL_BACKEND at start)
#   tl-front config                the site in force
set -eu
SITE=/etc/apache2/sites-available/tuninglab.conf
NODE_FILE=/etc/tuninglab/front-node
url() {
  node=$(cat "$NODE_FILE")
  case "$1" in
    http) echo "http://$node:8080/" ;;
    ajp) echo "ajp://$node:8009/" ;;
    closed) echo "http://127.0.0.1:9/" ;;  # nothing listens there: 503 for every request
    *) echo "tl-front: protocol http, ajp or closed, not '$1'" >&2; exit 2 ;;
  esac
}
route() { sed -n 's/^    ProxyPass \/ \(.*\)$/\1/p' "$SITE"; }
case "${1:-}" in
  protocol)
    if [ -z "${2:-}" ]; then
      case "$(route)" in
        http://127.0.0.1:9/) echo closed ;;
        *) route | sed 's/:.*//' ;;
      esac
      exit 0
    fi
    new=$(url "$2")
    sed -i "s|^    ProxyPass / .*|    ProxyPass / $new|" "$SITE"
    apache2ctl configtest 2>/dev/null
    apache2ctl graceful ;;
  status)
    curl -fsS "http://127.0.0.1:8080/tl-front-status?auto" ;;
  url)
    url "${2:-}" ;;
  config)
    cat "$SITE" ;;
  *)
    echo "usage: tl-front protocol [http|ajp|closed] | status | url NAME | config" >&2; exit 2 ;;
esac
