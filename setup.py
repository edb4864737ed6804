"""Packaging beyond pyproject.toml: an installed package (``pip install`` of this repository,
not editable) carries the library's own files beside its code, in ``tuninglab/_library/``, so
that the ``tuninglab`` command works outside the checkout (tuninglab/layout.py): the lab's own
app (its sources, and the WAR set-up built from them) and the mixes it is driven with, the
lab's own tools (tools/: tl-net, its source and the binary set-up built), the image contexts and versions the stack's
inputs hash names (the same relative paths, so a result measured from the package records the
hash a checkout's does), the probes, the baseline snippets, the server modules' sources and the
catalogue's recipes (``tuninglab port``). The images themselves are built once from a checkout
(``bash scripts/setup.sh``); an editable install reads the checkout and copies nothing."""
from pathlib import Path
import shutil

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
LIBRARY_FILES = ("apps/orderentry", "images", "probes", "recipes", "scripts/lib/versions.sh",
                 "server-modules", "snippets", "tools", "workloads")
# Build output and caches: what set-up makes from the files, not the files.
SKIPPED = shutil.ignore_patterns("target", "__pycache__", ".*")
# Build output the package carries all the same: the lab's own app, which a node deploys when
# a recipe drives it from a workspace of one's own (copied when set-up has built it; without
# it, a recipe that drives the app is refused with the command that builds it), and tl-net,
# which every run copies into its containers to measure the network (network.py).
BUILT_FILES = ("apps/orderentry/target/orderentry.war", "tools/tl-net/target/tl-net")


class BuildPy(build_py):
    def run(self):
        super().run()
        if getattr(self, "editable_mode", False):
            return
        library = Path(self.build_lib) / "tuninglab" / "_library"
        for name in LIBRARY_FILES:
            source, target = HERE / name, library / name
            target.parent.mkdir(parents=True, exist_ok=True)
            if source.is_dir():
                shutil.copytree(source, target, ignore=SKIPPED, dirs_exist_ok=True)
            else:
                shutil.copy2(source, target)
        for name in BUILT_FILES:
            if (HERE / name).is_file():
                (library / name).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(HERE / name, library / name)


setup(cmdclass={"build_py": BuildPy})
