"""Failure classes and their exit codes: what the CLI prints and returns for each.

Modules keep their own error types (RecipeError in recipe.py, ResultError in store.py,
ChangeNotEffective in changes/checks.py, StartupError in containers.py...); ``classify`` maps
any of them, and any Docker error, to one ``Failure``: a class, an exit code and a message that
says what happened and what to do. The CLI prints the message, never a traceback (``--debug``
shows it).
"""
from __future__ import annotations

import os
from dataclasses import dataclass

__all__ = ["DirtyTree", "Failure", "classify", "EXIT_CODES"]

EXIT_CODES = {
    "done": 0,
    "internal": 1,  # a defect of the lab itself: report it with the --debug traceback
    "input": 2,  # a recipe, a change file, a profile, a result file, an argument
    "not-measured": 3,  # the change did not take effect, a node did not start: nothing stored
    "invalid": 4,  # the run finished and is invalid: stored with its problems
    "environment": 5,  # no engine, an image missing, the disk full, a container that died
    "interrupted": 130,  # Ctrl-C or a termination signal: containers removed, nothing stored
}


class DirtyTree(RuntimeError):
    """A run meant for the site, from a tree whose measured inputs have uncommitted changes."""


@dataclass(frozen=True)
class Failure:
    kind: str  # a key of EXIT_CODES
    message: str

    @property
    def exit_code(self) -> int:
        return EXIT_CODES[self.kind]


def classify(exc: BaseException) -> Failure:
    """The failure class of an exception, with a message for the user."""
    import docker.errors

    from .apps import AppError
    from .changes.checks import ChangeNotEffective
    from .cluster import ClusterError, ClusterInputError
    from .cleanup import EnginesLost
    from .containers import StartupError
    from .images import ImageMissingError
    from .load import SmokeTestFailed
    from .network import NetworkToolMissing
    from .placement import HostLost, PlacementError
    from .recipe import RecipeError
    from .porting import PortError
    from .scaffold import InitError
    from .store import ResultError, ResultExistsError
    from .warmup import WarmUpFailed

    if isinstance(exc, KeyboardInterrupt):
        return Failure("interrupted", f"interrupted ({str(exc) or 'Ctrl-C'}); the run's containers "
                                      f"were removed and no result was stored")
    if isinstance(exc, (RecipeError, ResultError, DirtyTree, ClusterInputError, AppError,
                        InitError, PortError, PlacementError)):
        return Failure("input", str(exc))
    if isinstance(exc, HostLost):
        return Failure("environment", str(exc))
    if isinstance(exc, EnginesLost):
        return Failure("environment", f"{exc}; nothing was stored")
    if isinstance(exc, ResultExistsError):
        return Failure("environment", str(exc))
    if isinstance(exc, (ChangeNotEffective, WarmUpFailed, SmokeTestFailed, StartupError,
                        ClusterError)):
        return Failure("not-measured", f"{exc}\nnothing was measured or stored")
    if isinstance(exc, (ImageMissingError, NetworkToolMissing)):
        return Failure("environment", str(exc))
    if isinstance(exc, docker.errors.ImageNotFound):
        return Failure("environment", f"an image is missing ({_explanation(exc)}); build the "
                                      f"images with: bash scripts/setup.sh")
    if isinstance(exc, docker.errors.ContainerError):
        return Failure("environment", f"a container of {exc.image} exited with code "
                                      f"{exc.exit_status}: {_explanation(exc.stderr or b'')}")
    if isinstance(exc, docker.errors.DockerException):
        return Failure("environment", _docker_message(exc))
    if isinstance(exc, OSError) and exc.errno == 28:  # ENOSPC
        return Failure("environment", f"the disk is full ({exc.filename or 'writing'}); free "
                                      f"space (docker system prune removes unused images and "
                                      f"containers) and run again")
    return Failure("internal", f"internal error: {type(exc).__name__}: {exc}; this is a defect "
                               f"of the lab: run again with --debug and report the traceback")


def _explanation(exc) -> str:
    if isinstance(exc, bytes):
        exc = exc.decode("utf-8", "replace")
    text = getattr(exc, "explanation", None) or str(exc)
    return " ".join(str(text).split())[:300]


def _docker_message(exc) -> str:
    """What a Docker error really means: the engine is down, the disk is full, a container
    died, or the engine refused a request (its own words)."""
    import docker.errors
    text = _explanation(exc)
    where = os.environ.get("DOCKER_HOST", "unix:///var/run/docker.sock")
    if not isinstance(exc, docker.errors.APIError):
        return (f"no Docker engine answers at {where} ({text}); start one with: "
                f"bash scripts/setup.sh")
    if "no space left on device" in text.lower():
        return ("the Docker engine's disk is full (no space left on device); free space "
                "(docker system prune) and run again")
    if isinstance(exc, docker.errors.NotFound):
        return (f"a container or network of the run disappeared while it ran ({text}); another "
                f"process may have removed it; run again")
    return f"the Docker engine refused a request: {text}"
