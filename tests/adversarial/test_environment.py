"""A broken environment: each failure class has its exit code and says what really happened
(no engine, an image missing, a full disk, a container that died), never "reinstall" for all."""
from __future__ import annotations

import docker.errors
import pytest

from advkit import NO_ENGINE, assert_clean_error
from tuninglab.errors import EXIT_CODES, classify
from tuninglab.images import ImageMissingError


class _Response:
    """Just enough of a requests response for docker.errors.APIError."""

    def __init__(self, status: int):
        self.status_code = status
        self.reason = "error"
        self.url = "http://engine/containers/create"


@pytest.mark.parametrize("exc, kind, needles", [
    (docker.errors.DockerException("Error while fetching server API version"), "environment",
     ["no Docker engine answers", "bash scripts/setup.sh"]),
    (docker.errors.APIError("500", _Response(500), explanation="write /var/lib/docker/x: no space "
                                                               "left on device"),
     "environment", ["disk is full", "docker system prune"]),
    (docker.errors.NotFound("404", _Response(404), explanation="No such container: tl-x-db"),
     "environment", ["disappeared", "tl-x-db"]),
    (docker.errors.ImageNotFound("404", _Response(404), explanation="No such image: tuninglab/db:17"),
     "environment", ["image is missing", "bash scripts/setup.sh"]),
    (docker.errors.APIError("409", _Response(409), explanation="Conflict: name in use"),
     "environment", ["refused", "Conflict"]),
    (ImageMissingError("image(s) not found: tuninglab/db:17; build them with: bash scripts/setup.sh"),
     "environment", ["tuninglab/db:17"]),
    (OSError(28, "No space left on device", "/srv/lab/results/x.json"), "environment",
     ["disk is full", "results/x.json"]),
    (KeyboardInterrupt(), "interrupted", ["containers were removed"]),
    (ZeroDivisionError("division by zero"), "internal", ["defect of the lab", "--debug"]),
], ids=["engine down", "disk full", "container gone", "image missing (engine)", "engine refuses",
        "image missing (lab)", "disk full (local)", "interrupted", "a defect"])
def test_each_failure_class_says_what_happened(exc, kind, needles):
    failure = classify(exc)
    assert failure.kind == kind and failure.exit_code == EXIT_CODES[kind]
    for needle in needles:
        assert needle in failure.message, failure.message


def test_a_container_that_died_names_its_image_and_its_last_words():
    err = docker.errors.ContainerError("c1", 137, ["java", "-version"], "tuninglab/wildfly:39.0.1",
                                       b"Killed: out of memory")
    failure = classify(err)
    assert failure.exit_code == 5
    assert "tuninglab/wildfly:39.0.1" in failure.message and "137" in failure.message
    assert "out of memory" in failure.message


def test_run_without_an_engine_stops_at_the_engine_not_before(repo):
    """A valid recipe passes the offline checks and then meets the missing engine: exit 5."""
    assert_clean_error(repo.cli("run", "pool-size"), 5, "no Docker engine answers", NO_ENGINE)


def test_validate_without_an_engine_says_what_it_skipped(repo):
    outcome = repo.cli("validate")
    assert outcome.code == 0, outcome.text
    assert "no Docker engine answers" in outcome.err and "skipped" in outcome.err
