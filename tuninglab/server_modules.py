"""Server modules: code a recipe adds to WildFly itself, beside the application under test.

A server module is a folder under ``server-modules/`` (a Maven project whose jar
scripts/setup.sh builds, and the JBoss ``module.xml`` that names it). A recipe lists the
modules its baseline needs (``[baseline] modules``); before the baseline's CLI runs, each node
gets the module's files under ``/opt/wildfly/modules/<name as a path>/main/``, so the CLI can
refer to it (an Undertow custom filter, a handler). The application and the images stay as
they are: a module is a stack input of its own, and a change to it stales only the results
of the recipes that install it (staleness.py).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from . import layout

__all__ = ["ServerModule", "ServerModuleError", "module_dir", "available", "load",
           "INPUT_FILES"]

MODULES_ROOT = "/opt/wildfly/modules"
INPUT_FILES = ("module.xml", "pom.xml", "src")  # what a module is built from (its stack input)
_NAME = re.compile(r'<module\s[^>]*\bname="([A-Za-z0-9_.-]+)"')
_RESOURCE = re.compile(r'<resource-root\s[^>]*\bpath="([A-Za-z0-9_.-]+)"')


class ServerModuleError(ValueError):
    """A module that cannot be installed: the message names the folder and the fix."""


@dataclass(frozen=True)
class ServerModule:
    folder: str  # its name under server-modules/
    name: str  # the JBoss module name (module.xml), e.g. lab.debugstatements
    module_xml: bytes
    jar_name: str
    jar: bytes

    @property
    def target(self) -> str:
        """Where the module lives in a node."""
        return f"{MODULES_ROOT}/{self.name.replace('.', '/')}/main"

    def files(self) -> dict[str, bytes]:
        """Path in the node -> bytes."""
        return {f"{self.target}/module.xml": self.module_xml,
                f"{self.target}/{self.jar_name}": self.jar}


def module_dir(folder: str, root: Path | None = None) -> Path:
    return Path(root or layout.workspace()) / "server-modules" / folder


def available(root: Path | None = None) -> list[str]:
    base = Path(root or layout.workspace()) / "server-modules"
    return sorted(p.name for p in base.iterdir() if (p / "module.xml").is_file()) \
        if base.is_dir() else []


def load(folder: str, root: Path | None = None) -> ServerModule:
    """The module's files, checked: a module.xml with a name and one resource-root, and the
    jar it names built (by scripts/setup.sh)."""
    where = module_dir(folder, root)
    shown = f"server-modules/{folder}"
    if not (where / "module.xml").is_file():
        allowed = ", ".join(available(root)) or "(none)"
        raise ServerModuleError(f"{shown}/module.xml not found; allowed modules: {allowed}")
    xml = (where / "module.xml").read_bytes()
    text = xml.decode("utf-8")
    name, resource = _NAME.search(text), _RESOURCE.search(text)
    if not name or not resource:
        raise ServerModuleError(f"{shown}/module.xml: needs <module name=...> and one "
                                f"<resource-root path=...>")
    jar = where / "target" / resource.group(1)
    if not jar.is_file():
        raise ServerModuleError(f"{shown}/target/{resource.group(1)} is not built; "
                                f"run: bash scripts/setup.sh app")
    return ServerModule(folder, name.group(1), xml, resource.group(1), jar.read_bytes())
