"""A JVM that starts but disables an option it was given says so on its first lines; the
read-back of a jvm-options change must catch that, not measure a change that did not happen."""
from __future__ import annotations

from types import SimpleNamespace

from tuninglab import changes, layout
from tuninglab.plan import compile_plan
from tuninglab.recipe import load_recipe


class _Container:
    id = "c1"

    def __init__(self, log: str):
        self.log = log.encode()

    def logs(self, **_):
        yield self.log


class _Stack:
    def __init__(self, log: str, arguments: list[str]):
        self.nodes = {"app-1": SimpleNamespace(get_wrapped_container=lambda: _Container(log))}
        self._arguments = arguments

    def management_of(self, node):
        return SimpleNamespace(read_resource=lambda *a, **k: {"input-arguments": self._arguments})


def _kind_and_variant():
    recipe = load_recipe(layout.recipes_dir() / "guide" / "jvm-transparent-huge-pages")
    kind = changes.kind_for(recipe)
    plan = compile_plan(recipe, switch=kind.switch)
    kind.bind(plan.arms)
    return kind, plan.arm("variant")


def test_a_disabled_option_fails_its_read_back():
    kind, variant = _kind_and_variant()
    args = kind.options(variant).split()
    log = ("[0.002s][warning][pagesize] UseTransparentHugePages disabled; transparent huge "
           "pages are not supported by the operating system.\nWildFly starting\n")
    failed = [c for c in kind.read_back(_Stack(log, args), "app-1", variant) if not c.ok]
    assert len(failed) == 1 and "UseTransparentHugePages disabled" in failed[0].actual


def test_an_honoured_option_passes():
    kind, variant = _kind_and_variant()
    args = kind.options(variant).split()
    checks = kind.read_back(_Stack("WildFly starting\n", args), "app-1", variant)
    assert checks and all(c.ok for c in checks)
