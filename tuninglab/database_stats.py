"""What the database saw during a measured window: statements the app ran, rows they updated
and inserted, WAL bytes, transactions committed and rolled back, and the aborts the database
forced (deadlocks, serialization failures).

These prove what a change to the application did, from the database's side (one query
instead of N+1 shows as fewer statements a transaction; a store that writes only what changed
as fewer updated rows and fewer WAL bytes), and they are the measure where a source's claim is
about aborts rather than speed (deadlocks, and the serialization failures of a stricter
isolation level). A recipe asks for them with ``"database"``
(RUNTIME_NAME) in ``metrics.runtime``.

Counters are cumulative, so a window is two readings and a difference, as for CPU
(telemetry.py). Where they come from decides how exact they are:
- statements and their rows come from pg_stat_statements (the image preloads it:
  snippets/baseline/postgresql.conf), which counts each statement as it ends, and the WAL
  position is the server's own: both are exact at the window's edges;
- deadlocks and serialization failures are counted in the server's log, where each is written
  as it happens: exact too;
- commits and rollbacks come from pg_stat_database, to which a busy backend reports when a
  transaction ends, at most once a second, and an idle one only after seconds: each edge lags
  the load (SETTLE_S below keeps most of the previous arm's counts out of a window; the
  statistics' deadlock count lags the same way, which is why the log is read instead).
Transaction control (BEGIN, COMMIT, SET ...) is not counted as a statement. A reading runs in
the database that holds the extension's views (``VIEWS_IN``), never in an app's, so it counts
none of itself (until 5 December 2026 the views were in order-entry's database, whose figures
then held one statement and one commit a window of the reading's own).
"""
from __future__ import annotations

import json
import time
from dataclasses import replace

import docker

RUNTIME_NAME = "database"  # what a recipe names in metrics.runtime to have these figures

# Statements that only steer a transaction or a session, left out of the statement count.
CONTROL = "begin|commit|rollback|start|set|show|savepoint|release|discard|reset"
# One reading of the database ``{database}`` (a name checked by apps.py).
READING = """SELECT json_build_object(
    'commits', d.xact_commit, 'rollbacks', d.xact_rollback,
    'wal_bytes', pg_current_wal_lsn() - '0/0'::pg_lsn,
    'statements', (SELECT coalesce(sum(s.calls), 0) FROM pg_stat_statements s
                   WHERE s.dbid = d.datid AND s.query !~* '^\\s*(""" + CONTROL + """)\\M'),
    'updated', (SELECT coalesce(sum(s.rows), 0) FROM pg_stat_statements s
                WHERE s.dbid = d.datid AND s.query ~* '^\\s*update\\M'),
    'inserted', (SELECT coalesce(sum(s.rows), 0) FROM pg_stat_statements s
                 WHERE s.dbid = d.datid AND s.query ~* '^\\s*insert\\M'))
FROM pg_stat_database d WHERE d.datname = '{database}'"""

LOGGED = ("deadlocks", "serialization_failures")  # containers.PostgresNode.aborts_logged
COUNTERS = ("commits", "rollbacks", *LOGGED, "wal_bytes", "statements", "updated", "inserted")
PER_TRANSACTION = ("statements", "updated", "inserted", "wal_bytes", "commits", "rollbacks")


# Where pg_stat_statements' views are: the database every cluster has, in which the lab's
# database image creates the extension (images/db/init-db.sh); they show every database's
# statements, and READING picks the app's by its database id.
VIEWS_IN = "postgres"


def read(db, database: str, views_in: str = VIEWS_IN) -> dict:
    """The counters of ``database`` on the PostgreSQL container ``db`` (containers.PostgresNode),
    read in ``views_in`` (where pg_stat_statements' views are), or {"error": ...} when they
    cannot be read (the window then has no database figures)."""
    try:
        text = db.sql(READING.format(database=database), database=views_in)
        reading = json.loads(text) if text else None
        aborts = db.aborts_logged()
    except (RuntimeError, ValueError, docker.errors.DockerException) as error:
        return {"error": f"{type(error).__name__}: {str(error)[-300:]}"}
    if reading is None:
        return {"error": f"no database {database!r} on the server"}
    return {**{key: float(reading[key]) for key in COUNTERS if key not in LOGGED},
            **{key: float(aborts[key]) for key in LOGGED}}


