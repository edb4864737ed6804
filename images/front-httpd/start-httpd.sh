#!/bin/sh
# Entry point of tuninglab/httpd: writes the site from the environment, checks the
# configuration, then runs httpd in the foreground (PID 1), which re-reads its configuration
# on a graceful restart (tl-front protocol ...).
#
# Environment:
#   TL_BACKEND   the node's name on the stack's private network (required)
#   TL_PROTOCOL  http (default: mod_proxy_http to the node's port 8080), ajp (mod_proxy_ajp
#                to its port 8009) or closed (503 for every request)
set -eu
: "${TL_BACKEND:?TL_BACKEND names no node: the front passes its requests to one}"
TL_PROTOCOL="${TL_PROTOCOL:-http}"
echo "$TL_BACKEND" > /etc/tuninglab/front-node
set +u  # Debian's envvars reads variables that may be unset
. /etc/apache2/envvars
set -u
mkdir -p "$APACHE_RUN_DIR" "$APACHE_LOCK_DIR" "$APACHE_LOG_DIR"

# The site: port 8080, no access log (each line costs the front CPU that neither protocol
# needs), the status page for the read-back, and one ProxyPass line that tl-front rewrites.
# Connections to the client are kept alive for any number of requests, as the node's own
# listener keeps them; mod_proxy keeps its connections to the node open between requests
# for both protocols (a pool per httpd process).
cat > /etc/apache2/sites-available/tuninglab.conf <<CFG
Listen 8080
ServerName front
MaxKeepAliveRequests 0
KeepAliveTimeout 60
ExtendedStatus On
<VirtualHost *:8080>
    ErrorLog /proc/self/fd/2
    <Location /tl-front-status>
        SetHandler server-status
        Require local
    </Location>
    ProxyPass /tl-front-status !
    # tl-front: the route to the node
    ProxyPass / $(tl-front url "$TL_PROTOCOL")
</VirtualHost>
CFG
# Port 80 of Debian's default configuration is not used.
sed -i 's/^Listen 80$/# Listen 80 (tuninglab: the site listens on 8080)/' /etc/apache2/ports.conf
a2ensite -q tuninglab >/dev/null
apache2ctl configtest
echo "tl-front: starting httpd $(cat /etc/tuninglab/httpd-version), protocol $TL_PROTOCOL, node $TL_BACKEND"
exec /usr/sbin/apache2 -D FOREGROUND
