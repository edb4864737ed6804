"""The CI profile's class-data archive: the classes of a WildFly boot, parsed and verified once.

A node of a profile with ``class_archive = true`` (the CI profile, profiles.toml) maps the
classes of its boot from an archive (AppCDS: a dynamic archive on top of the JDK's own) instead
of reading, parsing and verifying each from its jar. Measured on 27 November 2026, one node
with C1 alone: standalone-ha 15.1 -> 11.9 CPU-s and 10.0 -> 8.2 s to boot, standalone 11.4 ->
9.0 CPU-s. The published runs never use it: they measure the JVM as WildFly starts it.

An archive fits only the JDK and the jars it was made from, so it lives in a Docker volume of
the engine named after the WildFly image's id, made by ``scripts/setup.sh`` (``python -m
tuninglab.cds``): one standalone-ha node (its classes include a standalone node's) boots with
``-XX:ArchiveClassesAtExit`` and is shut down through its management API, the JVM writes the
archive as it exits, and the file is copied into the volume. An engine without the volume (a
remote one, an image rebuilt since) boots its nodes without an archive, and a run says so.
"""
from __future__ import annotations

import io
import sys
import tarfile

import docker

from . import cluster, images
from .stack import CLASS_ARCHIVE_DIR, CLASS_ARCHIVE_FILE, C1_ONLY, DEFAULT_JVM_OPTIONS, NodeConfig, Stack

__all__ = ["volume_for", "ensure"]

VOLUME_PREFIX = "tuninglab-cds-"
_DUMP_PATH = "/tmp/" + CLASS_ARCHIVE_FILE  # inside the node that writes it


def volume_name(client: docker.DockerClient) -> str:
    """The volume the archive of the engine's WildFly image lives in."""
    image_id = client.images.get(images.WILDFLY).id
    return VOLUME_PREFIX + image_id.removeprefix("sha256:")[:12]


def volume_for(client: docker.DockerClient) -> str:
    """The archive's volume if the engine has it, else ""."""
    name = volume_name(client)
    try:
        client.volumes.get(name)
    except docker.errors.NotFound:
        return ""
    return name


def ensure(client: docker.DockerClient, progress=print) -> str:
    """The archive's volume, made first if it is missing or holds no archive."""
    name = volume_for(client)
    if name and _holds_archive(client, name):
        progress(f"class archive {name} ... up to date")
        return name
    if name:  # made by a run that died before its copy
        client.volumes.get(name).remove(force=True)
    name = volume_name(client)
    progress(f"class archive {name} ... making it (one node boots and shuts down)")
    data = _dump(progress)
    _fill(client, name, data)
    progress(f"class archive {name} ... {len(data) / 2**20:.0f} MB")
    return name


def _dump(progress) -> bytes:
    """Boot one standalone-ha node, shut it down, and read the archive its JVM wrote."""
    spec = cluster.ClusterSpec.of(1, 1.0, "roundrobin", 0, key=lambda key: key)
    base = NodeConfig(jit=C1_ONLY,
                      jvm_options=f"{DEFAULT_JVM_OPTIONS} -XX:ArchiveClassesAtExit={_DUMP_PATH}")
    with Stack(nodes=spec.node_configs(base), progress=progress) as stack:
        (name, node), = stack.nodes.items()
        container = node.get_wrapped_container()
        stack.management_of(name).execute("shutdown")
        container.wait(timeout=120)
        chunks, _ = container.get_archive(_DUMP_PATH)
        with tarfile.open(fileobj=io.BytesIO(b"".join(chunks))) as tar:
            return tar.extractfile(CLASS_ARCHIVE_FILE).read()


def _fill(client, name: str, data: bytes) -> None:
    """Copy the archive into a new volume, through a container that never starts."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as tar:
        info = tarfile.TarInfo(CLASS_ARCHIVE_FILE)
        info.size, info.mode = len(data), 0o444
        tar.addfile(info, io.BytesIO(data))
    helper = client.containers.create(images.WILDFLY, entrypoint=["true"],
                                      volumes={name: {"bind": CLASS_ARCHIVE_DIR, "mode": "rw"}})
    try:
        if not helper.put_archive(CLASS_ARCHIVE_DIR, buffer.getvalue()):
            raise RuntimeError(f"could not copy the class archive into volume {name}")
    finally:
        helper.remove(force=True)


def _holds_archive(client, name: str) -> bool:
    try:
        client.containers.run(images.WILDFLY, ["-s", f"{CLASS_ARCHIVE_DIR}/{CLASS_ARCHIVE_FILE}"],
                              entrypoint="test", remove=True,
                              volumes={name: {"bind": CLASS_ARCHIVE_DIR, "mode": "ro"}})
    except docker.errors.ContainerError:
        return False
    return True


def _remove_superseded(client, keep: str) -> None:
    """The archives of WildFly images the engine no longer builds."""
    for volume in client.volumes.list(filters={"name": VOLUME_PREFIX}):
        if volume.name.startswith(VOLUME_PREFIX) and volume.name != keep:
            volume.remove(force=True)


def main(argv: list[str]) -> int:
    """scripts/setup.sh's archive step; ``--check``: exit 1 if the archive is missing."""
    client = docker.from_env()
    if "--check" in argv:
        name = volume_for(client)
        ok = bool(name) and _holds_archive(client, name)
        print(f"setup: class archive ... {'up to date' if ok else 'missing'}")
        return 0 if ok else 1
    name = ensure(client, progress=lambda text: print(f"setup: {text}", flush=True))
    _remove_superseded(client, name)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