def window(before: dict, after: dict, transactions: int, load_s: float,
           cut_off: int = 0) -> dict:
    """The window's differences, and per app transaction (``transactions``: the load's
    completed ones): what a change to the app is read back from.

    ``cut_off`` is the most requests whose statements the window may hold without their
    completion: k6 stops a run without waiting for the requests in flight (gracefulStop 0), and
    the server goes on with them, so the window counts part of the settling run's last
    requests, after its first reading, and part of its own last ones, before its second. Per
    transaction, a figure is therefore high by up to ``cut_off / transactions`` of itself: 5.37
    statements for ECperf's five, at 64 callers in a 3 s window on a busy machine (CI failed on
    it, 2 December 2026); about 1 % in a published window. database_read_back.py allows it."""
    if "error" in before or "error" in after:
        return {"error": before.get("error") or after.get("error")}
    delta = {key: after[key] - before[key] for key in COUNTERS}
    per_tx = {key: delta[key] / transactions for key in PER_TRANSACTION} if transactions else {}
    aborts = delta["deadlocks"] + delta["serialization_failures"]
    return {**delta, "per_tx": per_tx, "transactions": transactions, "cut_off": cut_off,
            "deadlocks_per_min": delta["deadlocks"] * 60 / load_s if load_s > 0 else None,
            # the aborts the database forced, per thousand completed transactions (each abort
            # the app then retried, or gave up on: api.jsp of apps/workorders)
            "aborts_per_ktx": aborts * 1000 / transactions if transactions else None}


# Statements of the app's database still running or waiting (for a lock, a retry), the reader's
# own left out.
_WORKING = """FROM pg_stat_activity WHERE datname = '{database}'
    AND state NOT IN ('idle') AND pid <> pg_backend_pid()"""
BUSY = "SELECT count(*) " + _WORKING


# The app's statements still running when the wait's patience ends: cancelled, so that the
# next window starts on a quiet database (the transaction fails in the app, for a client that
# has gone). Client backends only: the lab's own readings and PostgreSQL's workers are not.
CANCEL = "SELECT count(pg_cancel_backend(pid)) " + _WORKING + " AND backend_type = 'client backend'"


def wait_until_quiet(db, database: str, timeout_s: float = 60.0, poll_s: float = 0.2,
                     cancel_after_s: float | None = None) -> float:
    """Wait until no backend of ``database`` is busy; return the seconds waited. After
    ``cancel_after_s`` the statements still running are cancelled (once), and the wait goes on
    until they have rolled back.

    A closed-model window ends with each user's last request cut off, and the server finishes
    them. Where they deadlock and retry (a second per deadlock found), they can outlive the
    node's own idle check by tens of seconds, and a deadlock among them would be counted in the
    next arm's window (ecperf-sorted-access, 28 November 2026: two in a sorted window, after a
    baseline whose transactions took up to 4.5 s)."""
    began = time.monotonic()
    cancelled = False
    while time.monotonic() - began < timeout_s:
        try:
            if db.sql(BUSY.format(database=database), database=database) == "0":
                break
            if not cancelled and cancel_after_s is not None \
                    and time.monotonic() - began >= cancel_after_s:
                db.sql(CANCEL.format(database=database), database=database)
                cancelled = True
        except RuntimeError:
            break  # a database that cannot say is not waited for; the read-back shows the rest
        time.sleep(poll_s)
    return time.monotonic() - began


# Seconds of the arm's own load before a window whose database figures are read: a busy backend
# reports the previous window's last second at its next transaction a second or more after its
# last report, so two seconds of settling put the previous arm's counts before the window, not
# in it (the quick profile settles for 0 s otherwise).
SETTLE_S = 2


def settled(profile, reads_database: bool):
    """``profile`` (recipe.Profile), with at least SETTLE_S of settling where the recipe reads
    the database's figures."""
    if not reads_database or profile.settle_s >= SETTLE_S:
        return profile
    return replace(profile, settle_s=SETTLE_S)
