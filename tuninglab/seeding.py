"""An app's database seed, baked into an image of the lab's PostgreSQL once per seed.

An app that brings its own schema and data (``database`` and ``seed`` in its app.toml,
apps.py) gets them in every database of every stack without loading them at each start: the
first stack that needs them starts the lab's PostgreSQL image once, creates the database,
loads the seed's SQL files in order (as its ``seed_role`` if it names one, with its
``seed_variables``), freezes and analyses the tables (every container then starts from the
same planner statistics), empties the statement statistics, shuts PostgreSQL down cleanly and
commits the container as ``tuninglab/db-seed:<app>-<digest>``. The digest covers the base
image, the database's name, the role, the variables and every file's name and bytes, so an
edited seed is baked again and an unchanged one never is. A seed that fails to load is an
AppError naming the file and PostgreSQL's message with its line; nothing is tagged.

A stack whose nodes deploy several apps with seeds (this checkout's resident order-entry and
the app a recipe drives) gets them all: each seed is baked on top of the one before it, in the
order the nodes deploy the apps (``image_for``), so the chain's last image holds every
database.
"""
from __future__ import annotations

import hashlib
import io
import tarfile
import time

import docker.errors

from . import images
from .apps import App, AppError

__all__ = ["REPOSITORY", "image_for", "seed_tag"]

REPOSITORY = "tuninglab/db-seed"
_SEED_DIR = "/tmp/tuninglab-seed"
READY_TIMEOUT_S = 60


def seed_tag(app: App, base_id: str) -> str:
    """The image a seed is baked into: named after the app, tagged with the seed's digest."""
    digest = hashlib.sha256()
    variables = ",".join(f"{k}={v}" for k, v in sorted(app.seed_variables.items()))
    for part in (base_id.encode(), app.database.encode(), app.seed_role.encode(),
                 variables.encode()):
        digest.update(part + b"\0")
    for path, data in app.seed_files():
        digest.update(path.encode() + b"\0" + hashlib.sha256(data).digest())
    return f"{REPOSITORY}:{app.name}-{digest.hexdigest()[:16]}"


def image_for(client, deployed: list[App], labels: dict[str, str], progress=print) -> str:
    """The database image a stack starts from: the lab's own when no app its nodes deploy
    brings a seed, else the last of the chain of their seeds' images, each baked now on the
    one before it if it does not exist yet."""
    image = images.DB
    for app in (a for a in deployed if a.seed):
        image = _baked(client, app, image, labels, progress)
    return image


def _baked(client, app: App, base: str, labels: dict[str, str], progress) -> str:
    """The image of ``app``'s seed on top of ``base``, baked now if it does not exist yet."""
    tag = seed_tag(app, images.require_images(client, [base])[base])
    try:
        client.images.get(tag)
        return tag
    except docker.errors.ImageNotFound:
        pass
    began = time.monotonic()
    progress(f"stack: baking apps/{app.name}'s seed ({', '.join(app.seed)}) into {tag}, "
             f"once for this seed")
    container = client.containers.run(base, detach=True, labels=labels)
    try:
        _wait_ready(container)
        _put(container, app)
        owner = f' OWNER "{app.seed_role}"' if app.seed_role else ""
        _psql(container, "postgres", ["-c", f'CREATE DATABASE "{app.database}"{owner}'],
              "database")
        as_role = ["-c", f'SET ROLE "{app.seed_role}"'] if app.seed_role else []
        variables = [f"--set={k}={v}" for k, v in sorted(app.seed_variables.items())]
        for number, (path, _) in enumerate(app.seed_files()):
            _psql(container, app.database,
                  [*variables, *as_role, "-f", f"{_SEED_DIR}/{number}.sql"],
                  f"apps/{app.name}/{path}")
        _psql(container, app.database, ["-c", "VACUUM (ANALYZE, FREEZE)", "-c", "CHECKPOINT"],
              "the seed's tables")
        # the statements of the load are no app's: every stack starts with none recorded
        _psql(container, "postgres", ["-c", "SELECT pg_stat_statements_reset()"],
              "the statement statistics")
        container.exec_run(["rm", "-rf", _SEED_DIR], user="root")
        container.stop(timeout=60)  # SIGINT: PostgreSQL's fast, clean shutdown
        repository, _, version = tag.partition(":")
        container.commit(repository=repository, tag=version)
    finally:
        container.remove(force=True, v=True)
    progress(f"stack: baked {tag} in {time.monotonic() - began:.1f} s")
    return tag


def _wait_ready(container) -> None:
    deadline = time.monotonic() + READY_TIMEOUT_S
    while time.monotonic() < deadline:
        if container.exec_run(["pg_isready", "-q"], user="postgres").exit_code == 0:
            return
        time.sleep(0.2)
    raise RuntimeError(f"the database for baking a seed was not ready after {READY_TIMEOUT_S} s")


def _put(container, app: App) -> None:
    """The seed's files, numbered in loading order, readable by PostgreSQL's user."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as tar:
        for number, (_, data) in enumerate(app.seed_files()):
            info = tarfile.TarInfo(f"{_SEED_DIR.lstrip('/')}/{number}.sql")
            info.size, info.mode, info.mtime = len(data), 0o644, 0
            tar.addfile(info, io.BytesIO(data))
    container.put_archive("/", buffer.getvalue())


def _psql(container, database: str, arguments: list[str], what: str) -> None:
    """psql as the superuser, stopping at the first error; AppError with PostgreSQL's message
    (psql names the line: ``psql:<file>:<line>: ERROR: ...``)."""
    result = container.exec_run(["psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", "-d", database,
                                 *arguments], user="postgres")
    if result.exit_code != 0:
        message = result.output.decode(errors="replace").strip()
        for argument in arguments:  # the file as the app's folder names it, not the copy
            if argument.startswith(_SEED_DIR):
                message = message.replace(argument, what)
        raise AppError(f"{what}: the seed did not load: {message[-1500:]}")
