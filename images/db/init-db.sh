#!/bin/sh
# Runs once, at image build, as user postgres: creates the cluster and bakes the data set into
# the image, so a container is ready in well under a second (no initdb, no load at start-up).
# usage: init-db.sh SCALE
set -eu
scale="${1:-1}"
conf=/etc/tuninglab/postgresql.conf
data=/var/lib/postgresql/data

initdb --pgdata="$data" --username=postgres --encoding=UTF8 --locale=C.UTF-8 \
  --auth-local=trust --auth-host=scram-sha-256 >/dev/null
# The configuration lives in /etc/tuninglab; drop initdb's copies so nobody edits the wrong file.
rm -f "$data/postgresql.conf" "$data/pg_hba.conf" "$data/pg_ident.conf"

# Listen on the socket only while loading.
pg_ctl --pgdata="$data" --wait --silent \
  --options="-c config_file=$conf -c listen_addresses=''" start

psql -v ON_ERROR_STOP=1 -q -U postgres -d postgres <<'SQL'
CREATE ROLE lab LOGIN PASSWORD 'lab';
CREATE DATABASE orderentry OWNER lab;
SQL
# pg_stat_statements' views, in the application's database (superuser only).
psql -v ON_ERROR_STOP=1 -q -U postgres -d orderentry -c 'CREATE EXTENSION pg_stat_statements'
# The schema and data belong to lab, the application's user.
psql -v ON_ERROR_STOP=1 -q -U lab -d orderentry -f /tmp/sql/schema.sql
psql -v ON_ERROR_STOP=1 -q -U lab -d orderentry -v scale="$scale" -f /tmp/sql/data.sql
# Fresh planner statistics and a visibility map: every container starts from the same state.
psql -v ON_ERROR_STOP=1 -q -U lab -d orderentry -c 'VACUUM (ANALYZE, FREEZE)'
psql -v ON_ERROR_STOP=1 -q -U postgres -d orderentry -c 'SELECT pg_stat_statements_reset()' -c 'CHECKPOINT' >/dev/null

pg_ctl --pgdata="$data" --wait --silent --mode=fast stop
