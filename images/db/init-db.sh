#!/bin/sh
# Runs once, at image build, as user postgres: creates the cluster with the lab's role and
# pg_stat_statements, so a container is ready in well under a second (no initdb at start-up).
# No app's data is baked here: an app's seed is baked into an image of its own on top of this
# one, once per seed (tuninglab/seeding.py).
set -eu
conf=/etc/tuninglab/postgresql.conf
data=/var/lib/postgresql/data

initdb --pgdata="$data" --username=postgres --encoding=UTF8 --locale=C.UTF-8 \
  --auth-local=trust --auth-host=scram-sha-256 >/dev/null
# The configuration lives in /etc/tuninglab; drop initdb's copies so nobody edits the wrong file.
rm -f "$data/postgresql.conf" "$data/pg_hba.conf" "$data/pg_ident.conf"

# Listen on the socket only while loading.
pg_ctl --pgdata="$data" --wait --silent \
  --options="-c config_file=$conf -c listen_addresses=''" start

# The role the lab's own app connects as (snippets/baseline/wildfly.cli's data source).
psql -v ON_ERROR_STOP=1 -q -U postgres -d postgres -c "CREATE ROLE lab LOGIN PASSWORD 'lab'"
# pg_stat_statements' views, in the database every cluster has (superuser only): they show the
# statements of every database (tuninglab/database_stats.py reads them there).
psql -v ON_ERROR_STOP=1 -q -U postgres -d postgres -c 'CREATE EXTENSION pg_stat_statements'
psql -v ON_ERROR_STOP=1 -q -U postgres -d postgres -c 'SELECT pg_stat_statements_reset()' -c 'CHECKPOINT' >/dev/null

pg_ctl --pgdata="$data" --wait --silent --mode=fast stop
