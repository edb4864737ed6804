"""The container images the stack is made of, all built locally by `scripts/setup.sh`."""
from __future__ import annotations

import time
from dataclasses import dataclass

import docker
import docker.errors

DB = "tuninglab/db:17"
WILDFLY = "tuninglab/wildfly:39.0.1"
LOADGEN = "tuninglab/k6:1.8.1"
BALANCER = "tuninglab/haproxy:trixie"  # only a cluster starts one (cluster.py)
FRONT = "tuninglab/httpd:trixie"  # only change kind front-protocol starts one (front.py)
# The JDKs a node may run (change kind "jdk"): the common image has 21; the next long-term
# JDK's image is WILDFLY with that JDK added (images/wildfly-next-jdk, scripts/lib/
# stack-images.sh), so that the two differ in the JDK alone.
JDK = "21"
JDK_IMAGES = {JDK: WILDFLY, "25": "tuninglab/wildfly-next-jdk:39.0.1"}
# Server images that differ from WILDFLY in one thing they add (change kind "node-image"), by
# the name a recipe gives, with the folder each is built from (scripts/lib/stack-images.sh):
# only the recipes that use one change when its folder does (staleness.role_inputs).
NODE_IMAGES = {"libaio": ("tuninglab/wildfly-libaio:39.0.1", "images/wildfly-libaio")}


@dataclass(frozen=True)
class JvmAgent:
    """A native JVM agent on disk in a server image built on WILDFLY (change kind "jvm-agent"):
    every arm runs that image, and an arm loads the agent by naming ``library`` in an
    ``-agentpath`` option."""

    image: str
    folder: str  # what the image is built from (scripts/lib/stack-images.sh)
    library: str  # the agent's path inside the image
    # The options a recipe may give it (safety/jvm_options.agent_problems), and those among
    # them that name a file the agent writes (only under /tmp of the node's container).
    options: tuple[str, ...] = ()
    file_options: tuple[str, ...] = ()


# async-profiler's sampling and output options (its docs' "profiler options"); left out are
# those that reach outside the JVM (fdtransfer: a helper process; jfrsync: a settings file).
JVM_AGENTS = {"async-profiler": JvmAgent(
    "tuninglab/wildfly-async-profiler:39.0.1", "images/wildfly-async-profiler",
    "/opt/async-profiler/lib/libasyncProfiler.so",
    options=("start", "event", "interval", "alloc", "lock", "wall", "jstackdepth", "cstack",
             "threads", "sched", "file", "log", "loglevel", "quiet", "jfr", "collapsed", "flat",
             "traces", "total", "include", "exclude", "live", "loop", "timeout", "chunksize",
             "chunktime"),
    file_options=("file", "log"))}

# The load generator of an app driven by a client JVM (drivers/java_client.py): WILDFLY for its
# JDK and WildFly's client library, with k6 beside them (images/java-client).
CLIENT_JVM = "tuninglab/java-client:39.0.1"

ALL = {"db": DB, "app": WILDFLY, "loadgen": LOADGEN}


class ImageMissingError(RuntimeError):
    pass


def require_images(client: docker.DockerClient, names=ALL.values()) -> dict[str, str]:
    """Return {image name: image id}; a missing image is a clear error, never a pull attempt
    (no registry is reachable here, and a pull would hang until it times out)."""
    ids = {}
    missing = []
    for name in names:
        try:
            ids[name] = client.images.get(name).id
        except docker.errors.ImageNotFound:
            missing.append(name)
    if missing:
        raise ImageMissingError(
            f"image(s) not found: {', '.join(missing)}; build them with: bash scripts/setup.sh")
    return ids


def ensure_on(source: docker.DockerClient, engine, name: str, progress=print) -> None:
    """The image ``name`` on another engine (placement.Engine) as it is on ``source`` (the
    engine set-up builds on): found there with the same id, or copied (docker save | load),
    since no registry is reachable to pull it from."""
    wanted = require_images(source, [name])[name]
    target = engine.client()
    try:
        if target.images.get(name).id == wanted:
            return
    except docker.errors.ImageNotFound:
        pass
    began = time.monotonic()
    target.images.load(source.images.get(name).save(named=True))
    if target.images.get(name).id != wanted:
        raise ImageMissingError(f"{name} copied to {engine.host} arrived as another image")
    progress(f"stack: copied {name} to {engine.host} in {time.monotonic() - began:.1f} s")
