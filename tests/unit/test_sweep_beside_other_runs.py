"""The sweep of dead runs while another run removes containers (cleanup.sweep_dead_runs)."""
from __future__ import annotations

import socket

import docker.errors

from tuninglab import cleanup


class _Container:
    def __init__(self, cid: str, removed_first: bool = False):
        self.id = self.name = cid
        self.labels = {cleanup.HOST_LABEL: socket.gethostname(), cleanup.PID_LABEL: "999999999"}
        self.removed_first = removed_first  # another run removes it before this sweep does
        self.removed = False

    def remove(self, **_):
        if self.removed_first:
            raise docker.errors.NotFound("No such container")
        self.removed = True


class _Containers:
    def __init__(self, listed, gone):
        self.listed, self.gone = listed, gone

    def list(self, all=False, filters=None, ignore_removed=False):
        # docker-py inspects each listed container; one removed meanwhile is a 404 unless
        # ignore_removed
        if self.gone and not ignore_removed:
            raise docker.errors.NotFound("No such container")
        return self.listed


class _Networks:
    def list(self, filters=None):
        return []


class _Client:
    def __init__(self, listed, gone=False):
        self.containers, self.networks = _Containers(listed, gone), _Networks()


def test_a_container_removed_while_listed_or_before_its_removal_is_skipped():
    kept, raced = _Container("dead-run-node"), _Container("removed-by-another", True)
    removed = cleanup.sweep_dead_runs(_Client([kept, raced], gone=True))
    assert kept.removed
    assert removed == ["container dead-run-node"]
